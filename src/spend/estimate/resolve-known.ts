/**
 * Runs one field's own resolver for the cost estimate (src/spend/estimate/estimate.ts),
 * so that the walk can go on over real values instead of bounds: how many
 * teams a list really holds, which stage a sub-stage list belongs to,
 * whether a game's lineups came with the game.
 *
 * `dry`: the resolver sees a loader that answers only from what is already
 * known: a fresh cached answer (read with `peek`: no LRU recency, no hit
 * counted), or a free route, which is loaded for real (free, and execution
 * reuses it through the operation's loader). A counted resource not cached
 * ends the dry run as `unknown`: the field will cost, and the walk falls
 * back to the cost table's bound. Each cached answer read is kept on the
 * operation's loader (keepKnown) and execution answers with it: an entry
 * read fresh here may expire or be evicted before execution reaches it,
 * and sending for it then would spend what the estimate called free.
 *
 * `probe`: the resolver runs with the operation's own context; whatever it
 * loads is spent now (the operation's meter) and reused by execution. The
 * walk asks for it only for a cheap list whose items cost.
 *
 * Only resolvers that reach the upstream through `ctx.upstream.load` may run
 * here: fields that spend or keep state elsewhere are listed in
 * `unresolvable` (field-costs.ts) and never run.
 */
import {
  defaultFieldResolver,
  isAbstractType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { UpstreamLoader } from '../../loaders/upstream-loader.js';
import type { Route } from '../../upstream/routes/route.js';
import type { Args, EstimateContext } from './cost-rule.js';
import { isPending, type Maybe } from './maybe.js';

/** A counted resource the cache does not hold fresh: what a dry run stopped at. */
export interface Missing {
  readonly route: Route<unknown, unknown>;
  readonly params: unknown;
  /** Its cache key (UpstreamFetcher.keyOf). */
  readonly key: string;
}

/**
 * Thrown by the dry loader for a counted resource the cache does not hold
 * fresh. It is thrown for every resource of a cold operation and caught a
 * few frames up (resolveField), never shown: so it is made without the
 * Error constructor (`of`), which even with no stack captured was the
 * walk's largest single cost once the rest was cheap. Still an Error by its
 * prototype, for the resolvers in between that tell errors from values with
 * `instanceof`, and its message is the prototype's.
 */
class NotKnown extends Error {
  declare readonly missing: Missing;

  static of(missing: Missing): NotKnown {
    return Object.assign(Object.create(NotKnown.prototype) as NotKnown, { missing });
  }
}
Object.defineProperty(NotKnown.prototype, 'message', { value: 'not known before execution' });

export type Resolution =
  /** The field's value (lists with their items settled). */
  | { readonly kind: 'value'; readonly value: unknown }
  /** The field fails before any request of its own (bad input, a cached 404): it and its children cost nothing. */
  | { readonly kind: 'failed' }
  /**
   * It needs a counted request that is not known yet: `missing`, the first one it asked for. Undefined when the
   * dry run broke on a defect (a TypeError, say) rather than a field failure: what execution will send is not
   * known, so the field costs its bound, never nothing.
   */
  | { readonly kind: 'unknown'; readonly missing: Missing | undefined };

export interface ResolveInput {
  readonly schema: GraphQLSchema;
  readonly operation: OperationDefinitionNode;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly context: EstimateContext;
}

/** A dry context, and the counted resources its resolvers asked for during the current resolution. */
interface DryContext {
  readonly context: EstimateContext;
  /** Reset by each resolveField: the walk resolves one field at a time. */
  asked: Missing[];
}

/** The operation's context with a loader that only reads what is known (see the module comment). */
function dryContext(context: EstimateContext): DryContext {
  const real = context.upstream;
  const fetcher = context.upstreamCache;
  const dry: { context: EstimateContext; asked: Missing[] } = { context, asked: [] };
  const load = async <P, T>(route: Route<P, T>, params: P): Promise<T> => {
    if (!route.counted) return real.load(route, params);
    // The key once, for the look-up and for what the walk records as missing.
    const key = fetcher.keyOf(route, params);
    // Recorded before the look-up: a resolver that fails on something else first (Promise.all over good and bad items) still asked for it.
    const missing: Missing = { route: route as Route<unknown, unknown>, params, key };
    dry.asked.push(missing);
    const peeked = await fetcher.peekKey(route as Route<never, T>, key);
    if (peeked === undefined) throw NotKnown.of(missing);
    // Execution answers with what the estimate read, whatever the entry does meanwhile (expires, is evicted).
    real.keepKnown(key, peeked);
    if (peeked.kind === 'error') throw peeked.error;
    return peeked.value as T;
  };
  dry.context = withProperty(context, 'upstream', withProperty(real, 'load', load as UpstreamLoader['load']));
  return dry;
}

/**
 * `target` read with one property replaced. A proxy, made per operation: the
 * context is a large object (yoga's and ours) and the loader a class
 * instance, and V8 spent several microseconds per operation on either a copy
 * or a child made with Object.create (which reshapes its prototype), paid by
 * every operation of a cold gateway. Every other property reads through to
 * `target`, getters with `target` as `this`.
 */
function withProperty<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): T {
  return new Proxy(target, {
    get: (object, property) => (property === key ? value : Reflect.get(object, property)),
  });
}

