/**
 * What every fuzzed answer must be, and the watch for unhandled rejections
 * (the gateway runs in the test process: startStack calls createGateway).
 */

/** Codes that mean an exception the gateway did not expect reached the client. */
const UNEXPECTED = new Set(['INTERNAL_SERVER_ERROR']);

interface ResponseError {
  message?: unknown;
  extensions?: { code?: unknown };
}

/**
 * Throws (for fast-check to report and shrink) unless the answer is below
 * 500, JSON, and every error in it has a code that is not an unexpected one.
 */
export async function expectCodedResponse(
  response: Response,
  context: unknown,
): Promise<{ executed: boolean; errorCodes: string[] }> {
  const text = await response.text();
  const where = (): string =>
    `\n${JSON.stringify(context).slice(0, 1_500)}\n-> ${response.status} ${text.slice(0, 1_500)}`;
  if (response.status >= 500) throw new Error(`status ${response.status}${where()}`);
  let body: { data?: unknown; errors?: ResponseError[] };
  try {
    body = JSON.parse(text) as { data?: unknown; errors?: ResponseError[] };
  } catch {
    throw new Error(`not JSON${where()}`);
  }
  for (const error of body.errors ?? []) {
    const code = error.extensions?.code;
    if (typeof code !== 'string' || code === '') throw new Error(`an error without a code${where()}`);
    if (UNEXPECTED.has(code)) throw new Error(`an unexpected exception (${code}: ${String(error.message)})${where()}`);
  }
  return {
    executed: body.data !== undefined && body.data !== null,
    errorCodes: (body.errors ?? []).map((error) => String(error.extensions?.code)),
  };
}

/** Every `id` and `nativeId` string in a response, in order, without repeats. */
export function collectIds(data: unknown): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if ((key === 'id' || key === 'nativeId') && typeof inner === 'string') found.add(inner);
        else walk(inner);
      }
    }
  };
  walk(data);
  return [...found];
}

export interface RejectionWatch {
  start(): void;
  stop(): void;
  /** Reasons seen since `start`, as text. */
  seen(): string[];
}

export function trackUnhandledRejections(): RejectionWatch {
  const reasons: string[] = [];
  const listener = (reason: unknown): void => {
    reasons.push(reason instanceof Error ? (reason.stack ?? reason.message) : String(reason));
  };
  return {
    start: () => process.on('unhandledRejection', listener),
    stop: () => process.off('unhandledRejection', listener),
    seen: () => [...reasons],
  };
}
