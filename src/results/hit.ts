/**
 * What serving a stored result does, wherever it is served from (the yoga
 * plugin, src/plugins/use-result-cache.ts, and the HTTP fast path,
 * src/transport/http/result-cache-hits.ts): count each resource it was built from as a
 * cache hit, and report `extensions.cost` in the trace plugin's shape —
 * estimated 0, no upstream request, one cache hit per resource load (what
 * executing again over the fresh cache would report), the allowance and the
 * client's budget as they are — and `extensions.resources` as that execution
 * would too: each counted resource from `cache`, as old as its upstream
 * answer is now. One function so both answers stay identical.
 */
import type { ResourceAnswer } from '../loaders/upstream-loader.js';
import type { Budgets } from '../spend/client-budgets.js';
import { costExtension, type CostExtension } from '../spend/estimate/cost-extension.js';
import type { GatewayMetrics } from '../metrics.js';
import type { Ledger } from '../spend/ledger.js';
import type { ResponseCache } from '../upstream/cache.js';
import type { StoredResult } from './result-cache.js';

export interface HitServices {
  readonly ledger: Pick<Ledger, 'snapshot'>;
  readonly metrics: Pick<GatewayMetrics, 'cacheHits'>;
  readonly budgets: Pick<Budgets, 'remaining'>;
  /** The upstream cache's clock: a resource's age is counted on it, as an executed answer's is. */
  readonly upstream: Pick<ResponseCache, 'ageSince'>;
}

/** A hit's `extensions`: its cost, and its counted resources' ages when the result kept them. */
export interface HitExtensions {
  readonly cost: CostExtension;
  readonly resources?: readonly ResourceAnswer[];
}

/** Records the hit in the cache-hit metric and returns its `extensions`. */
export function recordHit(
  hit: StoredResult,
  { ledger, metrics, budgets, upstream }: HitServices,
  clientName: string | undefined,
): HitExtensions {
  for (const route of hit.routes) metrics.cacheHits.inc({ route });
  const cost = costExtension(
    { estimated: 0, upstreamRequests: 0, cacheHits: hit.routes.length },
    ledger,
    budgets.remaining(clientName),
  );
  if (hit.answers === undefined || hit.answers.length === 0) return { cost };
  return {
    cost,
    resources: hit.answers.map(({ route, storedAt }) => ({
      route,
      source: 'cache',
      ageSeconds: Math.floor(upstream.ageSince(storedAt) / 1000),
    })),
  };
}
