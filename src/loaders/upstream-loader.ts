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
  /** Resources answered by the shared cache or by another operation's request in flight. */
  cacheHits: number;
  stale: StaleNotice[];
}

interface Call {
  route: Route<unknown, unknown>;
  params: unknown;
  key: string;
}

export class UpstreamLoader {
  readonly trace: RequestTrace = { upstreamRequests: 0, cacheHits: 0, stale: [] };
  private readonly loader: DataLoader<Call, unknown, string>;

  constructor(
    private readonly fetcher: UpstreamFetcher,
    private readonly deadline: number,
  ) {
    this.loader = new DataLoader<Call, unknown, string>((calls) => this.loadAll(calls), {
      name: 'upstream',
      cacheKeyFn: (call) => call.key,
    });
  }

  /** Loads one upstream resource; a failure rejects with a coded GatewayError. */
  load<P, T>(route: Route<P, T>, params: P): Promise<T> {
    const call: Call = { route: route as Route<unknown, unknown>, params, key: this.fetcher.keyOf(route, params) };
    return this.loader.load(call) as Promise<T>;
  }

  private loadAll(calls: readonly Call[]): Promise<Array<unknown>> {
    return Promise.all(
      calls.map(async (call) => {
        try {
          const result = await this.fetcher.fetch(call.route, call.params, { deadline: this.deadline });
          if (result.source === 'upstream') this.trace.upstreamRequests += 1;
          else this.trace.cacheHits += 1;
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
