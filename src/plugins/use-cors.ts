/**
 * CORS that explains itself. A browser asks first (`OPTIONS` with
 * `Access-Control-Request-Method`) before a page of another origin may POST
 * JSON to `/graphql`:
 *
 * - an allowed origin (HostPolicy.allowsCorsOrigin: `GATEWAY_CORS_ORIGINS`,
 *   and on the embedded sandbox every loopback origin) gets 204 with the
 *   `Access-Control-*` headers, and its real requests get
 *   `Access-Control-Allow-Origin`;
 * - any other origin gets 403 `CORS_ORIGIN_REFUSED` whose message names
 *   `GATEWAY_CORS_ORIGINS` (the browser's network panel and curl show it),
 *   and the gateway logs it once per origin.
 *
 * Yoga's own CORS (`cors` option) answers every preflight 204 whatever the
 * origin and says nothing, so the gateway turns it off and uses this one.
 * A request without `Origin` is not a browser's cross-origin request and is
 * not concerned. The CSRF refusal (use-csrf-refusal.ts) judges the real
 * request by the same HostPolicy, so an origin admitted here also runs.
 *
 * The decision itself is one pure function, `corsAnswer`, which the MCP
 * endpoint (src/transport/mcp/mcp-endpoint.ts) calls for `/mcp` too.
 */
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { Code } from '../codes/error-codes.js';
import type { HostPolicy } from '../access/allowed-hosts.js';
import { refusalBody } from '../transport/http/refusal.js';

export interface CorsOptions {
  readonly policy: HostPolicy;
  readonly logger: Logger;
  /** Methods a page may use. @default ['GET', 'POST'] */
  readonly methods?: readonly string[];
  /** How long a browser may keep a preflight's answer, in seconds. @default CORS_MAX_AGE_SECONDS */
  readonly maxAgeSeconds?: number;
  /** Refused origins logged, each once; past this many, one more line says so and no more are logged (an origin is any text a client sends). @default 100 */
  readonly maxLoggedOrigins?: number;
}

/** How long a browser may keep a preflight's answer, in seconds: ten minutes. */
export const CORS_MAX_AGE_SECONDS = 600;

/** The origin as a browser writes it (scheme, host, port), or undefined when the header is not one. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The request headers CORS reads. */
export interface CorsAsked {
  readonly method: string;
  /** `Origin`, null when absent. */
  readonly origin: string | null;
  /** `Access-Control-Request-Method`, null when absent. */
  readonly requestMethod: string | null;
  /** `Access-Control-Request-Headers`, null when absent. */
  readonly requestHeaders: string | null;
}

export interface CorsRules {
  readonly policy: Pick<HostPolicy, 'allowsCorsOrigin'>;
  /** Methods a page may use. */
  readonly methods: readonly string[];
  /** How long a browser may keep a preflight's answer, in seconds. */
  readonly maxAgeSeconds: number;
}

/**
 * What CORS answers one request, decided from its headers alone:
 * - `preflight`: an allowed origin's preflight, answered 204 with `headers`;
 * - `refused`: a preflight of an origin that may not call, answered 403
 *   with `message` (each endpoint picks its code); `origin` is undefined
 *   when the header is no origin at all;
 * - `allowed`: an allowed origin's real request, whose answer names `origin`
 *   in `Access-Control-Allow-Origin` (and `Vary: Origin`);
 * - `none`: no cross-origin request (no `Origin`, or an `OPTIONS` that is
 *   no preflight), or a real request of an origin CORS does not admit
 *   (the browser then withholds the answer; the CSRF and Origin checks
 *   judge whether it runs).
 * Shared by /graphql (useCors) and /mcp (src/transport/mcp/mcp-endpoint.ts), so the two cannot drift apart.
 */
export type CorsAnswer =
  | { readonly kind: 'preflight'; readonly headers: Readonly<Record<string, string>> }
  | { readonly kind: 'refused'; readonly origin: string | undefined; readonly message: string }
  | { readonly kind: 'allowed'; readonly origin: string }
  | { readonly kind: 'none' };

export function corsAnswer(asked: CorsAsked, { policy, methods, maxAgeSeconds }: CorsRules): CorsAnswer {
  if (asked.origin === null) return { kind: 'none' };
  const origin = originOf(asked.origin);
  const allowed = origin !== undefined && policy.allowsCorsOrigin(origin);
  if (asked.method !== 'OPTIONS') {
    return allowed ? { kind: 'allowed', origin } : { kind: 'none' };
  }
  // Without a requested method it is no preflight: the route answers OPTIONS as it would (405).
  if (asked.requestMethod === null) return { kind: 'none' };
  if (allowed) {
    const headers: Record<string, string> = {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': methods.join(', '),
      'access-control-max-age': String(maxAgeSeconds),
      vary: 'Origin, Access-Control-Request-Headers',
      // Safari waits for a body on a 204 without it.
      'content-length': '0',
    };
    if (asked.requestHeaders !== null) headers['access-control-allow-headers'] = asked.requestHeaders;
    return { kind: 'preflight', headers };
  }
  const named = origin ?? 'this page';
  return {
    kind: 'refused',
    origin,
    message:
      `The browser asked whether a page of ${named} may call this gateway, and it may not: the origin is not in GATEWAY_CORS_ORIGINS. ` +
      'To admit a front-end (a dev server on another port, a deployed app), add its origin to GATEWAY_CORS_ORIGINS (comma-separated, e.g. http://localhost:5173) and restart the gateway.',
  };
}

export function useCors({
  policy,
  logger,
  methods = ['GET', 'POST'],
  maxAgeSeconds = CORS_MAX_AGE_SECONDS,
  maxLoggedOrigins = 100,
}: CorsOptions): Plugin {
  const logged = new Set<string>();
  const logRefusal = (origin: string, path: string): void => {
    if (logged.has(origin) || logged.size > maxLoggedOrigins) return;
    logged.add(origin);
    if (logged.size > maxLoggedOrigins) {
      logger.warn(
        { refusedOrigins: maxLoggedOrigins },
        'more CORS origins refused: no more are logged until the gateway restarts',
      );
      return;
    }
    logger.warn(
      { origin, path, setting: 'GATEWAY_CORS_ORIGINS' },
      `refused a browser's CORS preflight from ${origin}: it is not in GATEWAY_CORS_ORIGINS; to admit it (a front-end dev server), set GATEWAY_CORS_ORIGINS=${origin} (comma-separated full origins) and restart`,
    );
  };
  const rules: CorsRules = { policy, methods, maxAgeSeconds };
  const asked = (request: Request): CorsAsked => ({
    method: request.method,
    origin: request.headers.get('origin'),
    requestMethod: request.headers.get('access-control-request-method'),
    requestHeaders: request.headers.get('access-control-request-headers'),
  });
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'OPTIONS') return;
      const answer = corsAnswer(asked(request), rules);
      if (answer.kind === 'preflight') {
        endResponse(new fetchAPI.Response(null, { status: 204, headers: answer.headers }));
        return;
      }
      if (answer.kind !== 'refused') return;
      if (answer.origin !== undefined) logRefusal(answer.origin, url.pathname);
      endResponse(
        new fetchAPI.Response(
          refusalBody(url.pathname, { status: 403, code: Code.CORS_ORIGIN_REFUSED, message: answer.message }),
          {
            status: 403,
            headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', vary: 'Origin' },
          },
        ),
      );
    },
    onResponse({ request, response }) {
      const answer = corsAnswer(asked(request), rules);
      if (answer.kind !== 'allowed') return;
      response.headers.set('access-control-allow-origin', answer.origin);
      response.headers.append('vary', 'Origin');
    },
  };
}
