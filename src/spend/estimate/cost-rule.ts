/**
 * What one schema field can cost in counted upstream requests: the shape of
 * an entry of the cost table (`field-costs.ts`) and the small builders the
 * table is written with.
 */
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../../config.js';
import type { CounterpartsPort } from '../../identity/find-counterparts.js';
import type { LoaderPort, UpstreamCachePort } from '../../loaders/loader-ports.js';
import type { V2ImageParams } from '../../upstream/routes/images.js';
import type { Route } from '../../upstream/routes/route.js';
import { nothing, resourceEstimate, type AnyRoute, type Estimate } from '../resource-estimate.js';

export type Args = Readonly<Record<string, unknown>>;

/**
 * The ports a cost reads. The estimate walk also runs resolvers with it
 * (resolve-known.ts), so the object is the operation's whole resolver
 * context; the rules themselves read only these.
 */
export type EstimateContext = LoaderPort & UpstreamCachePort & ImageCostPort & CounterpartsPort;

/** What a logo costs, asked of the image service (src/images/service.ts) without the features room above. */
export interface ImageCostPort {
  readonly images: () => Promise<{ imageCost(request: { version: 'v2'; params: V2ImageParams }): Estimate }>;
}

/** The configuration the estimate reads: the per-operation limit. */
export interface EstimateConfig {
  readonly limits: Pick<Config['limits'], 'maxOperationCost'>;
}

export interface CostInput {
  /** The field's own arguments, coerced, with SDL defaults applied. */
  readonly args: Args;
  /** Arguments of the enclosing fields, nearest first (a team field's `id` lives on its parent). */
  readonly ancestors: readonly Args[];
  readonly fetcher: UpstreamCachePort['upstreamCache'];
  /** The operation's context: a cost may read fresh cache entries through its loader. */
  readonly context: EstimateContext;
  readonly config: EstimateConfig;
  /** The parent's resolved value, when the estimate knows it (src/spend/estimate/resolve-known.ts); absent otherwise. */
  readonly parent?: unknown;
  /** The schema the operation runs on: type names from a client are looked up here, as execution looks them up. */
  readonly schema: GraphQLSchema;
}

export interface FieldCost {
  /** Upper bound for one resolution of the field. */
  estimate(input: CostInput): Estimate | Promise<Estimate>;
  /** Items the (list) field returns at most, when its arguments say so. */
  listSize?(args: Args): number | undefined;
  /**
   * Loads the field's own list through the operation's loader (a request
   * the field makes anyway, so execution reuses it) and returns how many
   * items it really holds: asked only when each item costs something, so
   * that the estimate is exact instead of a bound. 0 when the list cannot
   * be loaded (its items are then never resolved); undefined when it may
   * not be probed.
   */
  probeListSize?(input: CostInput): Promise<number | undefined>;
  /**
   * True when the field's arguments are refused at execution before any
   * upstream request: the field and everything selected under it then
   * cost nothing.
   */
  failsBeforeRequests?(input: CostInput): boolean | Promise<boolean>;
  /**
   * The field reads numbered pages in order, each only when the ones before
   * did not hold enough (src/model/paged-connection.ts): while `estimate`
   * says more than one, the walk may load them in that order and count
   * the real pages instead of a bound from an assumed page size.
   */
  readonly pagesInOrder?: boolean;
}

/**
 * Whether the estimate may still spend a counted request to learn a list
 * (execution must reuse it: the cache and the operation's loader are on):
 * never more than one operation may spend in all (the per-operation limit),
 * so a query made of many probes is refused like any other.
 */
export function mayProbe({ context, config }: CostInput): boolean {
  // When nothing loaded ahead is reused (the bench's naive gateway), execution would send it again.
  if (!context.upstream.reusesLoads) return false;
  return context.upstream.meter.counted < config.limits.maxOperationCost;
}

const countedIn = (routes: readonly AnyRoute[]): number => routes.filter((route) => route.counted).length;

/** Counted routes a field may call, each once; no cache knowledge. */
export function routes(...called: AnyRoute[]): FieldCost {
  const n = countedIn(called);
  return { estimate: () => ({ requests: n, unanswerable: n }) };
}

