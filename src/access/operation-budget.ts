/**
 * One GraphQL operation's share of its client's daily budget, consulted
 * before each counted request the operation sends (the spend meter's guard,
 * src/upstream/spend-meter.ts).
 *
 * Why per request and not only before execution: an operation whose client
 * has little or nothing left still answers what costs nothing (free routes,
 * the cache), and each field that needs a counted request the budget cannot
 * pay fails alone, at its own path, with QUOTA_EXHAUSTED `scope: "client"`,
 * before anything is sent. The gate holds the operation's estimate (or what
 * is left, if less) up front, so that concurrent operations of one client
 * do not starve each other half-way; a request past that hold asks the
 * budget for one more unit, so the budget, not the estimate, is the limit.
 * At the end the holds are settled with the counted requests really made.
 */
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import type { SpendGuard } from '../upstream/spend-meter.js';
import type { BudgetHold, Budgets } from './client-budgets.js';

interface Held {
  readonly hold: BudgetHold;
  readonly units: number;
}

export class OperationBudget implements SpendGuard {
  readonly #budgets: Budgets;
  readonly #client: string;
  readonly #holds: Held[] = [];
  #held = 0;
  #claimed = 0;
  #settled: number | undefined;

  constructor(budgets: Budgets, client: string) {
    this.#budgets = budgets;
    this.#client = client;
  }

  /** Units held for this operation and not claimed yet. */
  get unclaimed(): number {
    return this.#held - this.#claimed;
  }

  /**
   * Holds up to `units` more for the requests the operation is expected to
   * make; holds what is left when less is left (maybe nothing).
   * @returns the units held.
   */
  async reserve(units: number): Promise<number> {
    const wanted = Math.min(units, this.#budgets.remaining(this.#client) ?? 0);
    if (wanted <= 0) return 0;
    const hold = await this.#budgets.hold(this.#client, wanted);
    // Another operation of this client took it meanwhile: claims will ask one unit at a time.
    if (hold === undefined) return 0;
    this.#holds.push({ hold, units: wanted });
    this.#held += wanted;
    return wanted;
  }

  async claim(): Promise<void> {
    if (this.#settled !== undefined) throw this.#exhausted();
    if (this.#claimed < this.#held) {
      this.#claimed += 1;
      return;
    }
    this.#claimed += 1;
    const hold = await this.#budgets.hold(this.#client, 1);
    if (hold === undefined) {
      this.#claimed -= 1;
      throw this.#exhausted();
    }
    this.#holds.push({ hold, units: 1 });
    this.#held += 1;
  }

  unclaim(): void {
    this.#claimed = Math.max(0, this.#claimed - 1);
  }

  /**
   * Charges `spent` counted requests and frees the rest of every hold; once:
   * later calls return the same answer, and later claims are refused.
   * @returns the client's budget left.
   */
  settle(spent: number): number {
    if (this.#settled !== undefined) return this.#budgets.remaining(this.#client) ?? this.#settled;
    let left = spent;
    let remaining = 0;
    this.#holds.forEach(({ hold, units }, index) => {
      // Each hold is charged what it covered; the last one takes any excess (a request another path sent).
      const charge = index === this.#holds.length - 1 ? left : Math.min(left, units);
      left -= charge;
      remaining = hold.settle(charge);
    });
    if (this.#holds.length === 0) {
      remaining = this.#budgets.remaining(this.#client) ?? 0;
    }
    this.#settled = remaining;
    return remaining;
  }

  #exhausted(): GatewayError {
    return new GatewayError(ErrorCode.QuotaExhausted, "This client's daily budget of upstream requests is spent.", {
      scope: 'client',
      resetsAt: this.#budgets.resetsAtIso,
    });
  }
}
