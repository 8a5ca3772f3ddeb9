/**
 * What `counterparts` costs: one counted search per asked version that
 * neither a link nor a learned finding answers (src/identity/find-counterparts.ts's
 * `searchesNeeded`, the same test the field runs), plus, for
 * `Query.counterparts(id:)`, loading the entity when a search is needed
 * (node-cost.ts). A type field whose parent the estimate does not know is
 * bounded by one search per other searchable version.
 */
import type { Described, EntityKind } from '../../identity/entity-ref.js';
import { refOfGlobalId } from '../../identity/describe.js';
import { mayRequest, otherVersions, searchesNeeded } from '../../identity/find-counterparts.js';
import { fromGlobalId } from '../../model/global-id.js';
import type { Version } from '../../upstream/routes/route.js';
import { nothing, type Estimate } from '../resource-estimate.js';
import { computed, type Args, type FieldCost } from './cost-rule.js';
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
    return searches((await searchesNeeded(context.counterparts, describe(parent as never), versions)).length);
  });
}
