/**
 * The pre-execution estimate: an upper bound of the counted upstream
 * requests one operation can make, from what is already known, the cost
 * table (field-costs.ts), the operation's arguments and the cache's state.
 *
 * It walks the selected fields the way execution would reach them
 * (fragments inlined, `@skip`/`@include` honoured). Where the parent's value
 * is known (a query's root, then whatever resolved without a new counted
 * request) each field's resolver runs dry (resolve-known.ts): resolved, it
 * costs nothing and its children are walked over its real value, item by
 * item, with only the fragments that apply to each item's type. Otherwise a
 * field costs its table entry plus its children's cost times the items it
 * can return: the `first`/`limit` argument, a list argument's length, a
 * connection's `first` for its `edges`/`nodes`, the spec's known sizes, or
 * DEFAULT_LIST_SIZE.
 *
 * Loaded ahead, because the estimate is then exact where a bound would
 * refuse a query whose real cost is small (each is a request execution
 * makes anyway and reuses through the operation's loader; what it spent is
 * part of the operation's estimate and actual, src/plugins/use-cost-limit.ts):
 * a field of at most one counted request whose children cost; the pages of
 * a paged list, in order, while its bound says more than one. A resource a
 * second field stops at after an earlier one counted it is counted once
 * (the operation's loader shares it). Selections on an interface whose values are
 * not known count, per field, the most any implementation costs. Repeated
 * selections count again: an over-estimate, never an under-estimate.
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
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import {
  DEFAULT_FIRST,
  mayProbe,
  type Args,
  type CostInput,
  type EstimateConfig,
  type EstimateContext,
  type FieldCost,
} from './cost-rule.js';
import type { Estimate } from '../resource-estimate.js';
import { DEFAULT_LIST_SIZE, fieldCosts, listSizes, unresolvable } from './cost-table.js';
import { concreteTypeOf, resolveField, type Missing, type Resolution } from './resolve-known.js';

export interface EstimateInput {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  /** Coerced variable values. */
  variables: Readonly<Record<string, unknown>>;
  context: EstimateContext;
  config: EstimateConfig;
  /** @default fieldCosts */
  costs?: Readonly<Record<string, FieldCost>>;
}

interface Walk {
  readonly input: EstimateInput;
  readonly costs: Readonly<Record<string, FieldCost>>;
  /**
   * Counted resources a field walked over values already counted in its
   * bound (the first one its resolver stopped at). A later field stopping at
   * the same one shares the load (the operation's loader): its bound is
   * one less, so the resource is counted once.
   */
  readonly counted: Set<string>;
  /** Counts given back: resources an earlier field counted that a later one loaded ahead (now spent). */
  credit: number;
  /** What depends only on the schema, the cost table and the document: kept across requests. */
  readonly facts: StaticFacts;
}

/** Facts of one schema and cost table that no request changes. */
interface StaticFacts {
  /** Per selection set and type: whether any field in it, at any depth, has a cost entry (selection sets are the parsed document's, cached by yoga). */
  readonly costly: WeakMap<SelectionSetNode, Map<GraphQLCompositeType, boolean>>;
  /** Type -> field name -> the entries that may resolve it (entriesFor); by type first, so a look-up builds no `Type.field` string. */
  readonly entries: Map<GraphQLCompositeType, Map<string, FieldCost[]>>;
}

const factsByCosts = new WeakMap<Readonly<Record<string, FieldCost>>, WeakMap<GraphQLSchema, StaticFacts>>();

function staticFacts(schema: GraphQLSchema, costs: Readonly<Record<string, FieldCost>>): StaticFacts {
  let bySchema = factsByCosts.get(costs);
  if (bySchema === undefined) {
    bySchema = new WeakMap();
    factsByCosts.set(costs, bySchema);
  }
  let facts = bySchema.get(schema);
  if (facts === undefined) {
    facts = { costly: new WeakMap(), entries: new Map() };
    bySchema.set(schema, facts);
  }
  return facts;
}

/** A parent's resolved value, when the walk knows it; undefined when only its type is known. */
type Known = { readonly value: unknown } | undefined;

