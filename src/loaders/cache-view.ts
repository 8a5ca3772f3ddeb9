/**
 * What the shared cache holds, as one operation sees it: through its
 * client's `@maxAge` when it set one (src/plugins/use-max-age.ts), so the
 * cost estimate counts what execution will do: an accepted old copy free,
 * a demanded refetch paid.
 */
import type { Peeked } from '../upstream/cache.js';
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import type { Route } from '../upstream/routes/route.js';
import type { UpstreamCachePort } from './loader-ports.js';
import type { UpstreamLoader } from './upstream-loader.js';

type CachePort = UpstreamCachePort['upstreamCache'];

export class OperationCacheView implements CachePort {
  constructor(
    private readonly fetcher: UpstreamFetcher,
    private readonly loader: UpstreamLoader,
  ) {}

  get scope(): object {
    return this.fetcher.scope;
  }

  isCached<P>(route: Route<P, unknown>, params: P): boolean {
    return this.fetcher.isCached(route, params, this.loader.maxAgeMs);
  }

  canAnswer<P>(route: Route<P, unknown>, params: P): boolean {
    return this.fetcher.canAnswer(route, params);
  }

  keyOf<P>(route: Route<P, unknown>, params: P): string {
    return this.fetcher.keyOf(route, params);
  }

  peekKey<T>(route: Route<never, T>, key: string): Promise<Peeked | undefined> {
    return this.fetcher.peekKey(route, key, this.loader.maxAgeMs);
  }
}
