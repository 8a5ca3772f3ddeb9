/**
 * Baseball lineup confirmation (spec 3, 4.9): the upstream has no push for
 * lineups, and no fixed publication delay. The recommended schedule is a poll
 * every 5 minutes from about 3 hours before the first pitch, stopping once
 * `confirmed` is true.
 *
 * One `MatchWatch` per match, whatever the number of subscribers: the first
 * subscriber starts it, later ones join it (and get the last status at once),
 * the last one to leave stops it. So 50 subscribers cost one poll per
 * interval, not 50. Timing, step by step:
 *   1. the match detail is read once (first pitch, league);
 *   2. a league without lineups ends the watch with the known-gap error, no poll;
 *   3. the first poll runs at max(now, firstPitch - leadMs), the next ones
 *      every `intervalMs` after the previous answer (never overlapping);
 *   4. a confirmed answer is pushed to everyone and the watch ends.
 * A failed poll (upstream down, quota) is pushed as a status with `error`
 * and the schedule goes on: a lineup is worth waiting for.
 */
import type { Logger } from 'pino';
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import { isGatewayError, type GatewayError } from '../upstream/errors.js';
import { v2BaseballRoutes, type BaseballLineupsPayload } from '../upstream/routes/v2-baseball.js';
import { assertLineupsCarried, fetchBaseballEvent } from '../model/baseball-lineups.js';

export interface LineupPollerOptions {
  /**
   * Time between two polls of one match.
   * @default 300_000 (5 minutes, spec 4.9)
   */
  intervalMs?: number;
  /**
   * Polling starts this long before the first pitch.
   * @default 10_800_000 (3 hours, spec 4.9)
   */
  leadMs?: number;
  /**
   * Longest wait for one upstream answer.
   * @default 10_000
   */
  requestTimeoutMs?: number;
  /** @default Date.now */
  now?: () => number;
}

export interface LineupStatus {
  matchId: number;
  confirmed: boolean;
  /** Polls made so far for this match (shared by every subscriber). */
  polls: number;
  checkedAt: number | null;
  nextCheckAt: number | null;
  /** The last lineups answer, unconfirmed (probable pitcher only) or confirmed. */
  lineups: BaseballLineupsPayload | null;
  /** The last poll's failure, if it failed. */
  error: GatewayError | null;
}

export type LineupListener = (status: LineupStatus, final: boolean, fatal?: GatewayError) => void;

interface MatchWatch {
  listeners: Set<LineupListener>;
  last: LineupStatus;
  timer: NodeJS.Timeout | undefined;
  stopped: boolean;
}

export class LineupPoller {
  readonly #fetcher: UpstreamFetcher;
  readonly #logger: Logger;
  readonly #intervalMs: number;
  readonly #leadMs: number;
  readonly #requestTimeoutMs: number;
  readonly #now: () => number;
  readonly #watches = new Map<number, MatchWatch>();

  constructor(fetcher: UpstreamFetcher, logger: Logger, options: LineupPollerOptions = {}) {
    const { intervalMs = 300_000, leadMs = 10_800_000, requestTimeoutMs = 10_000, now = Date.now } = options;
    this.#fetcher = fetcher;
    this.#logger = logger;
    this.#intervalMs = intervalMs;
    this.#leadMs = leadMs;
    this.#requestTimeoutMs = requestTimeoutMs;
    this.#now = now;
  }

  /** Matches being watched now (for tests and metrics). */
  get watching(): number {
    return this.#watches.size;
  }

  /** Adds a listener for a match; returns the function that removes it. */
  subscribe(matchId: number, listener: LineupListener): () => void {
    let watch = this.#watches.get(matchId);
    if (watch === undefined) {
      watch = {
        listeners: new Set(),
        last: { matchId, confirmed: false, polls: 0, checkedAt: null, nextCheckAt: null, lineups: null, error: null },
        timer: undefined,
        stopped: false,
      };
      this.#watches.set(matchId, watch);
      watch.listeners.add(listener);
      void this.#start(matchId, watch);
    } else {
      watch.listeners.add(listener);
      if (watch.last.nextCheckAt !== null || watch.last.checkedAt !== null) listener(watch.last, false);
    }
    const current = watch;
    return () => {
      current.listeners.delete(listener);
      if (current.listeners.size === 0) this.#stop(matchId, current);
    };
  }

  async #start(matchId: number, watch: MatchWatch): Promise<void> {
    try {
      const event = await fetchBaseballEvent(this.#fetcher, matchId, this.#now() + this.#requestTimeoutMs);
      assertLineupsCarried(event);
      if (event.status.type !== 'notstarted' && event.status.type !== 'inprogress') {
        // Finished or cancelled: one look settles it.
        this.#schedule(matchId, watch, 0);
        return;
      }
      const pollFrom = event.startTimestamp * 1000 - this.#leadMs;
      this.#schedule(matchId, watch, Math.max(0, pollFrom - this.#now()));
    } catch (error) {
      this.#finish(matchId, watch, isGatewayError(error) ? error : undefined);
    }
  }

  #schedule(matchId: number, watch: MatchWatch, delayMs: number): void {
    if (watch.stopped) return;
    watch.last = { ...watch.last, nextCheckAt: this.#now() + delayMs };
    if (watch.last.polls === 0) this.#emit(watch, false);
    watch.timer = setTimeout(() => void this.#poll(matchId, watch), delayMs);
    watch.timer.unref();
  }

  async #poll(matchId: number, watch: MatchWatch): Promise<void> {
    if (watch.stopped) return;
    let payload: BaseballLineupsPayload | null = watch.last.lineups;
    let error: GatewayError | null = null;
    try {
      const result = await this.#fetcher.fetch(v2BaseballRoutes.lineups, { matchId }, { deadline: this.#now() + this.#requestTimeoutMs });
      payload = result.value;
    } catch (failure) {
      if (!isGatewayError(failure)) throw failure;
      error = failure;
      this.#logger.warn({ matchId, code: failure.code }, 'lineup poll failed');
    }
    if (watch.stopped) return;
    const confirmed = payload?.data.confirmed === true;
    watch.last = {
      matchId,
      confirmed,
      polls: watch.last.polls + 1,
      checkedAt: this.#now(),
      nextCheckAt: confirmed ? null : this.#now() + this.#intervalMs,
      lineups: payload,
      error,
    };
    if (confirmed) {
      this.#emit(watch, true);
      this.#stop(matchId, watch);
      return;
    }
    this.#emit(watch, false);
    watch.timer = setTimeout(() => void this.#poll(matchId, watch), this.#intervalMs);
    watch.timer.unref();
  }

  #emit(watch: MatchWatch, final: boolean): void {
    for (const listener of [...watch.listeners]) listener(watch.last, final);
  }

  #finish(matchId: number, watch: MatchWatch, fatal: GatewayError | undefined): void {
    for (const listener of [...watch.listeners]) listener(watch.last, true, fatal);
    this.#stop(matchId, watch);
  }

  #stop(matchId: number, watch: MatchWatch): void {
    watch.stopped = true;
    clearTimeout(watch.timer);
    if (this.#watches.get(matchId) === watch) this.#watches.delete(matchId);
  }

  /** Stops every watch (gateway shutdown). */
  close(): void {
    for (const [matchId, watch] of this.#watches) this.#stop(matchId, watch);
  }
}
