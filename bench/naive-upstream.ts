/**
 * The bench's naive upstream path (`UPSTREAM_CACHE=off`, `UPSTREAM_LOADERS=off`,
 * bench/scenarios/upstream.ts): what the resolvers would cost with one
 * upstream request per field. Never in service: only the bench's gateway
 * entry (bench/gateway-main.ts) makes them.
 */
import { UpstreamLoader } from '../src/loaders/upstream-loader.js';
import type { CacheResult } from '../src/upstream/cache.js';
import {
  raceDeadline,
  unwrap,
  UpstreamFetcher,
  type FetchOptions,
  type PreparedCall,
} from '../src/upstream/fetcher.js';
import type { CheckedPayload } from '../src/upstream/payload-check.js';
import type { Route } from '../src/upstream/routes/route.js';

/** No shared cache and no in-flight sharing: every call goes upstream, unshared. */
export class UnsharedFetcher extends UpstreamFetcher {
  override readonly sharesLoads = false;

  override async fetchPrepared<P, T>(
    route: Route<P, T>,
    prepared: PreparedCall,
    options: FetchOptions,
  ): Promise<CacheResult<T>> {
    const loaded = this.load(route, prepared.request, options.deadline, options.meter).then(
      ({ value }): CacheResult<CheckedPayload<T>> => ({ value, source: 'upstream' }),
    );
    return raceDeadline(
      loaded.then((result) => unwrap(route, result)),
      options.deadline,
      route,
    );
  }
}

/** No per-operation de-duplication: each field's load is its own. */
export const unsharedLoader = (fetcher: UpstreamFetcher, deadline: number): UpstreamLoader =>
  new UpstreamLoader(fetcher, deadline, false);
