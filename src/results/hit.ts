/**
 * What serving a stored result does, wherever it is served from (the yoga
 * plugin, src/plugins/use-result-cache.ts, and the HTTP fast path,
 * src/transport/http/result-cache-hits.ts): count each resource it was built from as a
 * cache hit, and report `extensions.cost` in the trace plugin's shape —
 * estimated 0, no upstream request, one cache hit per resource load (what
 * executing again over the fresh cache would report), the allowance and the
 * client's budget as they are. One function so both answers stay identical.
 */
import type { Budgets } from '../spend/client-budgets.js';
import { costExtension, type CostExtension } from '../spend/estimate/cost-extension.js';
import type { GatewayMetrics } from '../metrics.js';
import type { Ledger } from '../spend/ledger.js';
import type { StoredResult } from './result-cache.js';

export interface HitServices {
  readonly ledger: Pick<Ledger, 'snapshot'>;
  readonly metrics: Pick<GatewayMetrics, 'cacheHits'>;
  readonly budgets: Pick<Budgets, 'remaining'>;
}

/** Records the hit in the cache-hit metric and returns its `extensions.cost`. */
export function recordHit(
  hit: StoredResult,
  { ledger, metrics, budgets }: HitServices,
  clientName: string | undefined,
): CostExtension {
  for (const route of hit.routes) metrics.cacheHits.inc({ route });
  return costExtension(
    { estimated: 0, upstreamRequests: 0, cacheHits: hit.routes.length },
    ledger,
    budgets.remaining(clientName),
  );
}
