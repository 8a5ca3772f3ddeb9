/**
 * The subgraph's cost table: the gateway's own (src/spend/estimate/cost-table.ts)
 * plus `_entities`, which costs what `nodes(ids:)` of the same IDs costs
 * (src/spend/estimate/node-cost.ts): nothing for an entity a fresh listing or cached
 * route holds, one load per distinct resource otherwise, so a hundred
 * representations of one league table's competitors cost one standings
 * request and a hundred distinct uncached teams a hundred. A representation
 * that is refused (no key, a key of the wrong version, a type name the
 * subgraph's schema does not have) is refused in its own slot before any
 * request: it costs nothing, and the others cost as if it were absent.
 */
import { fieldCosts } from '../spend/estimate/cost-table.js';
import type { Args, FieldCost } from '../spend/estimate/cost-rule.js';
import { nodesCost } from '../spend/estimate/node-cost.js';
import { possibleInSchema, representedGlobalId } from './representation.js';

const representations = (args: Args): unknown[] =>
  Array.isArray(args['representations']) ? (args['representations'] as unknown[]) : [];

export const subgraphFieldCosts: Readonly<Record<string, FieldCost>> = {
  ...fieldCosts,
  'Query._entities': {
    estimate: ({ args, context, schema }) => {
      const isPossibleType = possibleInSchema(schema);
      return nodesCost(
        context,
        representations(args).flatMap((representation) => representedGlobalId(representation, isPossibleType) ?? []),
      );
    },
    listSize: (args) => representations(args).length,
  },
};
