/**
 * The operation-result cache: whole `data` of queries that ran without
 * errors and without stale answers, kept no longer than the least fresh
 * upstream resource they used (so a hit is never older than re-executing
 * would be), bounded by serialized bytes, least recently used first.
 */
import { LRUCache } from 'lru-cache';

export interface StoredResult {
  readonly data: Record<string, unknown>;
  /** `data` serialized once when stored: a hit's response is spliced around it instead of re-serializing. */
  readonly json: string;
  /**
   * Route templates of the resources the result was built from, one per
   * load: a hit reports them as cache hits (`extensions.cost.cacheHits`, the
   * cache-hit metric), as executing again over the fresh cache would.
   */
  readonly routes: readonly string[];
}

export interface ResultKeyParts {
  readonly query: string;
  readonly operationName: string | null | undefined;
  readonly variables: unknown;
  readonly clientName: string | undefined;
}

/**
 * One key per (document text, operation name, variables, client).
 * `JSON.stringify` walks the variables recursively: callers pass only
 * variables that passed the input bounds (src/http/input-bounds.ts), which
 * every door checks before any key is made.
 */
export function resultKey(parts: ResultKeyParts): string {
  return JSON.stringify([parts.clientName ?? null, parts.operationName ?? null, parts.variables ?? null, parts.query]);
}

export class ResultCache {
  private readonly entries: LRUCache<string, StoredResult>;

  constructor(maxBytes: number) {
    this.entries = new LRUCache<string, StoredResult>({ maxSize: maxBytes, ttlAutopurge: false });
  }

  get(key: string): StoredResult | undefined {
    return this.entries.get(key);
  }

  /**
   * @param ttlMs how long every resource the result used stays fresh.
   * @param size serialized bytes of the result (key included), for the bound.
   */
  set(key: string, result: StoredResult, ttlMs: number, size: number): void {
    if (ttlMs <= 0) return;
    this.entries.set(key, result, { ttl: ttlMs, size: Math.max(1, size) });
  }

  clear(): void {
    this.entries.clear();
  }
}
