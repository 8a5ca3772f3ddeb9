/**
 * The shared response cache: TTL by route class, in-flight de-duplication,
 * and stale answers when the upstream cannot give fresh ones, or not soon.
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
 * - Stale beats slow: a caller that holds such an old value waits for the
 *   shared refresh only until `staleIfSlowMs` after that refresh started,
 *   then answers with the old value (reason `UPSTREAM_SLOW`). A caller that
 *   joins later than that answers stale at once. The refresh itself is not
 *   cancelled: it goes on in the background, bounded by the deadline of the
 *   operation that started it, stores its value when it comes, and stays the
 *   one in flight meanwhile, so nobody sends the same request again. A caller
 *   with nothing old to answer with waits for the refresh as before.
 * - A 404 is cached like data (negative entry), so a wrong ID is not paid
 *   for twice within the TTL.
 */
import { performance } from 'node:perf_hooks';
import { LRUCache } from 'lru-cache';
import { GatewayError, staleEligible, type ErrorCode } from './errors.js';

/**
 * The refresh had not answered within `staleIfSlowMs`. Not a failure, so not
 * an error code: no field ever fails with it, and the refresh may still succeed.
 */
export const UPSTREAM_SLOW = 'UPSTREAM_SLOW';

/** Why a stale value answered: the failure it stands in for, or a refresh too slow to wait for. */
export type StaleReason = ErrorCode | typeof UPSTREAM_SLOW;

export interface StaleInfo {
  /** Seconds since the entry was stored. */
  ageSeconds: number;
  /** The code of the failure the stale value stands in for, or `UPSTREAM_SLOW`. */
  reason: StaleReason;
}

export type CacheSource = 'cache' | 'upstream' | 'shared' | 'stale';

export interface CacheResult<T> {
  value: T;
  source: CacheSource;
  stale?: StaleInfo;
  /**
   * True when this caller started the upstream request that was still in
   * flight when it answered stale: the request was sent on its behalf and
   * spends the allowance when it completes.
   */
  startedRefresh?: boolean;
}

type StoredValue = { kind: 'value'; value: unknown; storedAt: number; ttlMs: number; size: number };
type Stored = StoredValue | { kind: 'error'; error: GatewayError; storedAt: number; ttlMs: number; size: number };

/** One upstream request in flight, shared by every caller of its key. */
interface Flight {
  /** Settles with the loaded value, or rejects with the load's error. */
  readonly loaded: Promise<unknown>;
  /** `performance.now()` after which a caller holding a stale value stops waiting for it. */
  readonly slowAt: number;
}

export interface ResponseCacheOptions {
  /** Upper bound on the bytes held, fresh and stale. */
  maxBytes: number;
  /** How long past its TTL an entry may still answer a failed refresh. */
  maxStaleMs: number;
  /**
   * How long a caller that holds a stale value waits for a refresh before
   * answering with the stale value (the refresh goes on in the background).
   * @default Infinity (wait for the refresh, however long it takes)
   */
  staleIfSlowMs?: number;
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
  private readonly inFlight = new Map<string, Flight>();
  private readonly now: () => number;
  private readonly maxStaleMs: number;
  private readonly staleIfSlowMs: number;

  constructor(options: ResponseCacheOptions) {
    this.now = options.now ?? Date.now;
    this.maxStaleMs = options.maxStaleMs;
    this.staleIfSlowMs = options.staleIfSlowMs ?? Infinity;
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
    return this.now() - entry.storedAt < entry.ttlMs || this.fallbackOf(entry) !== undefined;
  }

  /**
   * Answers `key` from the cache when fresh, otherwise through `load` (shared
   * with every concurrent caller of the same key), or from the stale entry
   * when the load fails for a stale-eligible reason or is slow.
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
    let flight = this.inFlight.get(key);
    const started = flight === undefined;
    if (flight === undefined) {
      events.onMiss?.(key);
      flight = this.startRefresh(key, ttlMs, load);
    } else {
      events.onHit?.(key);
    }
    const fallback = entry === undefined ? undefined : this.fallbackOf(entry);
    try {
      if (fallback === undefined) {
        return { value: (await flight.loaded) as T, source: started ? 'upstream' : 'shared' };
      }
      const outcome = await settledOrSlow(flight);
      if (outcome.slow) {
        const answer = this.answerStale<T>(key, fallback, UPSTREAM_SLOW, events);
        return started ? { ...answer, startedRefresh: true } : answer;
      }
      return { value: outcome.value as T, source: started ? 'upstream' : 'shared' };
    } catch (error) {
      if (fallback === undefined || !(error instanceof GatewayError) || !staleEligible.has(error.code)) throw error;
      return this.answerStale(key, fallback, error.code, events);
    }
  }

  /** The entry when it is a value within `maxStaleMs` past its TTL: one a stale answer may give. */
  private fallbackOf(entry: Stored): StoredValue | undefined {
    if (entry.kind !== 'value') return undefined;
    return this.now() - entry.storedAt - entry.ttlMs <= this.maxStaleMs ? entry : undefined;
  }

  private answerStale<T>(key: string, fallback: StoredValue, reason: StaleReason, events: CacheEvents): CacheResult<T> {
    // Keep the old value where it is (and recently used): a later refresh may still succeed.
    if (this.entries.get(key) === undefined) this.entries.set(key, fallback);
    const stale: StaleInfo = { ageSeconds: Math.round((this.now() - fallback.storedAt) / 1000), reason };
    events.onStale?.(key, stale);
    return { value: fallback.value as T, source: 'stale', stale };
  }

  private startRefresh<T>(key: string, ttlMs: number, load: () => Promise<{ value: T; size: number }>): Flight {
    const loaded = this.refresh(key, ttlMs, load);
    const flight: Flight = { loaded, slowAt: performance.now() + this.staleIfSlowMs };
    this.inFlight.set(key, flight);
    const done = (): void => {
      if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
    };
    // Every caller still waiting handles a failure from its own await; once
    // all of them answered stale nobody is left to, and an unhandled
    // rejection would end the process. The upstream metrics count the failure.
    loaded.then(done, done);
    return flight;
  }

  private async refresh<T>(key: string, ttlMs: number, load: () => Promise<{ value: T; size: number }>): Promise<unknown> {
    try {
      const { value, size } = await load();
      this.entries.set(key, { kind: 'value', value, storedAt: this.now(), ttlMs, size: Math.max(1, size) });
      return value;
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'NOT_FOUND') {
        this.entries.set(key, { kind: 'error', error, storedAt: this.now(), ttlMs, size: 256 });
      }
      throw error;
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

type Settled = { slow: false; value: unknown } | { slow: true };

/** The flight's value, or `slow` once its `slowAt` has passed (at once when it already has). */
function settledOrSlow(flight: Flight): Promise<Settled> {
  const settled = flight.loaded.then((value): Settled => ({ slow: false, value }));
  // No bound configured: a timer of Infinity ms would fire after 1 ms instead.
  if (!Number.isFinite(flight.slowAt)) return settled;
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<Settled>((resolve) => {
    timer = setTimeout(() => resolve({ slow: true }), Math.max(0, flight.slowAt - performance.now()));
  });
  return Promise.race([settled, slow]).finally(() => clearTimeout(timer));
}
