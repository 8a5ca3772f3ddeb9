/**
 * The seam under the response cache (cache.ts) for a cluster: a tier every
 * replica reads and writes, holding each upstream resource once for all of
 * them (fresh and stale copies, 404s), and the claims that make one replica
 * at a time load a resource for the whole cluster (cluster-flight.ts runs
 * the protocol over this interface).
 *
 * A gateway alone has `tierAlone`, the tier of nobody else: every claim is
 * its own, nothing is stored or heard, so the cache is exactly its own LRU.
 * The Redis implementation is src/state/redis/redis-response-tier.ts.
 *
 * Every method answers within the tier's command bound and never rejects:
 * a tier that cannot be reached is a state (`away`), and the cache then
 * works as a single gateway's would.
 */
import { GatewayError, type ErrorCode, type GatewayErrorDetails } from './errors.js';

/** A coded error as it travels between replicas (a GatewayError without its stack). */
export interface SharedError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details: GatewayErrorDetails;
}

/** One cached answer as the cluster holds it: a value, or a 404 (negative entry). */
export type SharedEntry =
  | {
      readonly kind: 'value';
      readonly value: unknown;
      readonly storedAt: number;
      readonly ttlMs: number;
      readonly size: number;
    }
  | { readonly kind: 'error'; readonly error: SharedError; readonly storedAt: number; readonly ttlMs: number };

/** An opaque token for a claim this replica holds; the tier renews it until `store` or `abandon`. */
export interface TierLock {
  readonly token: string;
}

/** What asking the tier for a resource found. */
export type Claim =
  /** Another replica stored it and it is still fresh: nothing to send. */
  | { readonly kind: 'fresh'; readonly entry: SharedEntry }
  /** Nobody was loading it: this replica now loads it for the cluster. */
  | { readonly kind: 'mine'; readonly lock: TierLock; readonly stale: SharedEntry | undefined }
  /** Another replica is loading it: wait for its notice. `holder` is its lock's token. */
  | { readonly kind: 'theirs'; readonly holder: string; readonly stale: SharedEntry | undefined }
  /** The tier cannot be reached: load as a single gateway would. */
  | { readonly kind: 'away' };

/** A notice about a resource another replica was loading. */
export type Landing =
  | { readonly kind: 'stored' }
  /** `holder`: the token of the lock whose load failed ('' for a load without one). */
  | { readonly kind: 'failed'; readonly holder: string; readonly error: SharedError }
  /** Given up without an answer (not a coded failure): whoever asks next loads it. */
  | { readonly kind: 'released' }
  /** No notice within the time asked for. */
  | { readonly kind: 'quiet' };

/** Notices about one key, kept from the moment the watch began so that none falls between a claim and the wait. */
export interface LandingWatch {
  /** The first notice not yet returned, or `quiet` after `ms`. */
  next(ms: number): Promise<Landing>;
  close(): void;
}

export interface SharedTier {
  /**
   * Reads the entry and, when it is not fresh at `now`, tries to take the
   * load of `key` for the cluster, in one atomic step.
   * @param withStale return an entry past its TTL too (for a stale answer).
   * @param notBefore an entry stored before this (epoch ms) is not fresh
   *   whatever its TTL said: its match changed state since it was fetched
   *   (match-freshness.ts `notBefore`), which the replica that stored it
   *   may not have known then.
   */
  claim(key: string, now: number, withStale: boolean, notBefore?: number): Promise<Claim>;
  watch(key: string): LandingWatch;
  /** Writes the entry, gives up the lock when given, and tells the waiters. */
  store(key: string, entry: SharedEntry, lock: TierLock | undefined): Promise<void>;
  /** Gives up the lock without an entry and tells the waiters why (`failed` with the error, else `released`). */
  abandon(key: string, lock: TierLock | undefined, error: SharedError | undefined): Promise<void>;
  /**
   * Reads the entry only: no claim, no lock, no recency or hit bookkeeping
   * (the cost estimate reads what is known without changing it). Undefined
   * when absent, unreadable or the tier is away. A tier without it is only
   * never peeked: the estimate then counts such resources as misses.
   */
  peek?(key: string): Promise<SharedEntry | undefined>;
  /**
   * True for a tier nobody else loads through (`tierAlone`): every claim is
   * this replica's, nothing is ever waited for, stored or told. The flight
   * (cluster-flight.ts) is then only the load, without the protocol whose
   * claim, store and watch would only be awaited for nothing: three promise
   * layers per upstream request on a gateway alone.
   */
  readonly alone?: true;
}

const CLAIMED_ALONE: Promise<Claim> = Promise.resolve({ kind: 'mine', lock: { token: '' }, stale: undefined });
const DONE: Promise<void> = Promise.resolve();
const NOBODY_ELSE: LandingWatch = { next: () => Promise.resolve({ kind: 'quiet' }), close: () => undefined };

/** The tier of a gateway alone: a pass-through that allocates nothing per refresh (its promises are made once). */
export const tierAlone: SharedTier = {
  alone: true,
  claim: () => CLAIMED_ALONE,
  watch: () => NOBODY_ELSE,
  store: () => DONE,
  abandon: () => DONE,
};

export function sharedErrorOf(error: GatewayError): SharedError {
  return { code: error.code, message: error.message, details: error.details };
}

export function gatewayErrorOf(error: SharedError): GatewayError {
  return new GatewayError(error.code, error.message, error.details);
}
