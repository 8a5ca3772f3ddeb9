/**
 * A tiny path router over node:http. Each route says, as data, whether it needs
 * the key and whether it spends the allowance; the pipeline in `server.ts`
 * enforces both, so a handler only turns a request into a payload.
 */
import type { Fixtures } from './fixtures/build.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteContext {
  /** `:param` segments of the template, URI-decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly fixtures: Fixtures;
  /** The sandbox clock when the request arrived, ms since the epoch. */
  readonly now: number;
}

/**
 * What a handler answers: a `Buffer` body is sent as it is with `contentType`;
 * anything else is sent as JSON.
 */
export interface RouteResult {
  readonly status: number;
  readonly body: unknown;
  /** Only for `Buffer` bodies. @default 'application/octet-stream' */
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RouteDefinition {
  readonly method: HttpMethod;
  /** `/v1/hockey/standings`, `/api/v1/game/:gameId/lineups`. */
  readonly template: string;
  /** Spec 5: the request must carry the valid `x-api-key`. */
  readonly auth: boolean;
  /** Spec 8: a 2xx or 404 answer spends one unit of the daily allowance. */
  readonly counted: boolean;
  handler(ctx: RouteContext): RouteResult | Promise<RouteResult>;
}

export interface RouteMatch {
  readonly route: RouteDefinition;
  readonly params: Readonly<Record<string, string>>;
}

interface CompiledRoute {
  readonly route: RouteDefinition;
  readonly segments: readonly Segment[];
  /** One character per segment, `1` static and `0` param: a static segment beats a param at the same depth. */
  readonly rank: string;
}

type Segment = { readonly literal: string } | { readonly param: string };

export class Router {
  readonly #routes: CompiledRoute[] = [];

  add(route: RouteDefinition): this {
    if (!route.template.startsWith('/')) {
      throw new TypeError(`Route template must start with "/", got "${route.template}"`);
    }
    if (this.#routes.some((r) => r.route.method === route.method && r.route.template === route.template)) {
      throw new TypeError(`Route ${route.method} ${route.template} is registered twice`);
    }
    const segments = route.template
      .split('/')
      .slice(1)
      .map((s): Segment => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s }));
    const rank = segments.map((s) => ('literal' in s ? '1' : '0')).join('');
    this.#routes.push({ route, segments, rank });
    return this;
  }

  /** The best route for a method and a raw (undecoded) pathname, if any. */
  match(method: string, pathname: string): RouteMatch | undefined {
    const parts = pathname.split('/').slice(1);
    let best: { compiled: CompiledRoute; params: Record<string, string> } | undefined;
    for (const compiled of this.#routes) {
      if (compiled.route.method !== method || compiled.segments.length !== parts.length) continue;
      const params = matchSegments(compiled.segments, parts);
      if (params !== undefined && (best === undefined || compiled.rank > best.compiled.rank)) {
        best = { compiled, params };
      }
    }
    return best === undefined ? undefined : { route: best.compiled.route, params: best.params };
  }
}

function matchSegments(segments: readonly Segment[], parts: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const [i, segment] of segments.entries()) {
    const part = parts[i] ?? '';
    if ('literal' in segment) {
      if (part !== segment.literal) return undefined;
      continue;
    }
    if (part === '') return undefined;
    try {
      params[segment.param] = decodeURIComponent(part);
    } catch {
      return undefined; // malformed %-escape: no route has such a path
    }
  }
  return params;
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers?: Readonly<Record<string, string>>): RouteResult {
  return headers === undefined ? { status, body } : { status, body, headers };
}

/** The upstream's error shape: `{"error": message}`. */
export function errorResult(status: number, message: string): RouteResult {
  return { status, body: { error: message } };
}

/**
 * Thrown by a handler to answer `{"error": message}` with `status`, so that
 * parameter checks can live in small helpers instead of in every handler.
 */
export class HttpError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
  }
}