/**
 * One route whose parameters the field's own arguments give: a fresh cache
 * entry makes it free ("cached data costs nothing"); a stale one can still
 * answer when the allowance is spent. `params` may throw on bad input: the
 * field then counts in full (it fails at execution anyway).
 */
export function resource<P>(route: Route<P, unknown>, params: (args: Args) => P): FieldCost {
  const any = route as unknown as AnyRoute;
  return {
    estimate: ({ args, fetcher }) => {
      if (!route.counted) return nothing;
      let named: P;
      try {
        named = params(args);
      } catch {
        return { requests: 1, unanswerable: 1 };
      }
      return resourceEstimate(fetcher, { route: any, params: named });
    },
  };
}

/** One counted request per item of the list argument `name` (one load per ID). */
export function perItem(name: string, n = 1): FieldCost {
  const items = (args: Args): number => (Array.isArray(args[name]) ? (args[name] as unknown[]).length : 0);
  return {
    estimate: ({ args }) => ({ requests: n * items(args), unanswerable: n * items(args) }),
    listSize: items,
  };
}

/** Items a connection returns when `first` is not given (src/model/paged-connection.ts). */
export const DEFAULT_FIRST = 10;

/**
 * A Relay connection over numbered upstream pages: `first` items from page 0
 * take ceil(first / pageSize) pages; an `after` cursor may start mid-page,
 * which can take one page more.
 */
export function paged(route: AnyRoute, pageSize: number): FieldCost {
  return {
    pagesInOrder: true,
    estimate: ({ args }) => {
      if (!route.counted) return nothing;
      const first = typeof args['first'] === 'number' ? args['first'] : DEFAULT_FIRST;
      const pages = Math.max(1, Math.ceil(first / pageSize)) + (args['after'] == null ? 0 : 1);
      return { requests: pages, unanswerable: pages };
    },
  };
}

/** A fixed number of counted requests (several routes chosen at run time). */
export function fixed(requests: number): FieldCost {
  return { estimate: () => ({ requests, unanswerable: requests }) };
}

/** A cost computed from the arguments and the cache (see field-costs.ts for each use). */
export function computed(estimate: FieldCost['estimate']): FieldCost {
  return { estimate };
}

/**
 * One resource per item of the list argument `name` (`athletes(ids:)`):
 * each cached one is free, like `resource`. An item `params` refuses is
 * refused in its own slot before any request (the resolver refuses it the
 * same way): it costs nothing, and the others cost as if it were absent.
 * An item repeated in the list is one load (the operation's loader).
 */
export function resourcePerItem<P>(name: string, route: Route<P, unknown>, params: (item: unknown) => P): FieldCost {
  const items = (args: Args): unknown[] => (Array.isArray(args[name]) ? (args[name] as unknown[]) : []);
  const any = route as unknown as AnyRoute;
  return {
    estimate: ({ args, fetcher }) => {
      let total = { ...nothing };
      if (!route.counted) return total;
      // The operation's loader shares one load per resource: an item asked twice counts once.
      const seen = new Set<string>();
      for (const item of items(args)) {
        let named: P;
        try {
          named = params(item);
        } catch {
          continue;
        }
        const key = fetcher.keyOf(route, named);
        if (seen.has(key)) continue;
        seen.add(key);
        const estimate = resourceEstimate(fetcher, { route: any, params: named });
        total = {
          requests: total.requests + estimate.requests,
          unanswerable: total.unanswerable + estimate.unanswerable,
        };
      }
      return total;
    },
    listSize: (args) => items(args).length,
  };
}

/**
 * A list field read from one resource its arguments name (`seasonStages`):
 * costs like `resource`, and may be probed for its real length.
 */
export function resourceList<P, T>(
  route: Route<P, T>,
  params: (args: Args) => P,
  items: (payload: T) => readonly unknown[] | undefined,
): FieldCost {
  return {
    ...resource(route, params),
    probeListSize: async (input) => {
      if (!mayProbe(input)) return undefined;
      try {
        return items(await input.context.upstream.load(route, params(input.args)))?.length ?? 0;
      } catch {
        return 0;
      }
    },
  };
}
