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
 * Who pays: src/spend/poll-payers.ts, per watch (the match detail and each
 * poll are charged to the plan and to the longest-standing subscriber of
 * the match whose client can pay; a poll nobody can pay for is not made and
 * is pushed as a status whose error is QUOTA_EXHAUSTED).
 *
 * Each watch polls through a loop (poll-loop.ts): alone, while it has
 * listeners; in a cluster once for all replicas (cluster-loop.ts, lease `lineups:{matchId}`): the holder reads the match
 * and polls, and every status it pushes goes to the other replicas'
 * subscribers too. A replica that takes a watch over continues the
 * schedule it finds on the board (the next poll at the last status's
 * `nextCheckAt`) instead of starting again, so a handover reads nothing
 * twice. A status relayed from another replica carries its error as a
 * GraphQL error with the same code and extensions.
 */
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import type { SpendGate, SpendRefusal } from '../spend/spend-gate.js';
import { resourceEstimate, type AnyRoute, type Estimate } from '../spend/resource-estimate.js';
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import { isGatewayError } from '../upstream/errors.js';
import { v2BaseballRoutes, type BaseballLineupsPayload } from '../upstream/routes/v2-baseball.js';
import { v2EventRoutes } from '../upstream/routes/v2-events.js';
import { assertLineupsCarried, fetchBaseballEvent } from '../model/baseball-lineups.js';
import { loopsAlone, type PollLoop, type PollLoops } from './poll-loop.js';
import { PollPayers, PollRefusedError, subscriptionRefusal } from '../spend/poll-payers.js';

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
  /** When this replica polls a match (poll-loop.ts): one watch per match for all replicas in a cluster. @default loopsAlone */
  loops?: PollLoops;
}

/** A watch lasts at most the lead time plus a game: the board keeps its status that long. */
const BOARD_TTL_MS = 12 * 3_600_000;

/** An error that travelled from the replica that polls: the same message, code and extensions. */
class RelayedError extends GraphQLError {
  constructor(
    message: string,
    readonly code: string,
    extensions: Record<string, unknown>,
  ) {
    super(message, { extensions });
  }
}

interface RelayedStatus {
  readonly status: LineupStatus;
  readonly final: boolean;
  readonly fatal?: CodedError | undefined;
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
  /** Whether this replica is the one to poll the match. */
  readonly loop: PollLoop;
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
  readonly #loops: PollLoops;