/** What a free field costs. Frozen: shared by every free field of every walk, never changed. */
const ZERO: Estimate = Object.freeze({ requests: 0, unanswerable: 0 });

const add = (a: Estimate, b: Estimate, times = 1): Estimate => ({
  requests: a.requests + b.requests * times,
  unanswerable: a.unanswerable + b.unanswerable * times,
});

export async function estimateOperation(input: EstimateInput): Promise<Estimate> {
  const root = input.schema.getRootType(input.operation.operation);
  if (root === undefined || root === null) return { requests: 0, unanswerable: 0 };
  // A query's root value is known (its resolvers read nothing from it): the walk starts over values. Nothing else is ever run ahead.
  // When nothing read ahead is reused (the bench's naive gateway), execution would load it again: the table alone then.
  const known = input.operation.operation === 'query' && input.context.upstream.reusesLoads ? { value: {} } : undefined;
  const costs = input.costs ?? fieldCosts;
  const walk: Walk = { input, costs, counted: new Set(), credit: 0, facts: staticFacts(input.schema, costs) };
  const total = await selectionCost(walk, root, input.operation.selectionSet, [], undefined, known);
  return {
    requests: Math.max(0, total.requests - walk.credit),
    unanswerable: Math.max(0, total.unanswerable - walk.credit),
  };
}

function included(walk: Walk, node: SelectionNode): boolean {
  // Most selections carry no directive: no look-up (each allocates a search callback).
  if (node.directives === undefined || node.directives.length === 0) return true;
  const variables = walk.input.variables as Record<string, unknown>;
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.['if'] === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.['if'] !== false;
}

/** Whether a fragment on `on` applies: always when the parent's concrete type is not known. */
function applies(walk: Walk, on: GraphQLCompositeType, type: GraphQLCompositeType, parent: Known): boolean {
  if (parent === undefined || !isObjectType(type) || on === type) return true;
  return isAbstractType(on) && walk.input.schema.isSubType(on, type);
}

/**
 * @param connectionSize set when `type` is a connection: the items its
 *   `edges`/`nodes` lists hold (its field's `first`).
 * @param parent the value being selected on, when known (then `type` is its concrete type).
 */
async function selectionCost(
  walk: Walk,
  type: GraphQLCompositeType,
  set: SelectionSetNode,
  ancestors: readonly Args[],
  connectionSize: number | undefined,
  parent: Known,
): Promise<Estimate> {
  // Summed in place: one Estimate per selection set, not one per field.
  let requests = 0;
  let unanswerable = 0;
  for (const selection of set.selections) {
    if (!included(walk, selection)) continue;
    if (selection.kind === Kind.FIELD) {
      // A field nothing below costs is skipped without a call (most of a wide selection, once per item of a known list).
      const field = costlyField(walk, type, selection);
      if (field === undefined) continue;
      const cost = await fieldCost(walk, type, field, selection, ancestors, connectionSize, parent);
      requests += cost.requests;
      unanswerable += cost.unanswerable;
      continue;
    }
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.input.fragments[selection.name.value];
    if (fragment === undefined) continue;
    const on = fragment.typeCondition === undefined ? type : typeFromAST(walk.input.schema, fragment.typeCondition);
    if (on === undefined || !isCompositeType(on) || !applies(walk, on, type, parent)) continue;
    // On a known value the concrete type stays: its fields are the ones that resolve.
    const cost = await selectionCost(
      walk,
      parent === undefined ? on : type,
      fragment.selectionSet,
      ancestors,
      connectionSize,
      parent,
    );
    requests += cost.requests;
    unanswerable += cost.unanswerable;
  }
  return { requests, unanswerable };
}

/**
 * The selected field, unless it costs nothing whatever its arguments and
 * values: no cost entry and none below it (static, see mayCost). Invalid
 * arguments cost nothing too, so this is decided before they are coerced.
 */
