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
import * as graphql from 'graphql';
import type {
  FieldNode,
  FragmentDefinitionNode,
  GraphQLCompositeType,
  GraphQLField,
  GraphQLNamedType,
  GraphQLObjectType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionNode,
  SelectionSetNode,
  ValueNode,
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
import { andThen, isPending, sumEach, type Maybe } from './maybe.js';
import { concreteTypeOf, resolveField, type Missing, type Resolution } from './resolve-known.js';

/**
 * graphql is a CommonJS package: in the bundle every use of a named import
 * reads it through two getters (esbuild's interop, then graphql's own
 * index), and the walk uses these per field and per item of a known list.
 * Read once here.
 */
const {
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
} = graphql;

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
  /** Type -> field name -> what the walk needs to know of it (fieldFacts); by type first, so a look-up builds no `Type.field` string. */
  readonly fields: Map<GraphQLCompositeType, Map<string, FieldFacts>>;
}

/** What the walk needs of one `Type.field`, whatever the request: decided once per schema and cost table. */
interface FieldFacts {
  /** The entries that may resolve it: the type's own, or every implementation's. */
  readonly entries: readonly FieldCost[];
  /** Its resolver may run over a known parent (resolve-known.ts): not listed in `unresolvable`. */
  readonly runs: boolean;
  /** One of its entries reads numbered pages in order (FieldCost.pagesInOrder). */
  readonly pagesInOrder: boolean;
  /** The entry that may probe its list's real length, if any (FieldCost.probeListSize). */
  readonly probe: FieldCost | undefined;
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
    facts = { costly: new WeakMap(), fields: new Map() };
    bySchema.set(schema, facts);
  }
  return facts;
}

/** A parent's resolved value, when the walk knows it; undefined when only its type is known. */
type Known = { readonly value: unknown } | undefined;

/** Where a selection set is walked. */
interface Scope {
  readonly walk: Walk;
  /** The type selected on: the value's concrete type when `parent` is known. */
  readonly type: GraphQLCompositeType;
  /** Arguments of the enclosing fields, nearest first. */
  readonly ancestors: readonly Args[];
  /** Set when `type` is a connection: the items its `edges`/`nodes` lists hold (its field's `first`). */
  readonly connectionSize: number | undefined;
  /** The value being selected on, when known. */
  readonly parent: Known;
}

/** One selected field being costed: what each step of fieldCost reads, made once per field. */
interface FieldAt {
  readonly scope: Scope;
  readonly field: GraphQLField<unknown, unknown>;
  readonly node: FieldNode;
  readonly args: Args;
  readonly facts: FieldFacts;
  readonly input: CostInput;
}

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
  const walk: Walk = {
    input,
    costs,
    counted: new Set(),
    credit: 0,
    facts: staticFacts(input.schema, costs),
  };
  const scope: Scope = { walk, type: root, ancestors: [], connectionSize: undefined, parent: known };
  const total = await selectionCost(scope, input.operation.selectionSet);
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

/** The selections of `set` in `scope`, summed in document order. */
function selectionCost(scope: Scope, set: SelectionSetNode): Maybe<Estimate> {
  return sumEach(set.selections, (selection) => selectedCost(scope, selection));
}

function selectedCost(scope: Scope, selection: SelectionNode): Maybe<Estimate> {
  const { walk, type, parent } = scope;
  if (!included(walk, selection)) return ZERO;
  if (selection.kind === Kind.FIELD) {
    // A field nothing below costs is skipped without a call (most of a wide selection, once per item of a known list).
    const field = costlyField(walk, type, selection);
    return field === undefined ? ZERO : fieldCost(scope, field, selection);
  }
  const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.input.fragments[selection.name.value];
  if (fragment === undefined) return ZERO;
  const on = fragment.typeCondition === undefined ? type : typeFromAST(walk.input.schema, fragment.typeCondition);
  if (on === undefined || !isCompositeType(on) || !applies(walk, on, type, parent)) return ZERO;
  // On a known value the concrete type stays: its fields are the ones that resolve.
  return selectionCost(parent === undefined ? { ...scope, type: on } : scope, fragment.selectionSet);
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
    fieldFacts(walk, type, node.name.value).entries.length === 0 &&
    !mayCost(walk, getNamedType(field.type), node.selectionSet)
  )
    return undefined;
  return field;
}

function fieldOf(type: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  return isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
}

