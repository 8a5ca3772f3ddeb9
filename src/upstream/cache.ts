/**
 * The shared response cache: TTL by route class, in-flight de-duplication,
 * and stale answers when the upstream cannot give fresh ones.
 *
 * Timing, in words, because it is the subtle part:
 * - A fresh entry (younger than its TTL) answers at once; nothing is sent.
 * - Otherwise the first caller starts the upstream request and every caller
 *   that arrives before it settles shares the same promise: twenty concurrent
 *   operations asking for one resource make one request.
 * - Entries are not evicted at their TTL. They stay (bounded by bytes, least
 *   recently used first, and by `maxStaleMs`) so that when the refresh fails
 *   for a reason stale data can answer (502, 504, unreachable, allowance
 *   spent), the old value is returned with its age and the reason.
 * - A 404 is cached like data (negative entry), so a wrong ID is not paid
 *   for twice within the TTL.
 */
import { LRUCache } from 'lru-cache';
import { GatewayError, staleEligible, type ErrorCode } from './errors.js';

export interface StaleInfo {
  /** Seconds since the entry was stored. */
  ageSeconds: number;
  /** The code of the failure the stale value stands in for. */
  reason: ErrorCode;
}

export type CacheSource = 'cache' | 'upstream' | 'shared' | 'stale';

export interface CacheResult<T> {
  value: T;
  source: CacheSource;
  stale?: StaleInfo;
}

type Stored =
  | { kind: 'value'; value: unknown; storedAt: number; ttlMs: number; size: number }
  | { kind: 'error'; error: GatewayError; storedAt: number; ttlMs: number; size: number };

export interface ResponseCacheOptions {
  /** Upper bound on the bytes held, fresh and stale. */
  maxBytes: number;
  /** How long past its TTL an entry may still answer a failed refresh. */
  maxStaleMs: number;
  /** @default Date.now */
  now?: () => number;
}

export interface CacheEvents {
  onHit?(key: string): void;
  onMiss?(key: string): void;
  onStale?(key: string, info: StaleInfo): void;
}

export class ResponseCache {
  private readonly entries: LRUCache<string, Stored>;
  private readonly inFlight = new Map<string, Promise<CacheResult<unknown>>>();
  private readonly now: () => number;
  private readonly maxStaleMs: number;

  constructor(options: ResponseCacheOptions) {
    this.now = options.now ?? Date.now;
    this.maxStaleMs = options.maxStaleMs;
    this.entries = new LRUCache<string, Stored>({
      maxSize: options.maxBytes,
      sizeCalculation: (entry) => entry.size,
    });
  }

  /** True when `key` would be answered without an upstream request. */
  isFresh(key: string): boolean {
    return this.freshForMs(key) > 0;
  }

  /**
   * Milliseconds `key` stays fresh (0 when absent or past its TTL), negative
   * entries included. Read-only: the operation-result cache
   * (src/results/result-cache.ts) bounds a stored result by it.
   */
  freshForMs(key: string): number {
    const entry = this.entries.peek(key);
    return entry === undefined ? 0 : Math.max(0, entry.storedAt + entry.ttlMs - this.now());
  }

  /**
   * True when `key` has an answer the cache could give even if the upstream
   * refuses: fresh, or stale within `maxStaleMs` (the cost estimate uses it:
   * such a resource cannot fail for want of allowance).
   */
  canAnswer(key: string): boolean {
    const entry = this.entries.peek(key);
    if (entry === undefined) return false;
    const age = this.now() - entry.storedAt;
    return age < entry.ttlMs || (entry.kind === 'value' && age - entry.ttlMs <= this.maxStaleMs);
  }

  /**
   * Answers `key` from the cache when fresh, otherwise through `load` (shared
   * with every concurrent caller of the same key).
   *
   * @param size bytes of the loaded value, for the cache bound (the caller has the raw body).
   */
  async get<T>(
    key: string,
    ttlMs: number,
    load: () => Promise<{ value: T; size: number }>,
    events: CacheEvents = {},
  ): Promise<CacheResult<T>> {
    const entry = this.entries.get(key);
    if (entry !== undefined && this.now() - entry.storedAt < entry.ttlMs) {
      events.onHit?.(key);
      if (entry.kind === 'error') throw entry.error;
      return { value: entry.value as T, source: 'cache' };
    }
    const pending = this.inFlight.get(key);
    if (pending !== undefined) {
      events.onHit?.(key);
      const shared = await pending;
      return { ...shared, value: shared.value as T, source: shared.source === 'stale' ? 'stale' : 'shared' };
    }
    events.onMiss?.(key);
    const started = this.refresh(key, ttlMs, load, entry, events);
    this.inFlight.set(key, started);
    try {
      return (await started) as CacheResult<T>;
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async refresh<T>(
    key: string,
    ttlMs: number,
    load: () => Promise<{ value: T; size: number }>,
    previous: Stored | undefined,
    events: CacheEvents,
  ): Promise<CacheResult<unknown>> {
    try {
      const { value, size } = await load();
      this.entries.set(key, { kind: 'value', value, storedAt: this.now(), ttlMs, size: Math.max(1, size) });
      return { value, source: 'upstream' };
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      if (error.code === 'NOT_FOUND') {
        this.entries.set(key, { kind: 'error', error, storedAt: this.now(), ttlMs, size: 256 });
        throw error;
      }
      const age = previous === undefined ? Infinity : this.now() - previous.storedAt;
      if (previous?.kind === 'value' && staleEligible.has(error.code) && age - previous.ttlMs <= this.maxStaleMs) {
        const stale: StaleInfo = { ageSeconds: Math.round(age / 1000), reason: error.code };
        // Keep the old value where it is: a later refresh may still succeed.
        this.entries.set(key, previous);
        events.onStale?.(key, stale);
        return { value: previous.value, source: 'stale', stale };
      }
      throw error;
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
