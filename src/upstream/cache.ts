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
 * - Where entries live is cache-entries.ts's seam: memory only, or memory
 *   over the durable file (disk-entries.ts), which keeps fresh and stale
 *   entries across a restart. Nothing here depends on which.
 * - A tier (shared-tier.ts) sits under the LRU, which is the replica's own
 *   layer in front of it: a refresh goes through the tier's single flight
 *   (cluster-flight.ts). In a cluster that is one request for the whole
 *   cluster, and a stale copy another replica stored answers like one of
 *   this replica's own, so a caller with nothing old locally may still
 *   answer stale; which is why such a caller also watches `slowAt`. A
 *   gateway alone has the tier of nobody else (`tierAlone`): every claim is
 *   its own and nothing is shared. The state backend
 *   (src/state/open-state.ts) hands the tier over; nothing here asks which.
 */
import { performance } from 'node:perf_hooks';
import { Code } from '../codes/error-codes.js';
import { MemoryEntries, type CacheEntries, type Stored, type StoredValue } from './cache-entries.js';
import { loadOnceInCluster } from './cluster-flight.js';
import { GatewayError, staleEligible, type ErrorCode } from './errors.js';
import { IMMUTABLE_TTL_MS } from './cache-ttls.js';
import type { EntryFreshness } from './match-freshness.js';
import { gatewayErrorOf, sharedErrorOf, tierAlone, type SharedEntry, type SharedTier } from './shared-tier.js';

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

/** A cached copy of one resource as `ResponseCache.copyOf` sees it. */
export interface CachedCopy {
  /** Whole seconds since it was stored. */
  readonly ageSeconds: number;
  /** Within its TTL: a call is answered from it without an upstream request. */
  readonly fresh: boolean;
  /** Fresh, or stale within the bound the cache may still answer with when the upstream refuses. */
  readonly answerable: boolean;
}

export type CacheSource = 'cache' | 'upstream' | 'shared' | 'stale';

export interface CacheResult<T> {
  value: T;
  source: CacheSource;
  /** Seconds since the answer was fetched, when it came from the cache (fresh or stale). */
  ageSeconds?: number;
  stale?: StaleInfo;
  /**
   * True when this caller started the upstream request that was still in
   * flight when it answered stale: the request was sent on its behalf and
   * spends the allowance when it completes.
   */
  startedRefresh?: boolean;
}

/** What a refresh settled with: the value, and whether this replica sent the request for it. */
interface Loaded {
  readonly value: unknown;
  /** False when another replica's request (or its stored entry) answered. */
  readonly sent: boolean;
}

/** One upstream request in flight, shared by every caller of its key. */
interface Flight {
  /** Settles with the loaded value, or rejects with the load's error. */
  readonly loaded: Promise<Loaded>;
  /** `performance.now()` after which a caller holding a stale value stops waiting for it. */
  readonly slowAt: number;
  /** True once this replica has sent the request (only when its claim made it the one to load). */
  readonly sending: () => boolean;
}

/** The tier under the LRU, and how long to wait for other replicas. */
export interface SharedTierOptions {
  readonly tier: SharedTier;
  /** Longest quiet wait for another replica's notice before asking the tier again. @default 300 */
  readonly pollMs?: number;
  /** Longest wait for another replica's request in all (the operation timeout is a good bound). */
  readonly maxWaitMs: number;
}

export interface ResponseCacheOptions {
  /** Upper bound on the bytes held in memory, fresh and stale. */
  maxBytes: number;
  /**
   * Where the entries live. @default in memory only, bounded by `maxBytes`
   * (a durable store, disk-entries.ts, brings its own bound)
   */
  entries?: CacheEntries | undefined;
  /** How long past its TTL an entry may still answer a failed refresh. */
  maxStaleMs: number;
  /**
   * How long a caller that holds a stale value waits for a refresh before
   * answering with the stale value (the refresh goes on in the background).
   * @default Infinity (wait for the refresh, however long it takes)
   */
  staleIfSlowMs?: number;
  /** @default Date.now */
  now?: (() => number) | undefined;
  /** The tier under this replica's entries. @default tierAlone (a gateway alone) */
  shared?: SharedTierOptions | undefined;
  /**
   * How long an entry stays fresh, read at every look (match-freshness.ts:
   * by the state of its match, so a state change re-classifies entries
   * already held). @default the TTL the entry was stored with
   */
  freshness?: EntryFreshness | undefined;
}

