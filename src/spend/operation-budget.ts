/**
 * One piece of work's share of its client's daily budget (a GraphQL
 * operation, an image request, a poll the client pays for), charged as
 * each counted request it sends is reserved in the ledger (the spend
 * meter's guard, src/spend/spend-meter.ts).
 *
 * Why per request and not only before execution: an operation whose client
 * has little or nothing left still answers what costs nothing (free routes,
 * the cache), and each field that needs a counted request the budget cannot
 * pay fails alone, at its own path, with QUOTA_EXHAUSTED `scope: "client"`,
 * before anything is sent. The gate holds the operation's estimate (or what
 * is left, if less) up front, so that concurrent operations of one client
 * do not starve each other half-way; a request past that hold asks the
 * budget for one more unit, so the budget, not the estimate, is the limit.
 *
 * A claimed unit is the client's from the claim on: the budget reads it as
 * used at once, and only a request that never left gives it back. Ending
 * the work (`settle`: the last part delivered, or the client gone) refuses
 * further claims; its holds are settled with the units claimed once every
 * claimed request has left or been given back, so a request still in flight
 * (a hung upstream, a deferred part nobody reads) is charged, never freed.
 */
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import type { SpendGuard } from './spend-meter.js';
import type { ChargeTally } from './charge-tally.js';
import type { BudgetHold, Budgets } from './client-budgets.js';

interface Held {
  readonly hold: BudgetHold;
  readonly units: number;
}

export class OperationBudget implements SpendGuard {
  readonly #budgets: Budgets;
  readonly #client: string;
  readonly #tally: ChargeTally | undefined;
  readonly #holds: Held[] = [];
  #held = 0;
  #claimed = 0;
  /** Claimed units whose request has neither left nor been given back yet. */
  #open = 0;
  #ended = false;
  #holdsSettled = false;

  constructor(budgets: Budgets, client: string, tally?: ChargeTally) {
    this.#budgets = budgets;
    this.#client = client;
    this.#tally = tally;
  }

  /** Units held for this work and not claimed yet. */
  get unclaimed(): number {
    return this.#held - this.#claimed;
  }

  /**
   * Holds up to `units` more for the requests the work is expected to
   * make; holds what is left when less is left (maybe nothing).
   * @returns the units held.
   */
  async reserve(units: number): Promise<number> {
    const wanted = Math.min(units, this.#budgets.remaining(this.#client) ?? 0);
    if (wanted <= 0) return 0;
    return (await this.#hold(wanted)) ? wanted : 0;
  }

  /** Holds exactly `units`, or nothing; true when held (nothing to hold is held). */
  async reserveAll(units: number): Promise<boolean> {
    return units <= 0 || (await this.#hold(units));
  }

  async #hold(units: number): Promise<boolean> {
    const hold = await this.#budgets.hold(this.#client, units);
    // Another operation of this client took it meanwhile: claims will ask one unit at a time.
    if (hold === undefined) return false;
    this.#holds.push({ hold, units });
    this.#held += units;
    return true;
  }

  async claim(): Promise<void> {
    if (this.#ended) throw this.#exhausted();
    this.#claimed += 1;
    this.#open += 1;
    if (this.#claimed > this.#held && !(await this.#hold(1))) {
      this.#claimed -= 1;
      this.#open -= 1;
      this.#settleHoldsWhenQuiet();
      throw this.#exhausted();
    }
    this.#tally?.charge('budget');
  }

  unclaim(): void {
    this.#claimed = Math.max(0, this.#claimed - 1);
    this.#open = Math.max(0, this.#open - 1);
    this.#tally?.refund('budget');
    this.#settleHoldsWhenQuiet();
  }

  sent(): void {
    this.#open = Math.max(0, this.#open - 1);
    this.#settleHoldsWhenQuiet();
  }

  /**
   * Ends the work: later claims are refused, and the holds are settled with
   * the units claimed (now, or when the last claimed request has left).
   * Once; later calls return the budget left as well.
   * @returns the client's budget left (what is still held for requests in flight counted as used).
   */
  settle(): number {
    this.#ended = true;
    this.#settleHoldsWhenQuiet();
    return this.#budgets.remaining(this.#client) ?? 0;
  }

  #settleHoldsWhenQuiet(): void {
    if (!this.#ended || this.#open > 0 || this.#holdsSettled) return;
    this.#holdsSettled = true;
    let left = this.#claimed;
    this.#holds.forEach(({ hold, units }, index) => {
      // Each hold is charged what it covered; the last one takes any excess.
      const charge = index === this.#holds.length - 1 ? left : Math.min(left, units);
      left -= charge;
      hold.settle(charge);
    });
  }

  #exhausted(): GatewayError {
    return new GatewayError(ErrorCode.QuotaExhausted, "This client's daily budget of upstream requests is spent.", {
      scope: 'client',
      resetsAt: this.#budgets.resetsAtIso,
    });
  }
}
