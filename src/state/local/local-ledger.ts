/**
 * The daily allowance ledger.
 *
 * Every counted request takes a reservation *before* it is sent; a request
 * that would pass the allowance is refused without reaching the upstream.
 * Reservations are held while requests are in flight, so concurrent
 * operations cannot overshoot together. When the upstream reports its own
 * rate-limit headers, they are the truth and replace our count.
 *
 * Crash safety (issue 12): what reaches the disk is `used + in flight`, and
 * a reservation's request leaves only once a write holding it has finished
 * (`Reservation.durable`, a group commit of the state document): after a
 * `kill -9` at any moment, the ledger read back is never behind the counted
 * requests the upstream received. Requests that were in flight at the crash
 * count as spent (at most the in-flight count too many). A request that
 * commits or is released changes nothing that must be durable at once, so
 * those changes reach the disk within the persist window.
 *
 * The state lives in the `allowance` section of `DATA_DIR/quota.json`
 * (src/state/state-document.ts), validated when it is read: a value the
 * ledger cannot trust stops start-up with a message naming the file.
 */
import {
  nextResetAt,
  planAllowances,
  resetAfterSeconds,
  upstreamAssumptions,
  wholeSecond,
  type Plan,
} from '../../upstream/assumptions.js';
import { ErrorCode, GatewayError } from '../../upstream/errors.js';
import { StateDocument } from '../state-document.js';
import {
  MAX_ALLOWANCE,
  type HeaderSource,
  type Ledger,
  type QuotaSnapshot,
  type Reservation,
} from '../../spend/ledger.js';

/** The `allowance` section of the state document. */
export interface PersistedAllowance {
  limit: number;
  /** Spent, plus every reservation that was in flight when written. */
  used: number;
  resetsAt: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const ALLOWANCE_SECTION = 'allowance';

export const LEDGER_REMEDY =
  "The gateway will not guess how much of today's allowance is spent. Correct the file, or move it (and quota.json.wal beside it) away to start from 0 for today " +
  "(the upstream's rate-limit headers correct the count on its next answer; client budgets then restart in full).";

export interface LocalLedgerOptions {
  plan: Plan;
  /** The document holding the `allowance` section (src/state/local/local-state.ts opens it). */
  state: StateDocument;
  /** @default Date.now */
  now?: () => number;
}

type Listener = (snapshot: QuotaSnapshot) => void;

/** The single-node ledger (src/spend/ledger.ts has the contract). */
export class LocalLedger implements Ledger {
  readonly plan: Plan;
  private limit: number;
  private used = 0;
  private inFlight = 0;
  /** Answers committed so far: tells whether another answer came back while one request was out. */
  private commits = 0;
  private resetsAt: number;
  private readonly state: StateDocument;
  private readonly now: () => number;
  private readonly listeners = new Set<Listener>();

  /**
   * Builds the ledger on `state`, restoring what was spent before a restart.
   * @throws StateFileError when the saved allowance is not one the ledger can trust.
   */
  constructor(options: LocalLedgerOptions) {
    this.plan = options.plan;
    this.limit = planAllowances[options.plan];
    this.state = options.state;
    this.now = options.now ?? Date.now;
    this.resetsAt = nextResetAt(this.now());
    const saved = parseAllowance(this.state, this.now());
    if (saved !== undefined) {
      this.limit = saved.limit;
      this.used = saved.used;
      this.resetsAt = saved.resetsAt;
    }
    this.state.register(ALLOWANCE_SECTION, () => this.persisted());
    this.rollOver();
  }

  /** A ledger on its own state document (`file`): for tools and tests that need no client budgets. */
  static async open(
    options: Omit<LocalLedgerOptions, 'state'> & {
      file: string;
      persistDelayMs?: number;
      onPersistError?: (error: unknown) => void;
    },
  ): Promise<LocalLedger> {
    const state = await StateDocument.open({
      file: options.file,
      remedy: LEDGER_REMEDY,
      legacy: legacyAllowance,
      ...(options.persistDelayMs === undefined ? {} : { persistDelayMs: options.persistDelayMs }),
      ...(options.onPersistError === undefined ? {} : { onPersistError: options.onPersistError }),
    });
    return new LocalLedger({ plan: options.plan, state, ...(options.now === undefined ? {} : { now: options.now }) });
  }

  snapshot(): QuotaSnapshot {
    this.rollOver();
    return this.snapshotWithoutRollOver();
  }

  /** Units neither spent nor held by requests in flight. */
  available(): number {
    this.rollOver();
    return Math.max(0, this.limit - this.used - this.inFlight);
  }

  /**
   * Holds one unit for a request about to be sent; send it once `durable` resolves.
   * @throws GatewayError QUOTA_EXHAUSTED when no unit is left; nothing is sent then.
   */
  reserve(context: { version: string; route: string }): Reservation {
    if (this.available() < 1) {
      throw new GatewayError(ErrorCode.QuotaExhausted, 'The daily upstream allowance is spent.', {
        version: context.version,
        route: context.route,
        resetsAt: new Date(this.resetsAt).toISOString(),
      });
    }
    this.inFlight += 1;
    const commitsAtSend = this.commits;
    const durable = this.state.durable();
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      this.inFlight -= 1;
      return true;
    };
    return {
      durable,
      commit: (headers) => {
        if (!settle()) return;
        const alone = this.inFlight === 0 && this.commits === commitsAtSend;
        this.commits += 1;
        if (!(headers !== undefined && this.readHeaders(headers, alone))) this.used += 1;
        this.changed();
      },
      release: () => {
        if (settle()) this.changed();
      },
    };
  }

