/**
 * What `node(id:)` and `nodes(ids:)` cost, from the same source table the
 * fetch uses (src/model/node-sources.ts): nothing when a fresh listing holds
 * the entity, otherwise what its last source costs (nothing when that one is
 * fresh). `nodes` shares one load per resource within the operation (the
 * request loader), so a resource several IDs need counts once: ten
 * competitors of one league table cost one standings request.
 *
 * A source that only names the resource holding the entity (a V1 coach:
 * the matches list names the latest game's lineups) costs its own request
 * plus the one it names. While it is cached the estimate reads it (free,
 * through the operation's loader, which execution reuses) and costs the
 * named resource exactly; otherwise that second request is counted as one
 * the cache cannot answer.
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

/** One resource a refetch loads, keyed so that IDs sharing it count it once; `key` undefined: not known before it is loaded. */
interface Load {
  readonly key: string | undefined;
  readonly estimate: Estimate;
}

/** The resources a source loads: itself, then, for a source that names another, that one. */
async function loadsOf(context: EstimateContext, source: NodeSource): Promise<Load[]> {
  const fetcher = context.upstreamCache;
  const own: Load = {
    key: fetcher.keyOf(source.route, source.params as never),
    estimate: resourceEstimate(fetcher, source),
  };
  if (source.follow === undefined) return [own];
  if (!fetcher.isCached(source.route, source.params as never)) {
    return [own, { key: undefined, estimate: { requests: 1, unanswerable: 1 } }];
  }
  let next: NodeSource | undefined;
  try {
    next = source.follow(await context.upstream.load(source.route, source.params as never));
  } catch {
    // Execution fails the same way, before the resource it would have named.
    return [own];
  }
  return next === undefined ? [own] : [own, ...(await loadsOf(context, next))];
}

export async function nodesCost(context: EstimateContext, ids: readonly unknown[]): Promise<Estimate> {
  const byResource = new Map<string, Estimate>();
  const unknown: Estimate[] = [];
  for (const id of ids) {
    const source = await sourceToLoad(context, id);
    if (source === undefined) continue;
    for (const load of await loadsOf(context, source)) {
      if (load.key === undefined) unknown.push(load.estimate);
      else if (!byResource.has(load.key)) byResource.set(load.key, load.estimate);
    }
  }
  let total = { ...nothing };
  for (const estimate of [...byResource.values(), ...unknown]) {
    total = { requests: total.requests + estimate.requests, unanswerable: total.unanswerable + estimate.unanswerable };
  }
  return total;
}
