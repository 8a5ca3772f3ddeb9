/**
 * One child span per upstream resource an operation loads
 * (src/loaders/upstream-loader.ts tells of each load), named and labelled by
 * route template: never the path with its IDs, the query string or the key.
 *
 * Attributes:
 * - `sports_graph.upstream.version`, `url.template`, `http.request.method`;
 * - `sports_graph.cache.outcome`: `hit` (fresh in the cache), `miss` (this
 *   operation sent the request), `stale` (an old copy answered), `shared`
 *   (another operation's request in flight answered);
 * - `sports_graph.upstream.requests` (sent for this load: 2 for a 502
 *   retried once), `sports_graph.upstream.counted` (whether any of them
 *   spent the allowance), `sports_graph.route.counted` (whether the route
 *   can);
 * - `sports_graph.allowance.remaining` once the load ended;
 * - on failure `error.type` = the coded error, and an error status.
 */
import { SpanKind, SpanStatusCode, type Context, type Tracer } from '@opentelemetry/api';
import { Code } from '../codes/error-codes.js';
import type { LoadObserver, LoadOutcome } from '../loaders/upstream-loader.js';
import type { CacheSource } from '../upstream/cache.js';
import { GatewayError } from '../upstream/errors.js';
import type { Ledger } from '../spend/ledger.js';

const outcomes: Readonly<Record<CacheSource, string>> = {
  cache: 'hit',
  upstream: 'miss',
  stale: 'stale',
  shared: 'shared',
};

export function upstreamSpans(tracer: Tracer, parent: Context, ledger: Pick<Ledger, 'snapshot'>): LoadObserver {
  return {
    loadStarted(route) {
      const span = tracer.startSpan(
        `GET ${route.template}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': 'GET',
            'url.template': route.template,
            'sports_graph.upstream.version': route.version,
            'sports_graph.route.counted': route.counted,
          },
        },
        parent,
      );
      return (outcome: LoadOutcome) => {
        span.setAttributes({
          // A failed load sent its request, or found nothing to answer with: a miss either way.
          'sports_graph.cache.outcome': outcome.source === undefined ? 'miss' : outcomes[outcome.source],
          'sports_graph.upstream.requests': outcome.requests,
          'sports_graph.upstream.counted': outcome.counted > 0,
          'sports_graph.allowance.remaining': ledger.snapshot().remaining,
        });
        if (outcome.stale !== undefined) {
          span.setAttributes({
            'sports_graph.stale.reason': outcome.stale.reason,
            'sports_graph.stale.age_seconds': outcome.stale.ageSeconds,
          });
        }
        if (outcome.error !== undefined) {
          const code = outcome.error instanceof GatewayError ? outcome.error.code : Code.INTERNAL_SERVER_ERROR;
          span.setAttribute('error.type', code);
          span.setStatus({ code: SpanStatusCode.ERROR, message: code });
        }
        span.end();
      };
    },
  };
}
