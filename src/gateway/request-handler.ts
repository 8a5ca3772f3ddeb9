/**
 * What answers a request the front door let in (src/transport/http/front-door.ts):
 * the MCP endpoint for `/mcp` (src/transport/mcp/; with `MCP=false` the same
 * 404 as any path outside the route table), /subgraph's yoga for `/subgraph`, otherwise a result-cache hit answered
 * before yoga (src/transport/http/result-cache-hits.ts) or /graphql's yoga untouched.
 */
import type { RequestListener } from 'node:http';
import { routeSubgraph } from '../federation/route-subgraph.js';
import type { PipelineParts } from '../plugins/pipeline.js';
import { serveResultCacheHits } from '../transport/http/result-cache-hits.js';
import { fastHitSpan } from '../plugins/use-operation-spans.js';
import { notServed } from '../plugins/use-route-table.js';
import { writeRefusal } from '../transport/http/refusal.js';
import { MCP_PATH } from '../transport/mcp/mcp-endpoint.js';
import { pathOfTarget } from '../transport/http/request-path.js';
import type { GatewayYoga } from './graphql-yoga.js';

export function requestHandler(
  parts: PipelineParts,
  yoga: GatewayYoga,
  subgraph: (() => RequestListener) | undefined,
  mcp: RequestListener | undefined,
): RequestListener {
  const { resultCache, tracing, services } = parts;
  const standAlone =
    resultCache === undefined
      ? yoga
      : serveResultCacheHits(
          {
            cache: resultCache,
            keys: parts.clientKeys,
            services: {
              ledger: services.ledger,
              metrics: services.metrics,
              budgets: parts.budgets,
              upstream: services.fetcher.cache,
            },
            fastHits: services.metrics.resultCacheFastHits,
            inputBounds: parts.inputBounds,
            documentOf: parts.persisted.documentOf,
            onHit: tracing === undefined ? undefined : fastHitSpan(tracing),
          },
          yoga,
        );
  const graphql = routeSubgraph(subgraph, standAlone);
  return (req, res) => {
    if (pathOfTarget(req.url) !== MCP_PATH) {
      graphql(req, res);
      return;
    }
    if (mcp !== undefined) {
      mcp(req, res);
      return;
    }
    req.resume();
    writeRefusal(req, res, notServed);
  };
}