function fieldFacts(walk: Walk, type: GraphQLCompositeType, name: string): FieldFacts {
  let byName = walk.facts.fields.get(type);
  if (byName === undefined) {
    byName = new Map();
    walk.facts.fields.set(type, byName);
  }
  let facts = byName.get(name);
  if (facts === undefined) {
    const types = isAbstractType(type) ? walk.input.schema.getPossibleTypes(type) : [type];
    const entries = types
      .map((t) => walk.costs[`${t.name}.${name}`])
      .filter((entry): entry is FieldCost => entry !== undefined);
    facts = {
      entries,
      runs: !unresolvable.has(`${type.name}.${name}`),
      pagesInOrder: entries.some((entry) => entry.pagesInOrder === true),
      probe: entries.find((entry) => entry.probeListSize !== undefined),
    };
    byName.set(name, facts);
  }
  return facts;
}

/** A field node's coerced arguments, as kept across requests (argumentsOf). */
interface NodeArgs {
  /** The variables written in its arguments, at any depth (none: the same arguments for every request). */
  readonly variables: readonly string[];
  /** By the field they were coerced for (an interface's selection meets each implementation's). */
  readonly byField: Map<GraphQLField<unknown, unknown>, CoercedArgs>;
}

interface CoercedArgs {
  /** What each of the node's variables held (ABSENT: not given), all primitives. */
  readonly values: readonly unknown[];
  /** Undefined: invalid. */
  readonly args: Args | undefined;
}

const ABSENT = Symbol('absent');
const argsByNode = new WeakMap<FieldNode, NodeArgs>();

/**
 * The field's coerced arguments; undefined when they are invalid (the
 * field then fails at execution, before any request). They depend only on
 * the node, the field and the variables written in them, so they are
 * coerced again only when one of those variables holds another value than
 * last time: the costed operation's nodes are kept per document
 * (costed-selections.ts), so a client sending the same query coerces its
 * arguments once, and a node met for each item of a known list once per walk.
 * Variables holding objects are not compared (nor kept): coerced each time.
 * Shared, so read-only (no resolver writes to its arguments).
 */
function argumentsOf(walk: Walk, field: GraphQLField<unknown, unknown>, node: FieldNode): Args | undefined {
  let memo = argsByNode.get(node);
  if (memo === undefined) {
    memo = { variables: variablesIn(node), byField: new Map() };
    argsByNode.set(node, memo);
  }
  const variables = walk.input.variables as Record<string, unknown>;
  const values = memo.variables.map((name) => (Object.hasOwn(variables, name) ? variables[name] : ABSENT));
  const kept = memo.byField.get(field);
  if (kept !== undefined && values.every((value, i) => Object.is(value, kept.values[i]))) return kept.args;
  let args: Args | undefined;
  try {
    args = getArgumentValues(field, node, variables);
  } catch {
    args = undefined;
  }
  if (values.every(isPrimitive)) memo.byField.set(field, { values, args });
  return args;
}

const isPrimitive = (value: unknown): boolean =>
  value === null || (typeof value !== 'object' && typeof value !== 'function');

function variablesIn(node: FieldNode): string[] {
  const names: string[] = [];
  const visit = (value: ValueNode): void => {
    if (value.kind === Kind.VARIABLE) names.push(value.name.value);
    else if (value.kind === Kind.LIST) value.values.forEach(visit);
    else if (value.kind === Kind.OBJECT) for (const entry of value.fields) visit(entry.value);
  };
  for (const argument of node.arguments ?? []) visit(argument.value);
  return names;
}

/** `field` is one costlyField kept: something at or below it has a cost entry. */
function fieldCost(scope: Scope, field: GraphQLField<unknown, unknown>, node: FieldNode): Maybe<Estimate> {
  const { walk, parent } = scope;
  const args = argumentsOf(walk, field, node);
  // Invalid arguments fail at execution, before any request.
  if (args === undefined) return ZERO;
  const { context, config, schema } = walk.input;
  const fetcher = context.upstreamCache;
  const input: CostInput =
    parent === undefined
      ? { args, ancestors: scope.ancestors, fetcher, context, config, schema }
      : { args, ancestors: scope.ancestors, fetcher, context, config, schema, parent: parent.value };
  const at: FieldAt = { scope, field, node, args, facts: fieldFacts(walk, scope.type, node.name.value), input };
  return andThen(failsBeforeRequests(at.facts.entries, input), (fails) => (fails ? ZERO : knownOrBoundCost(at)));
}

/** The parent's concrete type when the field's resolver may run over its known value (resolve-known.ts). */
function runsOver(at: FieldAt): GraphQLObjectType | undefined {
  const { type, parent } = at.scope;
  return parent !== undefined && isObjectType(type) && at.facts.runs ? type : undefined;
}