function costlyField(
  walk: Walk,
  type: GraphQLCompositeType,
  node: FieldNode,
): GraphQLField<unknown, unknown> | undefined {
  const field = fieldOf(type, node.name.value);
  if (field === undefined) return undefined;
  if (
    entriesFor(walk, type, node.name.value).length === 0 &&
    !mayCost(walk, getNamedType(field.type), node.selectionSet)
  )
    return undefined;
  return field;
}

function fieldOf(type: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  return isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
}

/** The entries that may resolve `type.field`: the type's own, or every implementation's. */
function entriesFor(walk: Walk, type: GraphQLCompositeType, name: string): FieldCost[] {
  let byName = walk.facts.entries.get(type);
  if (byName === undefined) {
    byName = new Map();
    walk.facts.entries.set(type, byName);
  }
  let entries = byName.get(name);
  if (entries === undefined) {
    const types = isAbstractType(type) ? walk.input.schema.getPossibleTypes(type) : [type];
    entries = types
      .map((t) => walk.costs[`${t.name}.${name}`])
      .filter((entry): entry is FieldCost => entry !== undefined);
    byName.set(name, entries);
  }
  return entries;
}

/** `field` is one costlyField kept: something at or below it has a cost entry. */
async function fieldCost(
  walk: Walk,
  type: GraphQLCompositeType,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  ancestors: readonly Args[],
  connectionSize: number | undefined,
  parent: Known,
): Promise<Estimate> {
  let args: Args;
  try {
    args = getArgumentValues(field, node, walk.input.variables as Record<string, unknown>);
  } catch {
    // Invalid arguments fail at execution, before any request.
    return ZERO;
  }
  const entries = entriesFor(walk, type, node.name.value);
  // What is known is walked over values: a field whose resolver needs nothing new costs nothing, and its children are walked over what it returned.
  const input: CostInput = {
    args,
    ancestors,
    fetcher: walk.input.context.upstreamCache,
    context: walk.input.context,
    config: walk.input.config,
    schema: walk.input.schema,
    ...(parent === undefined ? {} : { parent: parent.value }),
  };
  if (await failsBeforeRequests(entries, input)) return ZERO;
  const resolvable = parent !== undefined && isObjectType(type) && !unresolvable.has(`${type.name}.${field.name}`);
  let missing: Missing | undefined;
  let loaded = 0;
  let shared = 0;
  if (resolvable) {
    let known = await resolveField(walk.input, type, field, node, parent.value, args, 'dry');
    // An earlier field counted this resource and the operation's loader shares it: not counted again here. When this field needs more than
    // it (a coach: the matches list, then a lineup), it is loaded now (needed anyway) to learn what follows, and the earlier count given back.
    while (known.kind === 'unknown' && walk.counted.has(known.missing.key)) {
      walk.counted.delete(known.missing.key);
      if ((await ownCost(entries, input)).requests - loaded <= 1 || !mayProbe(input)) {
        shared = 1;
        break;
      }
      walk.credit += 1;
      loaded += 1;
      known = await loadAndResolve(walk, known.missing, () =>
        resolveField(walk.input, type, field, node, parent.value, args, 'dry'),
      );
    }
    // Numbered pages: each is asked only when the ones before did not hold enough, so they are loaded in that order (needed anyway) while the bound says more than one.
    if (entries.some((entry) => entry.pagesInOrder === true)) {
      const pages = (await ownCost(entries, input)).requests;
      while (known.kind === 'unknown' && pages - loaded >= 2 && mayProbe(input)) {
        loaded += 1;
        known = await loadAndResolve(walk, known.missing, () =>
          resolveField(walk.input, type, field, node, parent.value, args, 'dry'),
        );
      }
    }
    if (known.kind === 'failed') return ZERO;
    if (known.kind === 'value') return valueCost(walk, field, node, args, ancestors, known.value);
    missing = known.missing;
  }

  let own = less(await ownCost(entries, input), loaded + shared);
  if (missing !== undefined && own.requests > 0) walk.counted.add(missing.key);
  if (node.selectionSet === undefined) return own;

  const returned = getNamedType(field.type);
  if (!isCompositeType(returned)) return own;
  const isList = isListType(getNullableType(field.type));
  let size = isList ? listSize(walk, type, node.name.value, args, entries, connectionSize) : 1;
  const ownConnectionSize = returned.name.endsWith('Connection')
    ? (numberArg(args, 'first') ?? DEFAULT_FIRST)
    : undefined;
  const children = await selectionCost(
    walk,
    returned,
    node.selectionSet,
    [args, ...ancestors],
    ownConnectionSize,
    undefined,
  );
  if (children.requests > 0 && own.requests <= 1 && resolvable && isObjectType(type) && mayProbe(input)) {
    // A cheap list (or object) whose children cost: load it now (execution reuses it) and walk its real items.
    if (missing !== undefined) walk.counted.delete(missing.key);
    const probed = await resolveField(walk.input, type, field, node, parent.value, args, 'probe');
    if (probed.kind === 'failed') return ZERO;
    if (probed.kind === 'value') return valueCost(walk, field, node, args, ancestors, probed.value);
  }
  const probe =
    isList && children.requests > 0 ? entries.find((entry) => entry.probeListSize !== undefined) : undefined;
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

/** A field whose value is known costs nothing itself; its children are walked over each item. */
async function valueCost(
  walk: Walk,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  args: Args,
  ancestors: readonly Args[],
  value: unknown,
): Promise<Estimate> {
  if (node.selectionSet === undefined) return ZERO;
  const returned = getNamedType(field.type);
  if (!isCompositeType(returned)) return ZERO;
  const ownConnectionSize = returned.name.endsWith('Connection')
    ? (numberArg(args, 'first') ?? DEFAULT_FIRST)
    : undefined;
  // One ancestors list for every item (it is only read).
  const itemAncestors = [args, ...ancestors];
  let requests = 0;
  let unanswerable = 0;
  for (const item of Array.isArray(value) ? value.flat(Infinity) : [value]) {
    if (item === null || item === undefined || item instanceof Error) continue;
    const concrete = await concreteTypeOf(walk.input, returned, item, walk.input);
    const known: Known = concrete === undefined ? undefined : { value: item };
    const cost = await selectionCost(
      walk,
      concrete ?? returned,
      node.selectionSet,
      itemAncestors,
      ownConnectionSize,
      known,
    );
    requests += cost.requests;
    unanswerable += cost.unanswerable;
  }
  return { requests, unanswerable };
}

/** Whether a selection on `type` names, at any depth, a field with a cost entry (static: no values, no arguments). */
function mayCost(walk: Walk, type: GraphQLNamedType, set: SelectionSetNode | undefined): boolean {
  if (set === undefined || !isCompositeType(type)) return false;
  let byType = walk.facts.costly.get(set);
  if (byType === undefined) {
    byType = new Map();
    walk.facts.costly.set(set, byType);
  }
  const memo = byType.get(type);
  if (memo !== undefined) return memo;
  // Cycles cannot occur (fragment spreads are acyclic); the memo only saves repeated walks.
  let found = false;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = fieldOf(type, selection.name.value);
      if (field === undefined) continue;
      found =
        entriesFor(walk, type, selection.name.value).length > 0 ||
        mayCost(walk, getNamedType(field.type), selection.selectionSet);
    } else {
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.input.fragments[selection.name.value];
      const on = fragment?.typeCondition === undefined ? type : typeFromAST(walk.input.schema, fragment.typeCondition);
      found = fragment !== undefined && on !== undefined && mayCost(walk, on, fragment.selectionSet);
    }
    if (found) break;
  }
  byType.set(type, found);
  return found;
}

/** Loads the resource a dry run stopped at (needed anyway), then runs it again; a failed load fails the field at execution too. */
async function loadAndResolve(walk: Walk, missing: Missing, resolve: () => Promise<Resolution>): Promise<Resolution> {
  try {
    await walk.input.context.upstream.load(missing.route, missing.params);
  } catch {
    return { kind: 'failed' };
  }
  return resolve();
}

/** An estimate less `n` requests already loaded (and counted as spent). */
function less(estimate: Estimate, n: number): Estimate {
  return { requests: Math.max(0, estimate.requests - n), unanswerable: Math.max(0, estimate.unanswerable - n) };
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
