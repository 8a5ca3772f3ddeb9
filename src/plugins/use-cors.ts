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
  /** How long a browser may keep a preflight's answer, in seconds. @default 600 */
  readonly maxAgeSeconds?: number;
  /** Refused origins logged, each once; past this many, one more line says so and no more are logged (an origin is any text a client sends). @default 100 */
  readonly maxLoggedOrigins?: number;
}

/** The origin as a browser writes it (scheme, host, port), or undefined when the header is not one. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export function useCors({
  policy,
  logger,
  methods = ['GET', 'POST'],
  maxAgeSeconds = 600,
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
  const allowMethods = methods.join(', ');
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'OPTIONS') return;
      const header = request.headers.get('origin');
      // Without Origin and a requested method it is no preflight: the route answers OPTIONS as it would (405).
      if (header === null || request.headers.get('access-control-request-method') === null) return;
      const origin = originOf(header);
      if (origin !== undefined && policy.allowsCorsOrigin(origin)) {
        const headers: Record<string, string> = {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': allowMethods,
          'access-control-max-age': String(maxAgeSeconds),
          vary: 'Origin, Access-Control-Request-Headers',
          // Safari waits for a body on a 204 without it.
          'content-length': '0',
        };
        const requested = request.headers.get('access-control-request-headers');
        if (requested !== null) headers['access-control-allow-headers'] = requested;
        endResponse(new fetchAPI.Response(null, { status: 204, headers }));
        return;
      }
      const named = origin ?? 'this page';
      if (origin !== undefined) logRefusal(origin, url.pathname);
      const message =
        `The browser asked whether a page of ${named} may call this gateway, and it may not: the origin is not in GATEWAY_CORS_ORIGINS. ` +
        'To admit a front-end (a dev server on another port, a deployed app), add its origin to GATEWAY_CORS_ORIGINS (comma-separated, e.g. http://localhost:5173) and restart the gateway.';
      endResponse(
        new fetchAPI.Response(refusalBody(url.pathname, { status: 403, code: Code.CORS_ORIGIN_REFUSED, message }), {
          status: 403,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', vary: 'Origin' },
        }),
      );
    },
    onResponse({ request, response }) {
      const header = request.headers.get('origin');
      if (header === null || request.method === 'OPTIONS') return;
      const origin = originOf(header);
      if (origin === undefined || !policy.allowsCorsOrigin(origin)) return;
      response.headers.set('access-control-allow-origin', origin);
      response.headers.append('vary', 'Origin');
    },
  };
}
