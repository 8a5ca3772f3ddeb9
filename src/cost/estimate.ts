/**
 * The pre-execution estimate: an upper bound of the counted upstream
 * requests one operation can make, from the cost table (field-costs.ts),
 * the operation's arguments and the cache's state.
 *
 * It walks the selected fields the way execution would reach them
 * (fragments inlined, `@skip`/`@include` honoured) and adds, for each field,
 * its own cost plus its children's cost times the items it can return:
 * the `first`/`limit` argument, a list argument's length, a connection's
 * `first` for its `edges`/`nodes`, the spec's known sizes, or
 * DEFAULT_LIST_SIZE. When each item of a list costs something and the
 * list comes from one cheap resource the field loads anyway, the list is
 * loaded first and its real length used (`probeListSize`): the estimate is
 * then exact where a bound would refuse a query whose real cost is small;
 * what that load spent is part of the operation's estimate and actual
 * (src/plugins/use-cost-limit.ts). Selections on an interface count, per field, the most
 * any implementation costs. Repeated selections count again: an
 * over-estimate, never an under-estimate.
 */
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  typeFromAST,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { GatewayContext } from '../context.js';
import { DEFAULT_FIRST, type Args, type CostInput, type Estimate, type FieldCost } from './field-cost.js';
import { DEFAULT_LIST_SIZE, fieldCosts, listSizes } from './field-costs.js';

export interface EstimateInput {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  /** Coerced variable values. */
  variables: Readonly<Record<string, unknown>>;
  context: GatewayContext;
  /** @default fieldCosts */
  costs?: Readonly<Record<string, FieldCost>>;
}

interface Walk {
  readonly input: EstimateInput;
  readonly costs: Readonly<Record<string, FieldCost>>;
}

const add = (a: Estimate, b: Estimate, times = 1): Estimate => ({
  requests: a.requests + b.requests * times,
  unanswerable: a.unanswerable + b.unanswerable * times,
});

export async function estimateOperation(input: EstimateInput): Promise<Estimate> {
  const root = input.schema.getRootType(input.operation.operation);
  if (root === undefined || root === null) return { requests: 0, unanswerable: 0 };
  return selectionCost({ input, costs: input.costs ?? fieldCosts }, root, input.operation.selectionSet, [], undefined);
}

function included(walk: Walk, node: SelectionNode): boolean {
  const variables = walk.input.variables as Record<string, unknown>;
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.['if'] === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.['if'] !== false;
}

/**
 * @param connectionSize set when `type` is a connection: the items its
 *   `edges`/`nodes` lists hold (its field's `first`).
 */
async function selectionCost(
  walk: Walk,
  type: GraphQLCompositeType,
  set: SelectionSetNode,
  ancestors: readonly Args[],
  connectionSize: number | undefined,
): Promise<Estimate> {
  let total: Estimate = { requests: 0, unanswerable: 0 };
  for (const selection of set.selections) {
    if (!included(walk, selection)) continue;
    if (selection.kind === Kind.FIELD) {
      total = add(total, await fieldCost(walk, type, selection, ancestors, connectionSize));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition === undefined ? type : typeFromAST(walk.input.schema, selection.typeCondition);
      if (on !== undefined && isCompositeType(on)) total = add(total, await selectionCost(walk, on, selection.selectionSet, ancestors, connectionSize));
    } else {
      const fragment = walk.input.fragments[selection.name.value];
      const on = fragment === undefined ? undefined : typeFromAST(walk.input.schema, fragment.typeCondition);
      if (fragment !== undefined && on !== undefined && isCompositeType(on)) {
        total = add(total, await selectionCost(walk, on, fragment.selectionSet, ancestors, connectionSize));
      }
    }
  }
  return total;
}

function fieldOf(type: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  return isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
}

/** The entries that may resolve `type.field`: the type's own, or every implementation's. */
function entriesFor(walk: Walk, type: GraphQLCompositeType, name: string): FieldCost[] {
  const types = isAbstractType(type) ? walk.input.schema.getPossibleTypes(type) : [type];
  return types.map((t) => walk.costs[`${t.name}.${name}`]).filter((entry): entry is FieldCost => entry !== undefined);
}

async function fieldCost(
  walk: Walk,
  type: GraphQLCompositeType,
  node: FieldNode,
  ancestors: readonly Args[],
  connectionSize: number | undefined,
): Promise<Estimate> {
  const field = fieldOf(type, node.name.value);
  if (field === undefined) return { requests: 0, unanswerable: 0 };
  let args: Args;
  try {
    args = getArgumentValues(field, node, walk.input.variables as Record<string, unknown>);
  } catch {
    // Invalid arguments fail at execution, before any request.
    args = {};
  }
  const input: CostInput = { args, ancestors, fetcher: walk.input.context.services.fetcher, context: walk.input.context };
  const entries = entriesFor(walk, type, node.name.value);
  if (await failsBeforeRequests(entries, input)) return { requests: 0, unanswerable: 0 };
  let own = await ownCost(entries, input);
  if (node.selectionSet === undefined) return own;

  const returned = getNamedType(field.type);
  if (!isCompositeType(returned)) return own;
  const isList = isListType(getNullableType(field.type));
  let size = isList ? listSize(walk, type, node.name.value, args, entries, connectionSize) : 1;
  const ownConnectionSize = returned.name.endsWith('Connection') ? numberArg(args, 'first') ?? DEFAULT_FIRST : undefined;
  const children = await selectionCost(walk, returned, node.selectionSet, [args, ...ancestors], ownConnectionSize);
  const probe = isList && children.requests > 0 ? entries.find((entry) => entry.probeListSize !== undefined) : undefined;
  const probed = await probe?.probeListSize?.(input);
  if (probed !== undefined) {
    // The list itself is now loaded (counted in what the operation spent): the field costs only its items.
    size = probed;
    own = await ownCost(entries, input);
  }
  return add(own, children, size);
}

async function failsBeforeRequests(entries: readonly FieldCost[], input: CostInput): Promise<boolean> {
  if (entries.length === 0) return false;
  for (const entry of entries) if ((await entry.failsBeforeRequests?.(input)) !== true) return false;
  return true;
}

async function ownCost(entries: readonly FieldCost[], input: CostInput): Promise<Estimate> {
  let own: Estimate = { requests: 0, unanswerable: 0 };
  for (const entry of entries) {
    const estimate = await entry.estimate(input);
    if (estimate.requests > own.requests) own = { ...estimate };
    else if (estimate.requests === own.requests) own.unanswerable = Math.max(own.unanswerable, estimate.unanswerable);
  }
  return own;
}

function numberArg(args: Args, name: string): number | undefined {
  const value = args[name];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function listSize(
  walk: Walk,
  type: GraphQLCompositeType,
  name: string,
  args: Args,
  entries: readonly FieldCost[],
  connectionSize: number | undefined,
): number {
  for (const entry of entries) {
    const size = entry.listSize?.(args);
    if (size !== undefined) return size;
  }
  const asked = numberArg(args, 'first') ?? numberArg(args, 'limit');
  if (asked !== undefined) return asked;
  if (connectionSize !== undefined && (name === 'edges' || name === 'nodes')) return connectionSize;
  const types = isAbstractType(type) ? walk.input.schema.getPossibleTypes(type) : [type];
  const known = types.map((t) => listSizes[`${t.name}.${name}`]).filter((n): n is number => n !== undefined);
  return known.length > 0 ? Math.max(...known) : DEFAULT_LIST_SIZE;
}
