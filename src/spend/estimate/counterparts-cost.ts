/**
 * What `counterparts` costs: one counted search per asked version that
 * neither a link nor a learned finding answers (src/identity/find-counterparts.ts's
 * `searchesNeeded`, the same test the field runs), plus, for
 * `Query.counterparts(id:)`, loading the entity when a search is needed
 * (node-cost.ts). A match's field prices the listing it reads instead, once
 * per operation however many matches share it, and nothing when it is fresh
 * in the cache. A type field whose parent the estimate does not know is
 * bounded by one request per other version that may answer it.
 */
import type { Described, DescribedMatch, EntityKind } from '../../identity/entity-ref.js';
import { refOfGlobalId } from '../../identity/describe.js';
import { matchListing, mayRequest, otherVersions, searchesNeeded } from '../../identity/find-counterparts.js';
import { fromGlobalId } from '../../model/global-id.js';
import type { Version } from '../../upstream/routes/route.js';
import { nothing, resourceEstimate, type Estimate } from '../resource-estimate.js';
import { computed, type Args, type EstimateContext, type FieldCost } from './cost-rule.js';
import { nodesCost } from './node-cost.js';

const versionsOf = (args: Args): Version[] =>
  Array.isArray(args['versions']) ? (args['versions'] as string[]).map((v) => v.toLowerCase() as Version) : [];

const searches = (n: number): Estimate => ({ requests: n, unanswerable: n });

/** `Query.counterparts(id:, versions:)`. */
export const counterpartsByIdCost: FieldCost = computed(async ({ args, context }) => {
  let ref;
  try {
    ref = refOfGlobalId(fromGlobalId(String(args['id'])));
  } catch {
    return nothing; // A malformed ID is refused before any request.
  }
  if (ref === undefined) return nodesCost(context, [args['id']]); // Loaded, then refused by type.
  const needed = await searchesNeeded(context.counterparts, ref, versionsOf(args));
  if (needed.length === 0) return nothing;
  const node = await nodesCost(context, [args['id']]);
  return { requests: node.requests + needed.length, unanswerable: node.unanswerable + needed.length };
});

/** `<Type>.counterparts(versions:)`, the parent read by `describe` when the estimate knows it. */
export function counterpartsCost(own: Version, kind: EntityKind, describe: (parent: never) => Described): FieldCost {
  return computed(async ({ args, context, parent }) => {
    const versions = versionsOf(args);
    if (parent === undefined) {
      const others = otherVersions({ version: own, sport: '', kind, nativeId: '' }, versions);
      return searches(others.filter((v) => mayRequest(kind, v)).length);
    }
    const source = describe(parent as never);
    const needed = await searchesNeeded(context.counterparts, source, versions);
    return source.kind === 'match' ? listingsCost(context, source, needed) : searches(needed.length);
  });
}

/**
 * Listings already counted in one operation's estimate, by cache key: the
 * matches of one round share one listing, which the operation's loader
 * loads once. Keyed by the operation's loader (one per operation).
 */
const countedListings = new WeakMap<object, Set<string>>();

/** A match's listings: each once per operation, nothing when fresh in the cache, nothing where no listing exists. */
function listingsCost(context: EstimateContext, source: DescribedMatch, needed: readonly Version[]): Estimate {
  let counted = countedListings.get(context.upstream);
  if (counted === undefined) {
    counted = new Set();
    countedListings.set(context.upstream, counted);
  }
  let total = { ...nothing };
  for (const target of needed) {
    const listing = matchListing(context.counterparts, source, target);
    if (listing === undefined) continue;
    const key = context.upstreamCache.keyOf(listing.route, listing.params);
    if (counted.has(key)) continue;
    counted.add(key);
    const one = resourceEstimate(context.upstreamCache, { route: listing.route as never, params: listing.params });
    total = { requests: total.requests + one.requests, unanswerable: total.unanswerable + one.unanswerable };
  }
  return total;
}
