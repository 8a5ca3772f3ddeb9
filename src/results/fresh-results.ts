/**
 * Keeps the result cache in step with the upstream cache's freshness
 * (issue 33): a stored result answers only while every upstream resource it
 * was built from is still fresh where this replica can tell.
 *
 * Why a stored result's own TTL is not enough: it is fixed when the result
 * is stored (the least fresh resource's, as of then), but a resource's
 * freshness can end earlier, when the state of its match changes
 * (scheduled -> in play -> ended re-classifies it, src/upstream/match-freshness.ts),
 * or when the upstream cache's clock moves. So the keys of the resources a
 * result used are kept beside it, and a hit is refused as soon as one of them
 * has expired in this replica's upstream cache. A key this replica does not
 * hold (a result another replica stored) is not known to be expired and does
 * not refuse the hit.
 */
import { LRUCache } from 'lru-cache';
import type { ResultCache, StoredResult } from './result-cache.js';

export interface UpstreamFreshness {
  /** True when this replica holds `key` and it is no longer fresh. */
  expired(key: string): boolean;
}

/**
 * The upstream cache keys a result-cache hit was built from, by the
 * operation it answered: the HTTP caching stage (src/plugins/use-http-caching.ts)
 * works the hit's `Cache-Control` out of them.
 */
export const hitResources = new WeakMap<object, readonly string[]>();

/** How many results' resource lists are kept: past that, the oldest result answers by its own TTL alone. */
const MAX_TRACKED = 20_000;

export class FreshResults implements ResultCache {
  readonly #cache: ResultCache;
  readonly #upstream: UpstreamFreshness;
  readonly #resources = new LRUCache<string, readonly string[]>({ max: MAX_TRACKED });

  constructor(cache: ResultCache, upstream: UpstreamFreshness) {
    this.#cache = cache;
    this.#upstream = upstream;
  }

  getLocal(key: string): StoredResult | undefined {
    const hit = this.#cache.getLocal(key);
    return hit === undefined || this.#stale(key) ? undefined : hit;
  }

  get(key: string): StoredResult | undefined | Promise<StoredResult | undefined> {
    const local = this.#cache.getLocal(key);
    if (local !== undefined) return this.#stale(key) ? undefined : local;
    // Not held here: what the shared tier may hold was built by another replica,
    // bounded by its own TTL, and this replica's list of resources is of an older result.
    this.#resources.delete(key);
    return this.#cache.get(key);
  }

  resourcesOf(key: string): readonly string[] | undefined {
    return this.#resources.get(key);
  }

  set(key: string, result: StoredResult, ttlMs: number, resources?: readonly string[]): void {
    if (resources === undefined) this.#resources.delete(key);
    else this.#resources.set(key, resources);
    this.#cache.set(key, result, ttlMs);
  }

  #stale(key: string): boolean {
    const resources = this.#resources.get(key);
    return resources?.some((resource) => this.#upstream.expired(resource)) === true;
  }
}
