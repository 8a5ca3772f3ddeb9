/**
 * The cost estimate of an operation without running it and without
 * spending: the estimate of the cost limit (src/spend/estimate/estimate.ts),
 * over a loader that shares nothing (`reusesLoads` false), so the walk reads
 * the cache and the cost table and never loads ahead (no probes, no dry
 * resolver runs). It is therefore an upper bound of what the operation
 * spends, never below the gateway's own estimate, and exact where no field
 * needs a list loaded to know its size.
 *
 * `dryEstimateWithResources` also lists the counted resources the walk
 * looked up in the cache and the copy the cache holds of each (fresh,
 * stale or none, and its age): the walk's own questions, recorded as it
 * asks them, so the list is what decided the count, not a second guess.
 */
import {
  getOperationAST,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Config } from '../../config.js';
import type { UpstreamCachePort } from '../../loaders/loader-ports.js';
import { UpstreamLoader } from '../../loaders/upstream-loader.js';
import { coercedVariables } from '../../plugins/coerced-variables.js';
import type { ImageCostPort } from '../../spend/estimate/cost-rule.js';
import { fieldCosts } from '../../spend/estimate/cost-table.js';
import { costedOperation } from '../../spend/estimate/costed-selections.js';
import { estimateOperation } from '../../spend/estimate/estimate.js';
import type { AnyRoute, Estimate } from '../../spend/resource-estimate.js';
import type { UpstreamFetcher } from '../../upstream/fetcher.js';
import type { GraphqlRequest } from './graphql-runner.js';

export interface DryEstimateDeps {
  readonly schema: GraphQLSchema;
  readonly config: Pick<Config, 'limits' | 'timeouts'>;
  readonly fetcher: UpstreamFetcher;
  readonly images: ImageCostPort['images'];
}

/** An operation ready to estimate, or why it cannot run at all. */
export type Prepared =
  | {
      readonly ok: true;
      readonly document: DocumentNode;
      readonly operation: OperationDefinitionNode;
      readonly variables: Record<string, unknown>;
    }
  | { readonly ok: false; readonly message: string };

export const subscriptionsAreNotTools =
  'Subscriptions are not MCP tools: they stream without end. For odds, query a snapshot instead (`v4 { odds(...) }`, or `odds` on a V6 baseball match); for games in progress, the `liveTicker` query.';

export function prepareOperation(
  schema: GraphQLSchema,
  config: DryEstimateDeps['config'],
  request: GraphqlRequest,
): Prepared {
  let document: DocumentNode;
  try {
    document = parse(request.query, { maxTokens: config.limits.maxTokens });
  } catch (error) {
    return { ok: false, message: `The operation does not parse: ${(error as Error).message}` };
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0)
    return { ok: false, message: `The operation is not valid: ${invalid.map((error) => error.message).join(' ')}` };
  const operation = getOperationAST(document, request.operationName);
  if (operation === null || operation === undefined)
    return { ok: false, message: 'Name the operation to run (operationName): the document holds none or several.' };
  if (operation.operation === 'subscription') return { ok: false, message: subscriptionsAreNotTools };
  const coerced = coercedVariables(schema, operation, request.variables);
  if (coerced.errors !== undefined)
    return { ok: false, message: `Bad variables: ${coerced.errors.map((error) => error.message).join(' ')}` };
  return { ok: true, document, operation, variables: coerced.coerced };
}

/** A cache that holds nothing: what an operation costs cold, whatever is cached now. */
export function coldCache(fetcher: UpstreamFetcher): UpstreamCachePort['upstreamCache'] {
  return {
    isCached: () => false,
    canAnswer: () => false,
    keyOf: (route, params) => fetcher.keyOf(route, params),
    peekKey: async () => undefined,
    scope: fetcher.scope,
  };
}

/** One counted resource the estimate looked up in the cache, and the copy the cache holds of it now. */
export interface LookedUpResource {
  /** The route as the spec writes it (`/v1/hockey/athletes`). */
  readonly route: string;
  readonly version: string;
  /** The resource: path and query, as the cache keys it. */
  readonly resource: string;
  /** `fresh`: a call costs nothing; `stale`: it costs a request, but the stale copy answers when the allowance is spent; `none`: nothing held. */
  readonly cached: 'fresh' | 'stale' | 'none';
  /** Whole seconds since the cached copy was stored; absent when none is held. */
  readonly ageSeconds?: number;
}

/** Resources listed at most: an agent's context is small. */
export const MAX_LISTED_RESOURCES = 50;

/**
 * `cache` as the estimate walk reads it, recording every counted resource
 * the walk asks about (by cache key). The walk is the gateway's own
 * estimate: what it asked is what decided the count, nothing recomputed.
 */
function observed(cache: UpstreamCachePort['upstreamCache']): {
  readonly cache: UpstreamCachePort['upstreamCache'];
  readonly asked: ReadonlyMap<string, AnyRoute>;
} {
  const asked = new Map<string, AnyRoute>();
  const note = (route: AnyRoute, key: string): void => {
    if (route.counted && !asked.has(key)) asked.set(key, route);
  };
  return {
    asked,
    cache: {
      keyOf: (route, params) => cache.keyOf(route, params),
      isCached: (route, params) => {
        note(route as unknown as AnyRoute, cache.keyOf(route, params));
        return cache.isCached(route, params);
      },
      canAnswer: (route, params) => {
        note(route as unknown as AnyRoute, cache.keyOf(route, params));
        return cache.canAnswer(route, params);
      },
      peekKey: (route, key) => {
        note(route as unknown as AnyRoute, key);
        return cache.peekKey(route, key);
      },
      scope: cache.scope,
    },
  };
}

/**
 * The dry estimate over the gateway's cache as it is now, with the counted
 * resources it looked up and the copy of each the cache holds (its age):
 * what lets an agent see that a call will cost nothing.
 */
export async function dryEstimateWithResources(
  deps: DryEstimateDeps,
  prepared: Extract<Prepared, { ok: true }>,
): Promise<{ estimate: Estimate; resources: LookedUpResource[]; resourcesLeftOut: number }> {
  const watch = observed(deps.fetcher);
  const estimate = await dryEstimate(deps, prepared, watch.cache);
  const resources: LookedUpResource[] = [];
  for (const [key, route] of watch.asked) {
    const copy = deps.fetcher.cachedCopy(key);
    resources.push({
      route: route.template,
      version: route.version,
      resource: key,
      cached: copy === undefined ? 'none' : copy.fresh ? 'fresh' : copy.answerable ? 'stale' : 'none',
      ...(copy === undefined ? {} : { ageSeconds: copy.ageSeconds }),
    });
  }
  return {
    estimate,
    resources: resources.slice(0, MAX_LISTED_RESOURCES),
    resourcesLeftOut: Math.max(0, resources.length - MAX_LISTED_RESOURCES),
  };
}

export async function dryEstimate(
  deps: DryEstimateDeps,
  prepared: Extract<Prepared, { ok: true }>,
  /** What the walk sees cached. @default the gateway's cache as it is now */
  cache: UpstreamCachePort['upstreamCache'] = deps.fetcher,
): Promise<Estimate> {
  const { schema, config, fetcher, images } = deps;
  const operation = costedOperation(schema, fieldCosts, prepared.document, prepared.operation);
  // Shares nothing: the walk may not load ahead, so nothing is sent.
  const upstream = new UpstreamLoader(fetcher, Date.now() + config.timeouts.operationMs, false);
  return estimateOperation({
    schema,
    operation,
    fragments: {},
    variables: prepared.variables,
    context: { upstream, upstreamCache: cache, images },
    config,
    costs: fieldCosts,
  });
}