const dryContexts = new WeakMap<EstimateContext, DryContext>();

export function resolveField(
  input: ResolveInput,
  parentType: GraphQLObjectType,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  parent: unknown,
  args: Args,
  mode: 'dry' | 'probe',
): Maybe<Resolution> {
  let context = input.context;
  let dry: DryContext | undefined;
  if (mode === 'dry') {
    dry = dryContexts.get(input.context) ?? dryContext(input.context);
    dryContexts.set(input.context, dry);
    dry.asked = [];
    context = dry.context;
  }
  // graphql-tools' executor helpers (abort signal, async helpers) are not given: no resolver here uses them.
  const info: Omit<GraphQLResolveInfo, 'getAbortSignal' | 'getAsyncHelpers'> = {
    fieldName: field.name,
    fieldNodes: [node],
    returnType: field.type,
    parentType,
    path: { prev: undefined, key: node.alias?.value ?? field.name, typename: parentType.name },
    schema: input.schema,
    fragments: input.fragments as Record<string, FragmentDefinitionNode>,
    rootValue: {},
    operation: input.operation,
    variableValues: input.variables as Record<string, unknown>,
  };
  let value: unknown;
  try {
    value = (field.resolve ?? defaultFieldResolver)(parent, args, context, info as GraphQLResolveInfo);
  } catch (error) {
    return failure(input, dry, error);
  }
  // A value already there (a namespace, a parent's part) is used at once: no promise, no microtask turn.
  if (!isPending(value) && !(Array.isArray(value) && value.some(pendingWithin)))
    return value instanceof Error ? { kind: 'failed' } : { kind: 'value', value };
  return settled(input, dry, value);
}

/** resolveField's value once it and its items have settled. */
async function settled(input: ResolveInput, dry: DryContext | undefined, pending: unknown): Promise<Resolution> {
  try {
    const value = await settle(await pending);
    return value instanceof Error ? { kind: 'failed' } : { kind: 'value', value };
  } catch (error) {
    return failure(input, dry, error);
  }
}

/** What a resolver that threw (or rejected) means for the walk. */
function failure(input: ResolveInput, dry: DryContext | undefined, error: unknown): Resolution {
  if (error instanceof NotKnown) return { kind: 'unknown', missing: error.missing };
  // Failed, but after asking for a counted resource it does not hold: at execution that request is sent before the failure.
  const known = input.context.upstream.knownAnswers();
  const sent = dry?.asked.find((asked) => !known.has(asked.key));
  if (sent !== undefined) return { kind: 'unknown', missing: sent };
  // Counted as nothing, an operation could spend more than its estimate (and the limit) let through.
  return isDefect(error) ? { kind: 'unknown', missing: undefined } : { kind: 'failed' };
}

/**
 * An error of the code itself, not of the field: resolvers fail a field with
 * GatewayErrors (bad input, a cached 404), never with these. In a dry run
 * the likeliest is the dry context's own: a method reading a `#private`
 * field of the loader through the proxy (withProperty) throws a TypeError.
 */
function isDefect(error: unknown): boolean {
  return (
    error instanceof TypeError ||
    error instanceof ReferenceError ||
    error instanceof RangeError ||
    error instanceof SyntaxError
  );
}

/** Whether a list item, or an item of a nested list, is still pending (settle would wait for it). */
function pendingWithin(item: unknown): boolean {
  return isPending(item) || (Array.isArray(item) && item.some(pendingWithin));
}

/**
 * A list's items settled (a resolver may return promises in a list), nested
 * lists too. An item that rejects is an Error in its own slot, as execution
 * makes it a field error at its own path while its neighbours resolve: one
 * bad entry never fails the list. Only a resource that is not known yet
 * (NotKnown) ends the dry run, since execution would send it.
 */
async function settle(value: unknown): Promise<unknown> {
  if (!Array.isArray(value)) return value;
  const items = await Promise.allSettled(value.map(async (item) => settle(await item)));
  const unknown = items.find(
    (item): item is PromiseRejectedResult => item.status === 'rejected' && item.reason instanceof NotKnown,
  );
  if (unknown !== undefined) throw unknown.reason;
  return items.map((item) =>
    item.status === 'fulfilled'
      ? item.value
      : item.reason instanceof Error
        ? item.reason
        : new Error(String(item.reason)),
  );
}

/** The object type a value of `type` resolves to, or undefined when it cannot be told without executing. */
export async function concreteTypeOf(
  input: ResolveInput,
  type: GraphQLNamedType,
  value: unknown,
  info: Pick<GraphQLResolveInfo, 'schema'>,
): Promise<GraphQLObjectType | undefined> {
  if (isObjectType(type)) return type;
  if (!isAbstractType(type)) return undefined;
  let name: unknown;
  try {
    name = await type.resolveType?.(value, input.context, info as GraphQLResolveInfo, type);
  } catch {
    return undefined;
  }
  if (name === undefined && typeof value === 'object' && value !== null)
    name = (value as { __typename?: unknown }).__typename;
  const found = typeof name === 'string' ? input.schema.getType(name) : undefined;
  return found !== undefined && isObjectType(found) && input.schema.isSubType(type, found) ? found : undefined;
}
