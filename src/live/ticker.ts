/**
 * The live ticker: World Cup V1 games in progress (`statusGroup` 3, spec 3),
 * from ONE shared poll of `/api/v1/world-cup/matches`, whatever the number
 * of subscribers. The poll runs only while someone listens, and goes through
 * the fetcher (shared cache, in-flight sharing, quota ledger) like any query.
 *
 * Its interval respects the allowance (spec 8). With `A` the daily allowance
 * (the ledger's limit), `p` the share of it the ticker may spend
 * (`LIVE_TICKER_ALLOWANCE_PERCENT`, default 10 %), `min` the floor
 * (`LIVE_TICKER_MIN_INTERVAL_MS`, default 15 s) and `ttl` the route's cache
 * TTL (class `worldCup`, default 30 s: polling faster would only read the
 * cache):
 *
 *     interval = max(min, ttl, 24 h / floor(A * p / 100))
 *
 * so a full day of polling spends at most p % of the allowance. Free (100):
 * 10 polls a day, one every 2.4 hours. Pro (7,500): one every 115.2 s.
 * Ultra and Mega: one every 30 s (the cache TTL).
 *
 * Who pays: src/spend/poll-payers.ts (each poll is charged to the plan and to
 * the longest-standing subscriber whose client can pay; a poll nobody can
 * pay for is not made, and the subscribers keep the last games, stale).
 *
 * The poll runs through a loop (poll-loop.ts): alone, while anyone listens;
 * in a cluster once for all replicas (cluster-loop.ts): the
 * replica holding the lease `ticker` polls, on the interval above, and the
 * others pass its snapshots to their own listeners. The next holder polls
 * when the last poll's interval is over, not at once, so a handover spends
 * nothing extra. Each poll is paid for by one of the holder's subscribers.
 */
import type { Logger } from 'pino';
import type { SpendGate, SpendRefusal } from '../spend/spend-gate.js';
import { resourceEstimate, type AnyRoute, type Estimate } from '../spend/resource-estimate.js';
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import type { Ledger } from '../spend/ledger.js';
import { V1StatusGroup, v1WorldCupRoutes, type V1WorldCupMatch } from '../upstream/routes/v1-world-cup.js';
import { loopsAlone, type PollLoop, type PollLoops } from './poll-loop.js';
import { PollPayers, subscriptionRefusal } from '../spend/poll-payers.js';

const DAY_MS = 24 * 3600 * 1000;
/** The board keeps the last snapshot longer than the longest interval (one a day), so that a new lease holder keeps the schedule. */
const BOARD_TTL_MS = DAY_MS + 3_600_000;

export interface TickerIntervalInputs {
  /** Daily allowance. */
  readonly allowance: number;
  readonly allowancePercent: number;
  readonly minIntervalMs: number;
  readonly cacheTtlMs: number;
}

/** The formula in the module comment. */
export function tickerIntervalMs({
  allowance,
  allowancePercent,
  minIntervalMs,
  cacheTtlMs,
}: TickerIntervalInputs): number {
  const pollsPerDay = Math.floor((allowance * allowancePercent) / 100);
  const budgetMs = pollsPerDay >= 1 ? Math.ceil(DAY_MS / pollsPerDay) : DAY_MS;
  return Math.max(minIntervalMs, cacheTtlMs, budgetMs);
}

/** Games in progress, as one poll saw them. */
export interface TickerSnapshot {
  readonly games: readonly V1WorldCupMatch[];
  /** When the poll answered, epoch ms. */
  readonly fetchedAt: number;
  readonly pollIntervalMs: number;
  /** The last poll failed: these games are from an earlier one. */
  readonly stale: boolean;
}

export interface LiveTickerOptions {
  readonly fetcher: UpstreamFetcher;
  readonly ledger: Ledger;
  /** Who pays for each poll (poll-payers.ts). */
  readonly spend: SpendGate;
  readonly logger: Logger;
  readonly allowancePercent: number;
  readonly minIntervalMs: number;
  readonly cacheTtlMs: number;
  /** Deadline of one poll. */
  readonly operationMs: number;
  /** When this replica polls (poll-loop.ts): one poll for all replicas in a cluster. @default loopsAlone */
  readonly loops?: PollLoops;
}

/** Games in progress in a matches payload (spec 3: `statusGroup` 3). */
export function inProgress(matches: readonly V1WorldCupMatch[]): V1WorldCupMatch[] {
  return matches.filter((match) => match.statusGroup === V1StatusGroup.InProgress);
}

export class LiveTicker {
  readonly #options: LiveTickerOptions;
  readonly #listeners = new Set<(snapshot: TickerSnapshot) => void>();
  #latest: TickerSnapshot | undefined;
  #latestKey = '';
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  readonly #payers: PollPayers;
  readonly #loop: PollLoop;