function resolveAt(at: FieldAt, type: GraphQLObjectType, mode: 'dry' | 'probe'): Maybe<Resolution> {
  return resolveField(at.scope.walk.input, type, at.field, at.node, at.scope.parent?.value, at.args, mode);
}

/** What is known is walked over values: a field whose resolver needs nothing new costs nothing, and its children are walked over what it returned. */
function knownOrBoundCost(at: FieldAt): Maybe<Estimate> {
  const type = runsOver(at);
  if (type === undefined) return boundCost(at, undefined, 0);
  return andThen(resolveAt(at, type, 'dry'), (known) =>
    known.kind === 'unknown' &&
    known.missing !== undefined &&
    (at.scope.walk.counted.has(known.missing.key) || at.facts.pagesInOrder)
      ? loadAheadCost(at, type, known)
      : resolvedCost(at, known, 0),
  );
}

/** The dry run stopped at `first`, which an earlier field counted or which is a page read in order: loaded ahead when that makes the estimate exact. */
async function loadAheadCost(at: FieldAt, type: GraphQLObjectType, first: Resolution): Promise<Estimate> {
  const { walk } = at.scope;
  const { entries } = at.facts;
  let known = first;
  let loaded = 0;
  let shared = 0;
  // An earlier field counted this resource and the operation's loader shares it: not counted again here. When this field needs more than
  // it (a coach: the matches list, then a lineup), it is loaded now (needed anyway) to learn what follows, and the earlier count given back.
  while (known.kind === 'unknown' && known.missing !== undefined && walk.counted.has(known.missing.key)) {
    walk.counted.delete(known.missing.key);
    if ((await ownCost(entries, at.input)).requests - loaded <= 1 || !mayProbe(at.input)) {
      shared = 1;
      break;
    }
    walk.credit += 1;
    loaded += 1;
    known = await loadAndResolve(walk, known.missing, () => resolveAt(at, type, 'dry'));
  }
  // Numbered pages: each is asked only when the ones before did not hold enough, so they are loaded in that order (needed anyway) while the bound says more than one.
  if (at.facts.pagesInOrder) {
    const pages = (await ownCost(entries, at.input)).requests;
    while (known.kind === 'unknown' && known.missing !== undefined && pages - loaded >= 2 && mayProbe(at.input)) {
      loaded += 1;
      known = await loadAndResolve(walk, known.missing, () => resolveAt(at, type, 'dry'));
    }
  }
  return resolvedCost(at, known, loaded + shared);
}

/** After the dry run: nothing when it fails, its value walked when known, else the bound less what was loaded ahead. */
function resolvedCost(at: FieldAt, known: Resolution, loadedAhead: number): Maybe<Estimate> {
  if (known.kind === 'failed') return ZERO;
  if (known.kind === 'value') return valueCost(at, known.value);
  return boundCost(at, known.missing, loadedAhead);
}

/** The field's own bound (less `loadedAhead` requests already spent) plus its children's, once per item it can return. */
function boundCost(at: FieldAt, missing: Missing | undefined, loadedAhead: number): Maybe<Estimate> {
  return andThen(ownCost(at.facts.entries, at.input), (estimate) => {
    const own = less(estimate, loadedAhead);
    if (missing !== undefined && own.requests > 0) at.scope.walk.counted.add(missing.key);
    if (at.node.selectionSet === undefined) return own;
    const returned = getNamedType(at.field.type);
    if (!isCompositeType(returned)) return own;
    const { walk, type, ancestors, connectionSize } = at.scope;
    const isList = isListType(getNullableType(at.field.type));
    const size = isList ? listSize(walk, type, at.node.name.value, at.args, at.facts.entries, connectionSize) : 1;
    const children: Scope = {
      walk,
      type: returned,
      ancestors: [at.args, ...ancestors],
      connectionSize: connectionSizeOf(returned, at.args),
      parent: undefined,
    };
    return andThen(selectionCost(children, at.node.selectionSet), (cost) =>
      // Only children that cost can make a probe worth a request.
      cost.requests > 0 ? probedCost(at, missing, own, cost, isList, size) : add(own, cost, size),
    );
  });
}