  /** The upstream answered 429: nothing is left until `Retry-After` (or the daily reset). */
  markExhausted(retryAfterSeconds: number | undefined): void {
    this.used = Math.max(this.used, this.limit);
    if (retryAfterSeconds !== undefined)
      this.resetsAt = this.boundedReset(resetAfterSeconds(this.now(), retryAfterSeconds));
    this.changed();
  }

  /**
   * Reads the rate-limit headers; true when they carried the upstream's count.
   * `alone`: no other request was out while this one was, so its count is the newest there is.
   */
  private readHeaders(header: HeaderSource, alone: boolean): boolean {
    const names = upstreamAssumptions.rateLimitHeaders;
    const remaining = integerHeader(header(names.remaining), 0);
    if (remaining === undefined) return false;
    const limit = integerHeader(header(names.limit), 1);
    if (limit !== undefined) this.limit = limit;
    const upstreamUsed = Math.max(0, this.limit - Math.min(remaining, this.limit));
    // Answers to concurrent requests arrive in any order: an older, lower
    // count must not undo spending the upstream has already seen. The last
    // answer of a burst can be the oldest count (nothing is in flight when it
    // lands), so only a request that had the upstream to itself from send to
    // answer may lower the count: then it is the upstream's own correction (a
    // refund, an earlier reset) and is believed.
    this.used = alone ? upstreamUsed : Math.max(this.used, upstreamUsed);
    const reset = integerHeader(header(names.reset), 1);
    if (reset !== undefined) this.resetsAt = this.boundedReset(resetAfterSeconds(this.now(), reset));
    return true;
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The document the ledger writes to (its write count shows group commit at work). */
  get stateDocument(): StateDocument {
    return this.state;
  }

  /** Waits for the last state to reach the disk. */
  flush(): Promise<void> {
    return this.state.flush();
  }

  /** A daily allowance resets within a day: a later time (a clock that jumped, a wild header) is not believed. */
  private boundedReset(at: number): number {
    return wholeSecond(Math.min(at, this.now() + DAY_MS));
  }

  private rollOver(): void {
    const now = this.now();
    // The clock went back (or was wrong when the reset was computed): a
    // reset more than a day ahead would lock the gateway out for longer than
    // any daily allowance does.
    if (this.resetsAt > now + DAY_MS) {
      this.resetsAt = nextResetAt(now);
      this.changed();
    }
    if (now < this.resetsAt) return;
    this.used = 0;
    this.limit = planAllowances[this.plan];
    this.resetsAt = nextResetAt(now);
    this.changed();
  }

  private changed(): void {
    this.state.soon();
    const snapshot = this.snapshotWithoutRollOver();
    for (const listener of this.listeners) listener(snapshot);
  }

  private persisted(): PersistedAllowance {
    return { limit: this.limit, used: Math.min(this.used + this.inFlight, MAX_ALLOWANCE), resetsAt: this.resetsAt };
  }

  private snapshotWithoutRollOver(): QuotaSnapshot {
    const used = Math.min(this.used, this.limit);
    return {
      plan: this.plan,
      limit: this.limit,
      used,
      remaining: Math.max(0, this.limit - used),
      resetsAt: this.resetsAt,
    };
  }
}

/** A header holding a whole number within GraphQL's Int, at least `min`; undefined otherwise. */
function integerHeader(value: string | undefined, min: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= min && parsed <= MAX_ALLOWANCE ? parsed : undefined;
}

const isWhole = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/**
 * The saved allowance, validated. Types and ranges that cannot be trusted
 * stop start-up; a count past the limit is read as "all spent" and a reset
 * further away than the next daily one (a clock that was wrong) as the next
 * daily one: neither is more generous than what was written.
 */
export function parseAllowance(state: StateDocument, now: number): PersistedAllowance | undefined {
  const raw = state.loaded(ALLOWANCE_SECTION);
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null) throw state.invalid('"allowance" is not an object');
  const { limit, used, resetsAt } = raw as Record<string, unknown>;
  if (!isWhole(limit, 1, MAX_ALLOWANCE))
    throw state.invalid(
      `"allowance.limit" must be a whole number from 1 to ${MAX_ALLOWANCE}, got ${JSON.stringify(limit)}`,
    );
  if (typeof used !== 'number' || !Number.isInteger(used) || used < 0) {
    throw state.invalid(`"allowance.used" must be a whole number of at least 0, got ${JSON.stringify(used)}`);
  }
  if (!isWhole(resetsAt, 0, Number.MAX_SAFE_INTEGER))
    throw state.invalid(`"allowance.resetsAt" must be epoch milliseconds, got ${JSON.stringify(resetsAt)}`);
  return { limit, used: Math.min(used, limit), resetsAt: Math.min(resetsAt, nextResetAt(now)) };
}

/** Version 1 of quota.json held the allowance's fields at the top level. */
export function legacyAllowance(raw: Record<string, unknown>): Record<string, unknown> | undefined {
  return 'used' in raw || 'limit' in raw || 'resetsAt' in raw ? { [ALLOWANCE_SECTION]: raw } : undefined;
}
