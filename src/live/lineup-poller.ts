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
 *
 * Who pays: src/live/poll-payers.ts, per watch (the match detail and each
 * poll are charged to the plan and to the longest-standing subscriber of
 * the match whose client can pay; a poll nobody can pay for is not made and
 * is pushed as a status whose error is QUOTA_EXHAUSTED).
 */
import type { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import type { SpendGate, SpendRefusal } from '../access/spend-gate.js';
import { resourceEstimate, type AnyRoute, type Estimate } from '../cost/field-cost.js';
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import { isGatewayError } from '../upstream/errors.js';
import { v2BaseballRoutes, type BaseballLineupsPayload } from '../upstream/routes/v2-baseball.js';
import { v2EventRoutes } from '../upstream/routes/v2-events.js';
import { assertLineupsCarried, fetchBaseballEvent } from '../model/baseball-lineups.js';
import { PollPayers, PollRefusedError, subscriptionRefusal } from './poll-payers.js';

/** A failure with a stable code: an upstream error, or a poll nobody could pay for. */
export type CodedError = GraphQLError & { readonly code: string };

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
  error: CodedError | null;
}

export type LineupListener = (status: LineupStatus, final: boolean, fatal?: CodedError) => void;

interface MatchWatch {
  listeners: Set<LineupListener>;
  payers: PollPayers;
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

  readonly #spend: SpendGate;

  constructor(fetcher: UpstreamFetcher, spend: SpendGate, logger: Logger, options: LineupPollerOptions = {}) {
    const { intervalMs = 300_000, leadMs = 10_800_000, requestTimeoutMs = 10_000, now = Date.now } = options;
    this.#fetcher = fetcher;
    this.#spend = spend;
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

  /** What one poll of a match may cost now: its lineups, and the match detail when no watch has read it yet. */
  pollEstimate(matchId: number): Estimate {
    const lineups = this.#estimate(v2BaseballRoutes.lineups as unknown as AnyRoute, { matchId });
    if (this.#watches.has(matchId)) return lineups;
    const event = this.#estimate(v2EventRoutes.event as unknown as AnyRoute, { sport: 'baseball', id: matchId });
    return { requests: lineups.requests + event.requests, unanswerable: lineups.unanswerable + event.unanswerable };
  }

  /** Why `client` may not subscribe to a match (its budget cannot hold one poll), or undefined. */
  refusalFor(matchId: number, client: string | undefined): SpendRefusal | undefined {
    return subscriptionRefusal(this.#spend, client, this.pollEstimate(matchId));
  }

  #estimate(route: AnyRoute, params: unknown): Estimate {
    return resourceEstimate(this.#fetcher, { route, params });
  }

  /** Adds a listener for a match, on behalf of `client`; returns the function that removes it. */
  subscribe(matchId: number, listener: LineupListener, client?: string): () => void {
    let watch = this.#watches.get(matchId);
    let leave: () => void;
    if (watch === undefined) {
      watch = {
        listeners: new Set(),
        payers: new PollPayers(this.#spend),
        last: { matchId, confirmed: false, polls: 0, checkedAt: null, nextCheckAt: null, lineups: null, error: null },
        timer: undefined,
        stopped: false,
      };
      this.#watches.set(matchId, watch);
      watch.listeners.add(listener);
      leave = watch.payers.add(client);
      void this.#start(matchId, watch);
    } else {
      watch.listeners.add(listener);
      leave = watch.payers.add(client);
      if (watch.last.nextCheckAt !== null || watch.last.checkedAt !== null) listener(watch.last, false);
    }
    const current = watch;
    return () => {
      leave();
      current.listeners.delete(listener);
      if (current.listeners.size === 0) this.#stop(matchId, current);
    };
  }

  async #start(matchId: number, watch: MatchWatch): Promise<void> {
    try {
      const estimate = this.#estimate(v2EventRoutes.event as unknown as AnyRoute, { sport: 'baseball', id: matchId });
      const read = await watch.payers.run(estimate, (meter) => fetchBaseballEvent(this.#fetcher, matchId, this.#now() + this.#requestTimeoutMs, meter));
      if (!read.ran) {
        // Without the first pitch there is no schedule: the subscribers are told why.
        if (read.refusal !== undefined) this.#finish(matchId, watch, new PollRefusedError(read.refusal));
        else this.#stop(matchId, watch);
        return;
      }
      const event = read.value;
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
    let error: CodedError | null = null;
    try {
      const estimate = this.#estimate(v2BaseballRoutes.lineups as unknown as AnyRoute, { matchId });
      const result = await watch.payers.run(estimate, (meter) =>
        this.#fetcher.fetch(v2BaseballRoutes.lineups, { matchId }, { deadline: this.#now() + this.#requestTimeoutMs, meter }),
      );
      if (result.ran) payload = result.value.value;
      else if (result.refusal !== undefined) error = new PollRefusedError(result.refusal);
      else return;
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

  #finish(matchId: number, watch: MatchWatch, fatal: CodedError | undefined): void {
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