  constructor(fetcher: UpstreamFetcher, spend: SpendGate, logger: Logger, options: LineupPollerOptions = {}) {
    const {
      intervalMs = 300_000,
      leadMs = 10_800_000,
      requestTimeoutMs = 10_000,
      now = Date.now,
      loops = loopsAlone,
    } = options;
    this.#loops = loops;
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
      // The loop's handlers run only once it is joined, after the watch holding it is made.
      let own!: MatchWatch;
      const loop = this.#loops(`lineups:${matchId}`, BOARD_TTL_MS, {
        start: () => void this.#start(matchId, own),
        run: () => void this.#run(matchId, own),
        halt: () => clearTimeout(own.timer),
        receive: (value) => this.#receive(matchId, own, value),
      });
      own = {
        listeners: new Set(),
        payers: new PollPayers(this.#spend),
        last: { matchId, confirmed: false, polls: 0, checkedAt: null, nextCheckAt: null, lineups: null, error: null },
        timer: undefined,
        stopped: false,
        loop,
      };
      watch = own;
      this.#watches.set(matchId, watch);
      watch.listeners.add(listener);
      leave = watch.payers.add(client);
      loop.join();
      void loop.latest().then((value) => value !== undefined && !loop.running && this.#receive(matchId, own, value));
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

  /** Whether this replica polls the match: always alone; in a cluster, while it holds the watch. */
  #polls(watch: MatchWatch): boolean {
    return !watch.stopped && watch.loop.running;
  }

  /** This replica has just been given the cluster's watch: it goes on from the last status anybody pushed. */
  async #run(matchId: number, watch: MatchWatch): Promise<void> {
    const relayed = parseRelayed(await watch.loop.latest());
    if (!this.#polls(watch)) return;
    if (
      relayed !== undefined &&
      relayed.status.matchId === matchId &&
      !relayed.final &&
      relayed.status.nextCheckAt !== null
    ) {
      watch.last = relayed.status;
      clearTimeout(watch.timer);
      watch.timer = setTimeout(
        () => void this.#poll(matchId, watch),
        Math.max(0, relayed.status.nextCheckAt - this.#now()),
      );
      watch.timer.unref();
      return;
    }
    await this.#start(matchId, watch);
  }

  /** A status from the replica that polls, for this replica's subscribers. */
  #receive(matchId: number, watch: MatchWatch, value: string): void {
    const relayed = parseRelayed(value);
    if (relayed === undefined || relayed.status.matchId !== matchId || watch.stopped) return;
    watch.last = relayed.status;
    if (relayed.fatal !== undefined || relayed.final) {
      for (const listener of [...watch.listeners]) listener(watch.last, true, relayed.fatal);
      this.#stop(matchId, watch);
      return;
    }
    for (const listener of [...watch.listeners]) listener(watch.last, false);
  }

  async #start(matchId: number, watch: MatchWatch): Promise<void> {
    try {
      const estimate = this.#estimate(v2EventRoutes.event as unknown as AnyRoute, { sport: 'baseball', id: matchId });
      const read = await watch.payers.run(estimate, (meter) =>
        fetchBaseballEvent(this.#fetcher, matchId, this.#now() + this.#requestTimeoutMs, meter),
      );
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
    if (!this.#polls(watch)) return;
    watch.last = { ...watch.last, nextCheckAt: this.#now() + delayMs };
    if (watch.last.polls === 0) this.#emit(watch, false);
    watch.timer = setTimeout(() => void this.#poll(matchId, watch), delayMs);
    watch.timer.unref();
  }

  async #poll(matchId: number, watch: MatchWatch): Promise<void> {
    if (!this.#polls(watch)) return;
    let payload: BaseballLineupsPayload | null = watch.last.lineups;
    let error: CodedError | null = null;
    try {
      const estimate = this.#estimate(v2BaseballRoutes.lineups as unknown as AnyRoute, { matchId });
      const result = await watch.payers.run(estimate, (meter) =>
        this.#fetcher.fetch(
          v2BaseballRoutes.lineups,
          { matchId },
          { deadline: this.#now() + this.#requestTimeoutMs, meter },
        ),
      );
      if (result.ran) payload = result.value.value;
      else if (result.refusal !== undefined) error = new PollRefusedError(result.refusal);
      else return;
    } catch (failure) {
      if (!isGatewayError(failure)) throw failure;
      error = failure;
      this.#logger.warn({ matchId, code: failure.code }, 'lineup poll failed');
    }
    // Another replica took the watch over meanwhile: it pushes its own statuses.
    if (!this.#polls(watch)) return;
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
    watch.loop.publish(encodeRelayed({ status: watch.last, final }));
    for (const listener of [...watch.listeners]) listener(watch.last, final);
  }

  #finish(matchId: number, watch: MatchWatch, fatal: CodedError | undefined): void {
    // Not on the board: a refusal is about these subscribers' clients, not about the match.
    watch.loop.publish(encodeRelayed({ status: watch.last, final: true, fatal }), { board: fatal === undefined });
    for (const listener of [...watch.listeners]) listener(watch.last, true, fatal);
    this.#stop(matchId, watch);
  }

  #stop(matchId: number, watch: MatchWatch): void {
    watch.stopped = true;
    clearTimeout(watch.timer);
    watch.loop.leave();
    if (this.#watches.get(matchId) === watch) this.#watches.delete(matchId);
  }

  /** Stops every watch (gateway shutdown). */
  close(): void {
    for (const [matchId, watch] of this.#watches) this.#stop(matchId, watch);
  }
}

interface ErrorJson {
  readonly message: string;
  readonly code: string;
  readonly extensions: Record<string, unknown>;
}

function errorJson(error: CodedError): ErrorJson {
  return { message: error.message, code: error.code, extensions: { ...error.extensions } };
}

function encodeRelayed({ status, final, fatal }: RelayedStatus): string {
  return JSON.stringify({
    status: { ...status, error: status.error === null ? null : errorJson(status.error) },
    final,
    fatal: fatal === undefined ? null : errorJson(fatal),
  });
}

function parseRelayed(value: string | undefined): RelayedStatus | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as {
      status?: Omit<LineupStatus, 'error'> & { error: ErrorJson | null };
      final?: unknown;
      fatal?: ErrorJson | null;
    };
    const status = parsed.status;
    if (status === undefined || typeof status.matchId !== 'number' || typeof status.polls !== 'number')
      return undefined;
    const fatal = parsed.fatal === null || parsed.fatal === undefined ? undefined : relayedError(parsed.fatal);
    return {
      status: { ...status, error: status.error === null ? null : relayedError(status.error) },
      final: parsed.final === true,
      fatal,
    };
  } catch {
    return undefined;
  }
}

function relayedError({ message, code, extensions }: ErrorJson): CodedError {
  return new RelayedError(
    String(message),
    String(code),
    typeof extensions === 'object' && extensions !== null ? extensions : {},
  );
}
