/**
 * The request-scoped loader: one per GraphQL operation (dataloader's own
 * advice), keyed by route and parameters, so that every field of one
 * operation asking for the same upstream resource shares one load. Across
 * operations, sharing is the job of the cache's in-flight map.
 *
 * It also keeps the operation's trace: how many upstream requests it made,
 * how many resources the cache answered, and which answers were stale.
 */
import DataLoader from 'dataloader';
import type { StaleInfo } from '../upstream/cache.js';
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import type { Route } from '../upstream/routes/route.js';

export interface StaleNotice extends StaleInfo {
  /** Route template of the stale resource. */
  route: string;
  version: string;
}

export interface RequestTrace {
  /** Upstream requests this operation started (shared ones are counted once, by their starter). */
  upstreamRequests: number;
  /** Of those, the ones that spent the allowance (route.counted): what a client's budget is charged. */
  countedRequests: number;
  /** Resources answered by the shared cache or by another operation's request in flight. */
  cacheHits: number;
  stale: StaleNotice[];
  /**
   * Every resource the operation loaded (cache key and route template),
   * whatever answered it, failed loads included: the operation-result cache
   * stores a result only while all of them are fresh.
   */
  resources: Array<{ key: string; route: string }>;
}

interface Call {
  route: Route<unknown, unknown>;
  params: unknown;
  key: string;
}

export class UpstreamLoader {
  readonly trace: RequestTrace = { upstreamRequests: 0, countedRequests: 0, cacheHits: 0, stale: [], resources: [] };
  /** Made on the first load: most subscription contexts never load anything, and there are thousands of them. */
  private loader: DataLoader<Call, unknown, string> | undefined;

  constructor(
    private readonly fetcher: UpstreamFetcher,
    private readonly deadline: number,
    /** Bench-only (`UPSTREAM_LOADERS=off`): no per-operation de-duplication. @default true */
    private readonly shared = true,
  ) {}

  private createLoader(): DataLoader<Call, unknown, string> {
    return new DataLoader<Call, unknown, string>((calls) => this.loadAll(calls), {
      name: 'upstream',
      cacheKeyFn: (call) => call.key,
      // No batching: the upstream has no batch routes, so a batch only made
      // every key wait for the slowest one (a cached `/reference/sports`
      // held back until the V1 requests of the same tick came back, which
      // put the V2 requests that need its slug one round trip later). Each
      // key resolves on its own; per-operation de-duplication is the cache.
      batch: false,
      cache: this.shared,
    });
  }

  /** Loads one upstream resource; a failure rejects with a coded GatewayError. */
  load<P, T>(route: Route<P, T>, params: P): Promise<T> {
    const call: Call = { route: route as Route<unknown, unknown>, params, key: this.fetcher.keyOf(route, params) };
    this.loader ??= this.createLoader();
    return this.loader.load(call) as Promise<T>;
  }

  private loadAll(calls: readonly Call[]): Promise<Array<unknown>> {
    return Promise.all(
      calls.map(async (call) => {
        this.trace.resources.push({ key: call.key, route: call.route.template });
        try {
          const result = await this.fetcher.fetch(call.route, call.params, { deadline: this.deadline });
          // A stale answer given while this operation's own refresh goes on
          // still cost that request: the client's budget is charged for it.
          const sent = result.source === 'upstream' || result.startedRefresh === true;
          if (sent) this.trace.upstreamRequests += 1;
          else this.trace.cacheHits += 1;
          if (sent && call.route.counted) this.trace.countedRequests += 1;
          if (result.stale !== undefined) {
            this.trace.stale.push({ route: call.route.template, version: call.route.version, ...result.stale });
          }
          return result.value;
        } catch (error) {
          // One failed resource is an Error in its slot: it never fails its neighbours.
          return error instanceof Error ? error : new Error(String(error));
        }
      }),
    );
  }
}
