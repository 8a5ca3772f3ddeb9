/**
 * Cluster-wide single flight: one upstream request for a resource, whichever
 * replicas ask for it at the same moment. It runs under each replica's own
 * in-flight map (cache.ts), so it is entered once per replica per resource.
 *
 * The protocol, over a SharedTier (shared-tier.ts):
 * 1. Watch the key's notices, then claim: one atomic step reads the shared
 *    entry and, when it is not fresh, takes the key's lock if it is free.
 * 2. `fresh`: another replica stored it; nothing is sent.
 *    `mine`: load here, store the entry (which gives the lock up), notify.
 *    `away`: the tier cannot be reached; load here, as a single gateway.
 *    `theirs`: wait for the holder's notice, at most `pollMs` at a time.
 * 3. A notice `failed` carries the holder's coded error: every waiter
 *    answers it as if it had sent the request itself (a stale copy, when the
 *    cache has one, answers instead), so a failing upstream still costs one
 *    request per cluster, not one per replica. Only the failure of the load
 *    waited for counts (the notice names its lock): one of an earlier load
 *    of the same key, arriving late, is only a reason to claim again.
 * 4. After a `stored` or `released` notice, or `pollMs` of quiet, claim
 *    again: the entry is there, or the lock is free (the holder died and its
 *    lock expired, or notices were lost) and this replica takes over, or the
 *    holder is still at work and the wait goes on.
 * 5. The whole wait is bounded by `maxWaitMs`: a holder still loading after
 *    that is not waited for; the waiter fails UPSTREAM_UNREACHABLE (stale
 *    may still answer) rather than send a second request for the same thing.
 *
 * The holder's lock is renewed by the tier while it loads, so a slow
 * upstream never lets a second replica in; a dead holder's lock expires
 * within the tier's lock time, which bounds a takeover (plus one `pollMs`).
 */
import { performance } from 'node:perf_hooks';
import { ErrorCode, GatewayError } from './errors.js';
import { gatewayErrorOf, sharedErrorOf, type SharedEntry, type SharedTier, type TierLock } from './shared-tier.js';

export interface ClusterFlightOptions {
  readonly tier: SharedTier;
  readonly key: string;
  readonly now: () => number;
  /** An entry the tier holds stored before this is not fresh (its match changed state since). @default 0 */
  readonly notBefore?: number;
  /**
   * Sends the request here. Resolves with the entry to keep (a 404 as a
   * negative entry); rejects with the failure otherwise.
   */
  readonly load: () => Promise<SharedEntry>;
  /** Told of an entry past its TTL that the tier holds, before any wait: the cache keeps it for a stale answer. */
  readonly onStale: (entry: SharedEntry) => void;
  /** Longest quiet wait before claiming again. */
  readonly pollMs: number;
  /** Longest wait for other replicas in all. */
  readonly maxWaitMs: number;
}

export interface ClusterLoaded {
  readonly entry: SharedEntry;
  /** True when this replica sent the request. */
  readonly sent: boolean;
}

export async function loadOnceInCluster(options: ClusterFlightOptions): Promise<ClusterLoaded> {
  const { tier, key } = options;
  // A tier nobody else loads through: every claim is this replica's and nothing waits or is told, so the
  // load is the whole flight (its claim, watch and store would be awaited for nothing, per upstream request).
  if (tier.alone === true) return { entry: await options.load(), sent: true };
  const giveUpAt = performance.now() + options.maxWaitMs;
  const watch = tier.watch(key);
  try {
    let claim = await tier.claim(key, options.now(), true, options.notBefore);
    for (;;) {
      switch (claim.kind) {
        case 'fresh':
          return { entry: claim.entry, sent: false };
        case 'away':
          return { entry: await loadHere(options, undefined), sent: true };
        case 'mine':
          if (claim.stale !== undefined) options.onStale(claim.stale);
          return { entry: await loadHere(options, claim.lock), sent: true };
        case 'theirs':
          if (claim.stale !== undefined) options.onStale(claim.stale);
          break;
      }
      const left = giveUpAt - performance.now();
      if (left <= 0) {
        throw new GatewayError(
          ErrorCode.UpstreamUnreachable,
          'Another replica was still loading this resource when the wait for it ended.',
        );
      }
      const landing = await watch.next(Math.min(options.pollMs, left));
      if (landing.kind === 'failed' && landing.holder === claim.holder) throw gatewayErrorOf(landing.error);
      claim = await tier.claim(key, options.now(), false, options.notBefore);
    }
  } finally {
    watch.close();
  }
}

async function loadHere(options: ClusterFlightOptions, lock: TierLock | undefined): Promise<SharedEntry> {
  let entry: SharedEntry;
  try {
    entry = await options.load();
  } catch (error) {
    // Only coded failures are passed on; anything else lets the next waiter try for itself.
    void options.tier.abandon(options.key, lock, error instanceof GatewayError ? sharedErrorOf(error) : undefined);
    throw error;
  }
  // Not awaited: the callers here have their answer; the waiters elsewhere hear of it when it is written.
  void options.tier.store(options.key, entry, lock);
  return entry;
}
