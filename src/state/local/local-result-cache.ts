import { LRUCache } from 'lru-cache';
import { storedSize, type ResultCache, type StoredResult } from '../../results/result-cache.js';

/** The result cache of a gateway alone, and the front layer of a cluster's. */
export class LocalResultCache implements ResultCache {
  private readonly entries: LRUCache<string, StoredResult>;
  /** Entries larger than this are never kept (lru-cache refuses them too). */
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
    this.entries = new LRUCache<string, StoredResult>({ maxSize: maxBytes, ttlAutopurge: false });
  }

  getLocal(key: string): StoredResult | undefined {
    return this.entries.get(key);
  }

  get(key: string): StoredResult | undefined {
    return this.entries.get(key);
  }

  set(key: string, result: StoredResult, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.set(key, result, { ttl: ttlMs, size: Math.max(1, storedSize(key, result)) });
  }

  clear(): void {
    this.entries.clear();
  }
}
