/**
 * HTTP caching for whoever sits in front of the gateway (issue 33 item 3):
 * GET answers and persisted (APQ or trusted) operations carry a
 * `Cache-Control` worked out from the freshness of every upstream answer the
 * result was built from, and a weak `ETag` of its `data`; a request whose
 * `If-None-Match` names it gets a 304 without the body.
 *
 * Why our own and not @envelop/response-cache's: its TTL comes from
 * per-type or per-field settings, but ours is the upstream cache's, which
 * follows the state of each match (src/upstream/match-freshness.ts); the
 * shape of the header is the same (`max-age` of the shortest, `private`
 * when the answer is a client's, `no-store` when it must not be kept).
 *
 * - `no-store`: errors, stale parts, or a field whose value changes without
 *   an upstream answer changing (src/results/cacheable.ts: `quota`...).
 * - `no-cache`: nothing loaded tells how long the answer holds, or it is
 *   already due.
 * - otherwise `public` (or `private` when a client key picked the answer,
 *   whose budget and results are its own), `max-age` = whole seconds the
 *   least fresh upstream answer it used stays fresh.
 *
 * Placed before the result cache (src/plugins/pipeline.ts): a stored
 * result's hit passes through this stage's `onExecuteDone` too, and its
 * resources are those it was built from (`hitResources`).
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';
import { isCacheableOperation } from '../results/cacheable.js';
import { hitResources } from '../results/fresh-results.js';

const ONE_YEAR = 365 * 24 * 3600;

interface HttpFreshness {
  readonly cacheControl: string;
  readonly etag: string | undefined;
}

export interface HttpCachingOptions {
  /** Milliseconds an upstream answer stays fresh (the response cache's `freshForMs`). */
  readonly freshForMs: (key: string) => number;
}

export function useHttpCaching({ freshForMs }: HttpCachingOptions): Plugin<GatewayContext> {
  const byRequest = new WeakMap<Request, HttpFreshness>();
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      const request = context.request as Request | undefined;
      const trace = context.upstream?.trace;
      if (request === undefined || trace === undefined) return undefined;
      const extensions = context.params?.extensions as Record<string, unknown> | undefined;
      // GET, or a persisted operation: what a cache in front can key by URL or hash.
      const applies =
        request.method === 'GET' ||
        extensions?.['persistedQuery'] !== undefined ||
        (context.params as { documentId?: unknown } | undefined)?.documentId !== undefined;
      // Nothing to write for a request these headers do not apply to (a plain POST; batching is off, so one
      // execution per request): its data is neither serialized nor hashed for an ETag no one sends.
      if (!applies) return undefined;
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return;
          const store = (cacheControl: string, etag?: string): void => {
            byRequest.set(request, { cacheControl, etag });
          };
          if ((result.errors?.length ?? 0) > 0 || trace.stale.length > 0 || result.data == null)
            return store('no-store');
          if (!isCacheableOperation(args.document, args.operationName)) return store('no-store');
          const etag = `W/"${createHash('sha1').update(JSON.stringify(result.data)).digest('base64url')}"`;
          const keys =
            trace.resources.length > 0 ? trace.resources.map((r) => r.key) : (hitResources.get(context) ?? []);
          if (keys.length === 0) return store('no-cache', etag);
          let ms = Infinity;
          for (const key of keys) ms = Math.min(ms, freshForMs(key));
          const seconds = Math.floor(ms / 1000);
          if (seconds <= 0) return store('no-cache', etag);
          const scope = context.clientName === undefined ? 'public' : 'private';
          // An ended match's answer never changes: a year (the most HTTP caches honour), and `immutable`.
          store(
            seconds >= ONE_YEAR ? `${scope}, max-age=${ONE_YEAR}, immutable` : `${scope}, max-age=${seconds}`,
            etag,
          );
        },
      };
    },
    onResponse({ request, response, setResponse }) {
      const freshness = byRequest.get(request);
      if (freshness === undefined) return;
      response.headers.set('cache-control', freshness.cacheControl);
      if (freshness.etag === undefined || response.status !== 200) return;
      response.headers.set('etag', freshness.etag);
      const { etag } = freshness;
      const asked = (request.headers.get('if-none-match') ?? '').split(',').map((tag) => tag.trim());
      if (asked.includes(etag) || asked.includes('*')) {
        setResponse(
          new Response(null, {
            status: 304,
            headers: { 'cache-control': freshness.cacheControl, etag: freshness.etag },
          }),
        );
      }
    },
  };
}