  constructor(options: LiveTickerOptions) {
    this.#options = options;
    this.#payers = new PollPayers(options.spend);
    this.#loop = (options.loops ?? loopsAlone)('ticker', BOARD_TTL_MS, {
      start: () => {
        if (this.#timer === undefined && !this.#polling) void this.#poll();
      },
      run: () => void this.#runOnSchedule(),
      halt: () => this.#halt(),
      receive: (value) => this.#receive(value),
    });
  }

  /** What the next poll may cost now: nothing while the cache holds the matches fresh. */
  pollEstimate(): Estimate {
    return resourceEstimate(this.#options.fetcher, {
      route: v1WorldCupRoutes.matches as unknown as AnyRoute,
      params: {},
    });
  }

  /** Why `client` may not subscribe (its budget cannot hold one poll), or undefined. */
  refusalFor(client: string | undefined): SpendRefusal | undefined {
    return subscriptionRefusal(this.#options.spend, client, this.pollEstimate());
  }

  /** The interval now, from the ledger's current limit. */
  intervalMs(): number {
    const { allowancePercent, minIntervalMs, cacheTtlMs } = this.#options;
    return tickerIntervalMs({
      allowance: this.#options.ledger.snapshot().limit,
      allowancePercent,
      minIntervalMs,
      cacheTtlMs,
    });
  }

  /**
   * Listens to the ticker: the latest snapshot at once if there is one, then
   * each poll whose games differ. The first listener starts the poll, the
   * last one leaving stops it.
   */
  subscribe(listener: (snapshot: TickerSnapshot) => void, client?: string): () => void {
    this.#listeners.add(listener);
    const leave = this.#payers.add(client);
    if (this.#latest !== undefined) listener(this.#latest);
    if (this.#listeners.size === 1) {
      this.#loop.join();
      // What the cluster's poll last found, at once (the lease holder's own listeners have it already).
      if (this.#latest === undefined)
        void this.#loop.latest().then((value) => value !== undefined && this.#receive(value));
    }
    return () => {
      leave();
      this.#listeners.delete(listener);
      if (this.#listeners.size > 0) return;
      this.#loop.leave();
    };
  }

  close(): void {
    this.#listeners.clear();
    this.#loop.leave();
    this.#halt();
  }

  #halt(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Whether this replica polls now: alone, while anyone listens; in a cluster, while it holds the loop. */
  #mayPoll(): boolean {
    return this.#loop.running;
  }

  /** This replica has just been given the cluster's poll: the next one is due one interval after the last one anybody made. */
  async #runOnSchedule(): Promise<void> {
    const value = await this.#loop.latest();
    if (value !== undefined) this.#receive(value);
    if (!this.#mayPoll() || this.#polling || this.#timer !== undefined) return;
    const last = this.#latest?.fetchedAt;
    const delayMs = last === undefined ? 0 : Math.max(0, last + this.intervalMs() - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#poll();
    }, delayMs);
    this.#timer.unref();
  }

  /** A snapshot from the replica that polls; an older one than this replica has is ignored. */
  #receive(value: string): void {
    const snapshot = parseSnapshot(value);
    if (snapshot === undefined || (this.#latest !== undefined && snapshot.fetchedAt < this.#latest.fetchedAt)) return;
    this.#publish(snapshot, false);
  }

  async #poll(): Promise<void> {
    this.#polling = true;
    const pollIntervalMs = this.intervalMs();
    try {
      const { fetcher, operationMs } = this.#options;
      const outcome = await this.#payers.run(this.pollEstimate(), (meter) =>
        fetcher.fetch(v1WorldCupRoutes.matches, {}, { deadline: Date.now() + operationMs, meter }),
      );
      if (outcome.ran) {
        const games = inProgress(outcome.value.value.matches);
        this.#publish({ games, fetchedAt: Date.now(), pollIntervalMs, stale: outcome.value.stale !== undefined });
      } else {
        this.#options.logger.warn(
          { code: outcome.refusal?.code, scope: outcome.refusal?.scope },
          'live ticker poll not made: no subscriber or plan can pay for it',
        );
        if (this.#latest !== undefined) this.#publish({ ...this.#latest, pollIntervalMs, stale: true });
      }
    } catch (error) {
      // Keep what we have; say it is stale. A failed poll never ends a subscription.
      this.#options.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'live ticker poll failed',
      );
      if (this.#latest !== undefined) this.#publish({ ...this.#latest, pollIntervalMs, stale: true });
    } finally {
      this.#polling = false;
    }
    if (this.#mayPoll() && this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.#poll();
      }, pollIntervalMs);
      this.#timer.unref();
    }
  }

  /** `relay`: a snapshot of this replica's own poll, which the other replicas get too (every poll: the board keeps the schedule). */
  #publish(snapshot: TickerSnapshot, relay = true): void {
    const key = JSON.stringify([snapshot.stale, snapshot.games]);
    const changed = key !== this.#latestKey || this.#latest === undefined;
    this.#latest = snapshot;
    this.#latestKey = key;
    if (relay) this.#loop.publish(JSON.stringify(snapshot));
    if (!changed) return;
    for (const listener of this.#listeners) listener(snapshot);
  }
}

function parseSnapshot(value: string): TickerSnapshot | undefined {
  try {
    const parsed = JSON.parse(value) as Partial<TickerSnapshot> | null;
    if (
      parsed === null ||
      !Array.isArray(parsed.games) ||
      typeof parsed.fetchedAt !== 'number' ||
      typeof parsed.pollIntervalMs !== 'number'
    )
      return undefined;
    return {
      games: parsed.games,
      fetchedAt: parsed.fetchedAt,
      pollIntervalMs: parsed.pollIntervalMs,
      stale: parsed.stale === true,
    };
  } catch {
    return undefined;
  }
}