/**
 * The TTL of a loaded value: a number, or one worked out from the value and
 * when it is stored (`of`), with `ms` for an answer that holds no value (a 404).
 */
export type TtlOf<T> = number | { readonly ms: number; of(value: T, storedAt: number): number };

export interface CacheEvents {
  onHit?(key: string): void;
  onMiss?(key: string): void;
  onStale?(key: string, info: StaleInfo): void;
}

export class ResponseCache {
  private readonly entries: CacheEntries;
  private readonly inFlight = new Map<string, Flight>();
  private readonly now: () => number;
  private readonly maxStaleMs: number;
  private readonly staleIfSlowMs: number;
  private readonly shared: Required<SharedTierOptions>;
  private readonly freshness: EntryFreshness | undefined;

  constructor(options: ResponseCacheOptions) {
    this.now = options.now ?? Date.now;
    this.maxStaleMs = options.maxStaleMs;
    this.staleIfSlowMs = options.staleIfSlowMs ?? Infinity;
    // Alone nobody else loads: the wait bounds are never used.
    this.shared = { pollMs: 300, ...(options.shared ?? { tier: tierAlone, maxWaitMs: 0 }) };
    this.entries = options.entries ?? new MemoryEntries(options.maxBytes);
    this.freshness = options.freshness;
  }

  /** The milliseconds `entry` stays fresh from when it was stored (the freshness policy's, or its own). */
  private ttlOf(key: string, entry: Stored | SharedEntry): number {
    if (this.freshness === undefined) return entry.ttlMs;
    return this.freshness.ttlMs(
      key,
      entry.kind === 'value' ? entry : { storedAt: entry.storedAt, ttlMs: entry.ttlMs },
      this.now(),
    );
  }

  private isFreshEntry(key: string, entry: Stored | SharedEntry): boolean {
    return this.now() - entry.storedAt < this.ttlOf(key, entry);
  }

  /**
   * True when this replica holds `key` and it is no longer fresh (its TTL
   * passed, or the state of its match changed since it was fetched). For the
   * result cache: a stored result built on it must not answer any more.
   * A key not held here is not known to be expired (another replica may hold it).
   */
  expired(key: string): boolean {
    const entry = this.entries.peek(key);
    return entry !== undefined && !this.isFreshEntry(key, entry);
  }

  /** When `key`'s entry was stored (this cache's clock), or undefined when none is held here. */
  storedAtOf(key: string): number | undefined {
    return this.entries.peek(key)?.storedAt;
  }

  /** Milliseconds since `storedAt` on this cache's clock (the age a result-cache hit reports for a resource). */
  ageSince(storedAt: number): number {
    return Math.max(0, this.now() - storedAt);
  }

  /** Milliseconds since `key`'s entry was stored, or undefined when none is held here. */
  ageMs(key: string): number | undefined {
    const entry = this.entries.peek(key);
    return entry === undefined ? undefined : Math.max(0, this.now() - entry.storedAt);
  }

