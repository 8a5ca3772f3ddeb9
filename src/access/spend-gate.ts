/**
 * The one accounting every door passes before it can cause a counted
 * upstream request: GraphQL operations (src/plugins/use-cost-limit.ts), the
 * image routes (src/images/use-images.ts), the image importer, and the
 * shared polls that subscriptions start (live ticker, baseball lineups).
 *
 * In order, with the door's estimate (an upper bound of counted requests,
 * and the part of it no cached answer, even stale, could stand in for):
 *   1. the per-operation limit: COST_LIMIT_EXCEEDED;
 *   2. the plan: what cannot be answered from the cache must fit in the
 *      allowance left: QUOTA_EXHAUSTED, `scope: "plan"`;
 *   3. the client's daily budget, when it has one: the estimate is held, so
 *      concurrent work of one client cannot pass the budget together:
 *      QUOTA_EXHAUSTED, `scope: "client"`;
 * then, when the work is done, `settle` charges the counted requests it
 * really made (src/upstream/spend-meter.ts) and frees the rest of the hold.
 *
 * A refusal is plain data; each door renders it in its own transport (a
 * GraphQL error, a JSON error body). Messages never say what a limit is.
 */
import type { Estimate } from '../cost/field-cost.js';
import { ErrorCode } from '../upstream/errors.js';
import type { Ledger } from '../upstream/ledger.js';
import type { BudgetHold, Budgets } from './client-budgets.js';

export const COST_LIMIT_EXCEEDED = 'COST_LIMIT_EXCEEDED';

export type SpendScope = 'plan' | 'client';

export interface SpendRefusal {
  readonly code: typeof COST_LIMIT_EXCEEDED | typeof ErrorCode.QuotaExhausted;
  readonly message: string;
  /** What ran out: absent for the per-operation limit. */
  readonly scope?: SpendScope;
  /** The estimate that was refused. */
  readonly estimated: number;
  /** ISO time the allowance or the budget resets (QUOTA_EXHAUSTED only). */
  readonly resetsAt?: string;
}

export interface SpendPass {
  readonly estimated: number;
  /** The client's budget hold; undefined for a client without a budget. */
  readonly hold: BudgetHold | undefined;
  /** Charges the counted requests really made; returns the client's budget left (undefined without a budget). */
  settle(spent: number): number | undefined;
}

export type Admission = { readonly ok: true; readonly pass: SpendPass } | { readonly ok: false; readonly refusal: SpendRefusal };

export interface SpendGateOptions {
  readonly ledger: Pick<Ledger, 'available' | 'snapshot'>;
  /** Client budgets; none for a caller that acts for no client (the importer). */
  readonly budgets?: Budgets | undefined;
  /** Most counted upstream requests one piece of work may be estimated at. @default 50 */
  readonly maxOperationCost?: number;
  /** Allowance units the gate leaves untouched (the importer's `--reserve`). @default 0 */
  readonly reserve?: number;
}

export class SpendGate {
  readonly #ledger: SpendGateOptions['ledger'];
  readonly #budgets: SpendGateOptions['budgets'];
  readonly #maxOperationCost: number;
  readonly #reserve: number;

  constructor({ ledger, budgets, maxOperationCost = 50, reserve = 0 }: SpendGateOptions) {
    this.#ledger = ledger;
    this.#budgets = budgets;
    this.#maxOperationCost = maxOperationCost;
    this.#reserve = reserve;
  }

  /**
   * Admits work estimated at `estimate` for `client` (undefined: no client,
   * or keys off), holding its budget; or says why not. `what` names the
   * work in messages ("operation", "image request", "subscription").
   * Asynchronous because a cluster holds budgets in Redis.
   */
  async admit(estimate: Estimate, client: string | undefined, what = 'operation'): Promise<Admission> {
    const early = this.#limitOrPlanRefusal(estimate, what);
    if (early !== undefined) return this.#refuse(early);
    const budgets = this.#budgets;
    let hold: BudgetHold | undefined;
    if (budgets?.has(client) === true) {
      hold = await budgets.hold(client, estimate.requests);
      if (hold === undefined) return this.#refuse(this.#clientRefusal(budgets, estimate.requests, what));
    }
    const held = hold;
    return {
      ok: true,
      pass: { estimated: estimate.requests, hold: held, settle: (spent) => held?.settle(spent) },
    };
  }

  /**
   * Why `admit` would refuse now, from what this replica knows, holding
   * nothing: for a subscription that only needs to be able to pay one poll.
   */
  check(estimate: Estimate, client: string | undefined, what = 'subscription'): SpendRefusal | undefined {
    const early = this.#limitOrPlanRefusal(estimate, what);
    if (early !== undefined) return early;
    const budgets = this.#budgets;
    if (budgets?.has(client) === true && (budgets.remaining(client) ?? 0) < estimate.requests) {
      return this.#clientRefusal(budgets, estimate.requests, what);
    }
    return undefined;
  }

  #limitOrPlanRefusal(estimate: Estimate, what: string): SpendRefusal | undefined {
    const estimated = estimate.requests;
    if (estimated > this.#maxOperationCost) {
      return {
        code: COST_LIMIT_EXCEEDED,
        message: `Refused: this ${what} could cost more upstream requests than one ${what} may spend. Ask for fewer items or fields.`,
        estimated,
      };
    }
    if (estimate.unanswerable > 0 && estimate.unanswerable > this.#ledger.available() - this.#reserve) {
      return {
        code: ErrorCode.QuotaExhausted,
        message: `The daily upstream allowance has not enough left for this ${what}.`,
        scope: 'plan',
        estimated,
        resetsAt: new Date(this.#ledger.snapshot().resetsAt).toISOString(),
      };
    }
    return undefined;
  }

  #clientRefusal(budgets: Budgets, estimated: number, what: string): SpendRefusal {
    return {
      code: ErrorCode.QuotaExhausted,
      message: `This client's daily budget of upstream requests has not enough left for this ${what}.`,
      scope: 'client',
      estimated,
      resetsAt: budgets.resetsAtIso,
    };
  }

  /** The client's budget left now; undefined for a client without a budget. */
  budgetRemaining(client: string | undefined): number | undefined {
    return this.#budgets?.remaining(client);
  }

  #refuse(refusal: SpendRefusal): Admission {
    return { ok: false, refusal };
  }
}
