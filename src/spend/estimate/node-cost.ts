/**
 * What `node(id:)` and `nodes(ids:)` cost, from the same source table the
 * fetch uses (src/model/node-sources.ts): nothing when a fresh listing holds
 * the entity, otherwise what its last source costs (nothing when that one is
 * fresh). `nodes` shares one load per resource within the operation (the
 * request loader), so a resource several IDs need counts once: ten
 * competitors of one league table cost one standings request.
 */
import { fromGlobalId } from '../../model/global-id.js';
import { freshListingHit, sourcesOf, type NodeSource } from '../../model/node-sources.js';
import type { EstimateContext } from './cost-rule.js';
import { nothing, resourceEstimate, type Estimate } from '../resource-estimate.js';

/** The source an ID will be loaded from, or undefined when it costs nothing (cached listing, or refused before any request). */
async function sourceToLoad(context: EstimateContext, id: unknown): Promise<NodeSource | undefined> {
  let sources: readonly NodeSource[];
  try {
    sources = sourcesOf(fromGlobalId(String(id)));
  } catch {
    // A malformed ID, an unknown type or a documented gap is refused before any request.
    return undefined;
  }
  if ((await freshListingHit(context, sources)) !== undefined) return undefined;
  return sources[sources.length - 1];
}

export async function nodesCost(context: EstimateContext, ids: readonly unknown[]): Promise<Estimate> {
  const fetcher = context.upstreamCache;
  const byResource = new Map<string, Estimate>();
  for (const id of ids) {
    const source = await sourceToLoad(context, id);
    if (source === undefined) continue;
    const key = fetcher.keyOf(source.route, source.params as never);
    if (!byResource.has(key))
      byResource.set(key, resourceEstimate(fetcher, { route: source.route, params: source.params }));
  }
  let total = { ...nothing };
  for (const estimate of byResource.values()) {
    total = { requests: total.requests + estimate.requests, unanswerable: total.unanswerable + estimate.unanswerable };
  }
  return total;
}