  /**
   * True when `key` would be answered without an upstream request.
   *
   * This and `freshForMs` and `canAnswer` stay synchronous (the cost estimate
   * calls them while planning), so in a cluster they see this replica's layer
   * only: a resource only the shared tier holds counts as a miss. That can
   * only make an estimate higher than the operation turns out to cost, never
   * lower, which is the safe side for an allowance.
   */
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
    // An immutable answer (an ended match's) is "fresh for ten years", a number every store and header can hold.
    return entry === undefined
      ? 0
      : Math.max(0, Math.min(IMMUTABLE_TTL_MS, entry.storedAt + this.ttlOf(key, entry) - this.now()));
  }

  /**
   * True when `key` has an answer the cache could give even if the upstream
   * refuses: fresh, or stale within `maxStaleMs` (the cost estimate uses it:
   * such a resource cannot fail for want of allowance).
   */
  canAnswer(key: string): boolean {
    const entry = this.entries.peek(key);
    if (entry === undefined) return false;
    return this.isFreshEntry(key, entry) || this.fallbackOf(entry) !== undefined;
  }

  /**
   * The copy `key` holds on this replica, fresh or stale, read without side
   * effects (like `canAnswer`): its age, whether it is fresh, and whether
   * it could answer if the upstream refused. Undefined when none is held.
   * For the MCP `estimate` tool, which tells an agent which resources are
   * cached and how old they are.
   */
  copyOf(key: string): CachedCopy | undefined {
    const entry = this.entries.peek(key);
    if (entry === undefined) return undefined;
    const ageMs = Math.max(0, this.now() - entry.storedAt);
    // Fresh as every other read here counts it: by the freshness policy (its match's state), not the stored TTL.
    return {
      ageSeconds: Math.floor(ageMs / 1000),
      fresh: this.isFreshEntry(key, entry),
      answerable: this.canAnswer(key),
    };
  }

  /**
   * The fresh answer `key` holds, read without side effects: the LRU's
   * recency is not refreshed, no hit or miss is counted, nothing is loaded
   * or claimed. In a cluster the shared tier is read too (its `peek`), so a
   * resource another replica stored counts as known. For the cost estimate,
   * which reads cached lists to learn their real length; undefined when
   * nothing fresh is held.
   *
   * A fresh entry read from the tier is kept here, as a claim that found it
   * would keep it: the execution that follows the estimate then answers
   * from this replica's layer instead of reading Redis a second time for
   * the same entry (issue 16: one round trip per resource, not two).
   */
  async peek(key: string): Promise<Peeked | undefined> {
    const here = this.entries.peek(key);
    if (here !== undefined && this.isFreshEntry(key, here)) return peekedOf(here);
    // A tier that holds nothing of others' (alone) is not asked: no await for it.
    if (this.shared.tier.peek === undefined) return undefined;
    const entry = await this.shared.tier.peek(key);
    if (entry === undefined || !this.isFreshEntry(key, entry)) return undefined;
    const stored = storedOf(entry);
    const latest = this.entries.peek(key);
    if (latest === undefined || latest.storedAt < stored.storedAt) this.entries.set(key, stored);
    return peekedOf(stored);
  }

  /**
   * Answers `key` from the cache when fresh, otherwise through `load` (shared
   * with every concurrent caller of the same key), or from the stale entry
   * when the load fails for a stale-eligible reason or is slow.
   *
   * @param size bytes of the loaded value, for the cache bound (the caller has the raw body).
   */
  /**
   * The answer of a fresh entry (a stored error is thrown), or undefined:
   * what get() answers at once, for a caller that then needs no flight,
   * fallback or deadline race.
   */
  fresh<T>(key: string, events: CacheEvents = {}, acceptAgeMs?: number): CacheResult<T> | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || !this.answersNow(key, entry, acceptAgeMs)) return undefined;
    events.onHit?.(key);
    if (entry.kind === 'error') throw entry.error;
    return { value: entry.value as T, source: 'cache', ageSeconds: this.ageSecondsOf(entry) };
  }

  /**
   * Whether `entry` answers without a request: fresh by its TTL, or, when the
   * caller names the age it accepts (a client's `@maxAge`), no older than that
   * whatever its TTL says: older data accepted, or fresher demanded.
   */
  private answersNow(key: string, entry: Stored, acceptAgeMs: number | undefined): boolean {
    return acceptAgeMs === undefined ? this.isFreshEntry(key, entry) : this.now() - entry.storedAt <= acceptAgeMs;
  }

  private ageSecondsOf(entry: Stored): number {
    return Math.max(0, Math.floor((this.now() - entry.storedAt) / 1000));
  }

  /**
   * The answer `key` holds here if it is no older than `acceptAgeMs`, read
   * without side effects (the estimate's `peek` for an operation with `@maxAge`).
   */
  peekWithin(key: string, acceptAgeMs: number): Peeked | undefined {
    const entry = this.entries.peek(key);
    return entry !== undefined && this.now() - entry.storedAt <= acceptAgeMs ? peekedOf(entry) : undefined;
  }

  async get<T>(
    key: string,
    ttlMs: TtlOf<T>,
    load: () => Promise<{ value: T; size: number }>,
    events: CacheEvents = {},
    acceptAgeMs?: number,
  ): Promise<CacheResult<T>> {
    const entry = this.entries.get(key);
    if (entry !== undefined && this.answersNow(key, entry, acceptAgeMs)) {
      events.onHit?.(key);
      if (entry.kind === 'error') throw entry.error;
      return { value: entry.value as T, source: 'cache', ageSeconds: this.ageSecondsOf(entry) };
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
    // A stale copy may arrive from another replica during the refresh: look again when it is needed.
    const laterFallback = (): StoredValue | undefined => fallback ?? this.fallbackNow(key);
    try {
      const outcome = await settledOrSlow(flight);
      if (outcome.slow) {
        const stale = laterFallback();
        if (stale === undefined) return this.answerLoaded<T>(await flight.loaded, started);
        const answer = this.answerStale<T>(key, stale, UPSTREAM_SLOW, events);
        return started && flight.sending() ? { ...answer, startedRefresh: true } : answer;
      }
      return this.answerLoaded<T>(outcome.loaded, started);
    } catch (error) {
      if (!(error instanceof GatewayError) || !staleEligible.has(error.code)) throw error;
      const stale = laterFallback();
      if (stale === undefined) throw error;
      return this.answerStale(key, stale, error.code, events);
    }
  }

  private answerLoaded<T>(loaded: Loaded, started: boolean): CacheResult<T> {
    // A value another replica loaded is a cache hit for this one: it sent nothing.
    return { value: loaded.value as T, source: !started ? 'shared' : loaded.sent ? 'upstream' : 'cache' };
  }

  private fallbackNow(key: string): StoredValue | undefined {
    const entry = this.entries.peek(key);
    return entry === undefined ? undefined : this.fallbackOf(entry);
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
    return { value: fallback.value as T, source: 'stale', stale, ageSeconds: stale.ageSeconds };
  }

  private startRefresh<T>(key: string, ttlMs: TtlOf<T>, load: () => Promise<{ value: T; size: number }>): Flight {
    let sending = false;
    const loaded = this.refresh(key, ttlMs, load, () => {
      sending = true;
    });
    const flight: Flight = { loaded, slowAt: performance.now() + this.staleIfSlowMs, sending: () => sending };
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

  /** The refresh: one request for every replica of a cluster, the entry kept here and in the tier. */
  private async refresh<T>(
    key: string,
    ttlMs: TtlOf<T>,
    load: () => Promise<{ value: T; size: number }>,
    onSend: () => void,
  ): Promise<Loaded> {
    const shared = this.shared;
    const loadEntry = async (): Promise<SharedEntry> => {
      onSend();
      try {
        const { value, size } = await load();
        const storedAt = this.now();
        const ttl = typeof ttlMs === 'number' ? ttlMs : ttlMs.of(value, storedAt);
        return { kind: 'value', value, storedAt, ttlMs: ttl, size: Math.max(1, size) };
      } catch (error) {
        if (error instanceof GatewayError && error.code === Code.NOT_FOUND) {
          // A 404 shows no state to read: the plain TTL.
          const ttl = typeof ttlMs === 'number' ? ttlMs : ttlMs.ms;
          return { kind: 'error', error: sharedErrorOf(error), storedAt: this.now(), ttlMs: ttl };
        }
        throw error;
      }
    };
    const { entry, sent } = await loadOnceInCluster({
      tier: shared.tier,
      key,
      now: this.now,
      // Another replica's copy fetched before its match changed state is not fresh here either.
      notBefore: this.freshness?.notBefore?.(key) ?? 0,
      pollMs: shared.pollMs,
      maxWaitMs: shared.maxWaitMs,
      load: loadEntry,
      onStale: (stale) => this.keepStale(key, stale),
    });
    const stored = storedOf(entry);
    this.entries.set(key, stored);
    // Durable before it is answered only when a restart could answer a repeat with it, fresh: one
    // with no freshness (TTL 0) is paid for again after a restart anyway, and reaches the file with
    // the store's next batch (disk-entries.ts, within a quarter of a second) as a stale fallback.
    if (sent && stored.ttlMs > 0) await this.entries.durable();
    if (stored.kind === 'error') throw stored.error;
    return { value: stored.value, sent };
  }

  /** Keeps another replica's stale copy here when it is the better fallback (none here, or an older one). */
  private keepStale(key: string, entry: SharedEntry): void {
    if (entry.kind !== 'value') return;
    const here = this.entries.peek(key);
    if (here !== undefined && here.kind === 'value' && here.storedAt >= entry.storedAt) return;
    const stored = storedOf(entry);
    if (this.fallbackOf(stored) !== undefined) this.entries.set(key, stored);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Writes what a durable store has pending and closes it. */
  close(): Promise<void> {
    return this.entries.close();
  }

  /**
   * Drops this replica's entries whose key `matches` (a shared tier keeps
   * its own): for a caller that knows one resource changed and must not
   * throw away every other one with it. Returns how many were dropped.
   */
  evict(matches: (key: string) => boolean): number {
    return this.entries.deleteWhere(matches);
  }
}

/** A fresh entry as `peek` gives it: the value, or the 404 a negative entry holds. */
export type Peeked =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'error'; readonly error: GatewayError };

function peekedOf(entry: Stored): Peeked {
  return entry.kind === 'value' ? { kind: 'value', value: entry.value } : { kind: 'error', error: entry.error };
}

/** What a negative entry is taken to weigh in the byte bound. */
const NEGATIVE_ENTRY_SIZE = 256;

/** A tier entry in the LRU's form (a negative entry's error rebuilt as a GatewayError). */
function storedOf(entry: SharedEntry): Stored {
  return entry.kind === 'value'
    ? { kind: 'value', value: entry.value, storedAt: entry.storedAt, ttlMs: entry.ttlMs, size: entry.size }
    : {
        kind: 'error',
        error: gatewayErrorOf(entry.error),
        storedAt: entry.storedAt,
        ttlMs: entry.ttlMs,
        size: NEGATIVE_ENTRY_SIZE,
      };
}

type Settled = { slow: false; loaded: Loaded } | { slow: true };

/** The flight's value, or `slow` once its `slowAt` has passed (at once when it already has). */
function settledOrSlow(flight: Flight): Promise<Settled> {
  // No bound configured: a timer of Infinity ms would fire after 1 ms instead.
  if (!Number.isFinite(flight.slowAt)) return flight.loaded.then((loaded): Settled => ({ slow: false, loaded }));
  // One promise settled by whichever comes first (not Promise.race over a mapped promise, then finally):
  // this runs once per caller of every refresh, and each of those layers was a promise and a job.
  return new Promise<Settled>((resolve, reject) => {
    const timer = setTimeout(() => resolve({ slow: true }), Math.max(0, flight.slowAt - performance.now()));
    flight.loaded.then(
      (loaded) => {
        clearTimeout(timer);
        resolve({ slow: false, loaded });
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