/** Children that cost under a bound: the field's real value or list length is learnt now when it is cheap (execution reuses it). */
async function probedCost(
  at: FieldAt,
  missing: Missing | undefined,
  own: Estimate,
  children: Estimate,
  isList: boolean,
  size: number,
): Promise<Estimate> {
  const type = runsOver(at);
  if (own.requests <= 1 && type !== undefined && mayProbe(at.input)) {
    // A cheap list (or object) whose children cost: load it now (execution reuses it) and walk its real items.
    if (missing !== undefined) at.scope.walk.counted.delete(missing.key);
    const probed = await resolveAt(at, type, 'probe');
    if (probed.kind === 'failed') return ZERO;
    if (probed.kind === 'value') return valueCost(at, probed.value);
  }
  const probed = isList ? await at.facts.probe?.probeListSize?.(at.input) : undefined;
  // The list itself is now loaded (counted in what the operation spent): the field costs only its items.
  if (probed !== undefined) return add(await ownCost(at.facts.entries, at.input), children, probed);
  return add(own, children, size);
}

function connectionSizeOf(returned: GraphQLNamedType, args: Args): number | undefined {
  return returned.name.endsWith('Connection') ? (numberArg(args, 'first') ?? DEFAULT_FIRST) : undefined;
}

function failsBeforeRequests(entries: readonly FieldCost[], input: CostInput): Maybe<boolean> {
  if (entries.length === 0) return false;
  for (let i = 0; i < entries.length; i++) {
    const fails = (entries[i] as FieldCost).failsBeforeRequests?.(input);
    if (isPending(fails)) return failsAfter(entries, input, i, fails);
    if (fails !== true) return false;
  }
  return true;
}

/** failsBeforeRequests from entry `i` on, whose answer `pending` is waiting. */
async function failsAfter(
  entries: readonly FieldCost[],
  input: CostInput,
  i: number,
  pending: PromiseLike<boolean>,
): Promise<boolean> {
  if ((await pending) !== true) return false;
  for (const entry of entries.slice(i + 1)) if ((await entry.failsBeforeRequests?.(input)) !== true) return false;
  return true;
}

/** A field whose value is known costs nothing itself; its children are walked over each item. */
function valueCost(at: FieldAt, value: unknown): Maybe<Estimate> {
  const set = at.node.selectionSet;
  if (set === undefined) return ZERO;
  const returned = getNamedType(at.field.type);
  if (!isCompositeType(returned)) return ZERO;
  const { walk } = at.scope;
  // One ancestors list for every item (it is only read).
  const ancestors = [at.args, ...at.scope.ancestors];
  const connectionSize = connectionSizeOf(returned, at.args);
  const items: readonly unknown[] = Array.isArray(value) ? value.flat(Infinity) : [value];
  return sumEach(items, (item) => {
    if (item === null || item === undefined || item instanceof Error) return ZERO;
    // An object type is its own concrete type: no call, no promise, once per item.
    const typed = isObjectType(returned) ? returned : concreteTypeOf(walk.input, returned, item, walk.input);
    return andThen(typed, (concrete) =>
      selectionCost(
        {
          walk,
          type: concrete ?? returned,
          ancestors,
          connectionSize,
          parent: concrete === undefined ? undefined : { value: item },
        },
        set,
      ),
    );
  });
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
        fieldFacts(walk, type, selection.name.value).entries.length > 0 ||
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
async function loadAndResolve(walk: Walk, missing: Missing, resolve: () => Maybe<Resolution>): Promise<Resolution> {
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

/** The most any entry says: by requests, then by unanswerable ones. */
function ownCost(entries: readonly FieldCost[], input: CostInput): Maybe<Estimate> {
  let own: Estimate = { requests: 0, unanswerable: 0 };
  for (let i = 0; i < entries.length; i++) {
    const estimate = (entries[i] as FieldCost).estimate(input);
    if (isPending(estimate)) return ownCostAfter(entries, input, i, estimate, own);
    own = larger(own, estimate);
  }
  return own;
}

/** ownCost from entry `i` on, whose estimate `pending` is waiting. */
async function ownCostAfter(
  entries: readonly FieldCost[],
  input: CostInput,
  i: number,
  pending: PromiseLike<Estimate>,
  sofar: Estimate,
): Promise<Estimate> {
  let own = larger(sofar, await pending);
  for (const entry of entries.slice(i + 1)) own = larger(own, await entry.estimate(input));
  return own;
}

/** `own` (ownCost's own object, changed in place) or a copy of `estimate`, whichever is larger. */
function larger(own: Estimate, estimate: Estimate): Estimate {
  if (estimate.requests > own.requests) return { ...estimate };
  if (estimate.requests === own.requests) own.unanswerable = Math.max(own.unanswerable, estimate.unanswerable);
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
