/**
 * The daily allowance ledger.
 *
 * Every counted request takes a reservation *before* it is sent; a request
 * that would pass the allowance is refused without reaching the upstream.
 * Reservations are held while requests are in flight, so concurrent
 * operations cannot overshoot together. When the upstream reports its own
 * rate-limit headers, they are the truth and replace our count.
 *
 * The state is written to `DATA_DIR/quota.json` after every change (writes
 * are coalesced: at most one in flight, the latest state always wins), so a
 * restart does not forget what was spent.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { nextResetAt, planAllowances, upstreamAssumptions, type Plan } from './assumptions.js';
import { ErrorCode, GatewayError } from './errors.js';

export interface QuotaSnapshot {
  plan: Plan;
  limit: number;
  used: number;
  remaining: number;
  /** Epoch ms of the next reset. */
  resetsAt: number;
}

interface PersistedQuota {
  limit: number;
  used: number;
  resetsAt: number;
}

export interface Reservation {
  /** The request reached the upstream: count it (or take the upstream's own count). */
  commit(headers?: HeaderSource): void;
  /** The request never left (connection refused): give the unit back. */
  release(): void;
}

export type HeaderSource = (name: string) => string | undefined;

export interface QuotaLedgerOptions {
  plan: Plan;
  /** File the ledger persists to. */
  file: string;
  /** @default Date.now */
  now?: () => number;
  /** Told when the state could not be written; the ledger keeps counting in memory. */
  onPersistError?: (error: unknown) => void;
  /**
   * Changes within this window reach the disk in one write. Writing after
   * every counted request cost the bench's cold path about a fifth of the
   * gateway's CPU; a crash can now lose at most this window's count, which
   * the upstream's rate-limit headers correct on its next answer.
   * @default 100
   */
  persistDelayMs?: number;
}

type Listener = (snapshot: QuotaSnapshot) => void;

export class QuotaLedger {
  readonly plan: Plan;
  private limit: number;
  private used = 0;
  private inFlight = 0;
  private resetsAt: number;
  private readonly file: string;
  private readonly now: () => number;
  private readonly onPersistError: (error: unknown) => void;
  private readonly listeners = new Set<Listener>();
  private writing: Promise<void> | undefined;
  private dirty = false;
  private readonly persistDelayMs: number;
  private persistTimer: NodeJS.Timeout | undefined;

  private constructor(options: QuotaLedgerOptions) {
    this.plan = options.plan;
    this.limit = planAllowances[options.plan];
    this.file = options.file;
    this.now = options.now ?? Date.now;
    this.onPersistError = options.onPersistError ?? (() => undefined);
    this.persistDelayMs = options.persistDelayMs ?? 100;
    this.resetsAt = nextResetAt(this.now());
  }

  /** Opens the ledger, restoring what was spent before a restart. */
  static async open(options: QuotaLedgerOptions): Promise<QuotaLedger> {
    const ledger = new QuotaLedger(options);
    await mkdir(dirname(options.file), { recursive: true });
    try {
      const saved = JSON.parse(await readFile(options.file, 'utf8')) as Partial<PersistedQuota>;
      if (typeof saved.used === 'number' && typeof saved.resetsAt === 'number') {
        ledger.used = saved.used;
        ledger.resetsAt = saved.resetsAt;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    ledger.rollOver();
    return ledger;
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
   * Holds one unit for a request about to be sent.
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
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      this.inFlight -= 1;
      return true;
    };
    return {
      commit: (headers) => {
        if (!settle()) return;
        if (!(headers !== undefined && this.readHeaders(headers))) this.used += 1;
        this.changed();
      },
      release: () => {
        settle();
      },
    };
  }

  /** The upstream answered 429: nothing is left until `Retry-After` (or the daily reset). */
  markExhausted(retryAfterSeconds: number | undefined): void {
    this.used = Math.max(this.used, this.limit);
    if (retryAfterSeconds !== undefined) this.resetsAt = this.now() + retryAfterSeconds * 1000;
    this.changed();
  }

  /** Reads the rate-limit headers; true when they carried the upstream's count. */
  private readHeaders(header: HeaderSource): boolean {
    const names = upstreamAssumptions.rateLimitHeaders;
    const limit = Number(header(names.limit));
    const remaining = Number(header(names.remaining));
    const reset = Number(header(names.reset));
    if (!Number.isFinite(remaining) || header(names.remaining) === undefined) return false;
    if (Number.isFinite(limit) && limit > 0 && header(names.limit) !== undefined) this.limit = limit;
    this.used = Math.max(0, this.limit - remaining);
    if (Number.isFinite(reset) && reset > 0 && header(names.reset) !== undefined) {
      this.resetsAt = this.now() + reset * 1000;
    }
    return true;
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits for the last state to reach the disk. */
  async flush(): Promise<void> {
    if (this.persistTimer !== undefined) {
      clearTimeout(this.persistTimer);
      this.persistTimer = undefined;
      this.write();
    }
    while (this.writing !== undefined) await this.writing;
  }

  private rollOver(): void {
    const now = this.now();
    if (now < this.resetsAt) return;
    this.used = 0;
    this.limit = planAllowances[this.plan];
    this.resetsAt = nextResetAt(now);
    this.changed();
  }

  private changed(): void {
    this.dirty = true;
    this.persist();
    const snapshot = this.snapshotWithoutRollOver();
    for (const listener of this.listeners) listener(snapshot);
  }

  private snapshotWithoutRollOver(): QuotaSnapshot {
    return {
      plan: this.plan,
      limit: this.limit,
      used: this.used,
      remaining: Math.max(0, this.limit - this.used),
      resetsAt: this.resetsAt,
    };
  }

  private persist(): void {
    if (this.writing !== undefined || this.persistTimer !== undefined) return;
    this.persistTimer = setTimeout(() => {
      this.persistTimer = undefined;
      this.write();
    }, this.persistDelayMs);
  }

  private write(): void {
    if (this.writing !== undefined) return;
    this.writing = (async () => {
      while (this.dirty) {
        this.dirty = false;
        const state: PersistedQuota = { limit: this.limit, used: this.used, resetsAt: this.resetsAt };
        const tmp = `${this.file}.${process.pid}.tmp`;
        await writeFile(tmp, JSON.stringify(state));
        await rename(tmp, this.file);
      }
    })()
      .catch((error: unknown) => this.onPersistError(error))
      .finally(() => {
        this.writing = undefined;
        // A change that came after the loop's last check but before this point still needs its write.
        if (this.dirty) this.persist();
      });
  }
}
