/**
 * Where the response cache (cache.ts) keeps its entries: the seam between
 * the cache's timing rules and how long its entries live. In memory alone
 * (`CACHE_STORE=memory`, and the image importer), or in memory over a
 * durable file under `DATA_DIR` (disk-entries.ts), so that a restart does
 * not pay again for what is still fresh.
 */
import { EndedLastLru } from './ended-last-lru.js';
import type { GatewayError } from './errors.js';
import { knownStateChanged } from './known-state.js';

export type StoredValue = { kind: 'value'; value: unknown; storedAt: number; ttlMs: number; size: number };
export type StoredError = { kind: 'error'; error: GatewayError; storedAt: number; ttlMs: number; size: number };
/** One cached answer: a value, or a 404 (negative entry), with its freshness. */
export type Stored = StoredValue | StoredError;

export interface CacheEntries {
  /** The entry, counted as used (its recency refreshed). */
  get(key: string): Stored | undefined;
  /** The entry, read without refreshing its recency (cost estimates, freshness checks). */
  peek(key: string): Stored | undefined;
  set(key: string, entry: Stored): void;
  clear(): void;
  /** Deletes every entry whose key `matches` (in a file too); returns how many there were. */
  deleteWhere(matches: (key: string) => boolean): number;
  /**
   * Resolves once every entry set so far would survive a `kill -9` (a file
   * committed it, or it has no file, or its file is off). Never rejects: a
   * write that fails is the store's to report.
   */
  durable(): Promise<void>;
  /** Writes what is pending and lets go of any file. */
  close(): Promise<void>;
}

/** The entries in memory only, bounded by bytes, least recently used out first, ended matches' answers last. */
export class MemoryEntries implements CacheEntries {
  private readonly entries: EndedLastLru<Stored>;

  constructor(maxBytes: number) {
    this.entries = new EndedLastLru<Stored>({ maxBytes });
  }

  get(key: string): Stored | undefined {
    return this.entries.get(key);
  }

  peek(key: string): Stored | undefined {
    return this.entries.peek(key);
  }

  set(key: string, entry: Stored): void {
    // Evictions happen only here (the byte bound): this covers them too.
    knownStateChanged();
    this.entries.set(key, entry);
  }

  clear(): void {
    knownStateChanged();
    this.entries.clear();
  }

  /** Memory only: nothing to make durable, nothing a crash would keep. */
  durable(): Promise<void> {
    return Promise.resolve();
  }

  deleteWhere(matches: (key: string) => boolean): number {
    knownStateChanged();
    const keys = [...this.entries.keys()].filter(matches);
    for (const key of keys) this.entries.delete(key);
    return keys.length;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
