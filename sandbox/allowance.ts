/**
 * The daily request allowance (spec 8), reset at `nextResetAt` (DESIGN.md,
 * "Upstream assumptions"). The sandbox ledger is the upstream's; the gateway
 * keeps its own and learns this one only through the rate-limit headers.
 */
import { nextResetAt, upstreamAssumptions } from '../src/upstream/assumptions.js';

export interface AllowanceState {
  limit: number;
  used: number;
  remaining: number;
  /** ISO 8601, UTC. */
  resetsAt: string;
}

export class Allowance {
  #limit: number;
  #used = 0;
  #resetAt: number;

  constructor(limit: number, now: number) {
    this.#limit = limit;
    this.#resetAt = nextResetAt(now);
  }

  /**
   * Takes one unit for a request arriving at `now`, or returns false when none
   * is left. Taken before the handler runs, so concurrent requests cannot
   * overdraw; `release` gives it back when the answer turns out not to count.
   */
  reserve(now: number): boolean {
    this.#roll(now);
    if (this.#used >= this.#limit) return false;
    this.#used += 1;
    return true;
  }

  release(): void {
    this.#used = Math.max(0, this.#used - 1);
  }

  /** Whole seconds until the reset, at least 1 so that a client never retries at once. */
  secondsToReset(now: number): number {
    this.#roll(now);
    return Math.max(1, Math.ceil((this.#resetAt - now) / 1000));
  }

  /** The three rate-limit headers, as they stand after the current request. */
  headers(now: number): Record<string, string> {
    const names = upstreamAssumptions.rateLimitHeaders;
    return {
      [names.limit]: String(this.#limit),
      [names.remaining]: String(this.state(now).remaining),
      [names.reset]: String(this.secondsToReset(now)),
    };
  }

  state(now: number): AllowanceState {
    this.#roll(now);
    return {
      limit: this.#limit,
      used: this.#used,
      remaining: Math.max(0, this.#limit - this.#used),
      resetsAt: new Date(this.#resetAt).toISOString(),
    };
  }

  set(now: number, change: { used?: number | undefined; limit?: number | undefined }): void {
    this.#roll(now);
    if (change.limit !== undefined) this.#limit = change.limit;
    if (change.used !== undefined) this.#used = change.used;
  }

  #roll(now: number): void {
    if (now < this.#resetAt) return;
    this.#used = 0;
    this.#resetAt = nextResetAt(now);
  }
}
