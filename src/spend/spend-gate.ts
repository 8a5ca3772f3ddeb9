/**
 * The one accounting every door passes before it can cause a counted
 * upstream request: GraphQL operations (src/plugins/use-cost-limit.ts), the
 * image routes (src/plugins/use-images.ts), the image importer, and the
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
 * then the pass's `guard`, put on the work's spend meter, charges each
 * counted request to its payer as it is reserved in the ledger
 * (src/spend/spend-meter.ts), and `settle`, when the work is done,
 * frees what the hold has left once nothing claimed is in flight. Every
 * counted request has a payer: the client's budget, or, counted only
 * (src/spend/charge-tally.ts), a client without one, no client, or the
 * plan itself for work no client asked for (a poll no budgeted subscriber
 * pays for, the importer).
 *
 * GraphQL operations pass `admitOperation` instead, which answers what it
 * can: free and cached fields always answer, and each field whose counted
 * request the allowance or the budget cannot pay fails alone, at its path,
 * before anything is sent (the ledger refuses the reservation; the client's
 * budget is an OperationBudget guard on the operation's meter). So steps 2
 * and 3 refuse only an operation that would spend what is left on a
 * fraction of its answer: one that needs more than what is left by more
 * than what is left. With nothing left, nothing can be spent: it runs.
 *
 * A refusal is plain data; each door renders it in its own transport (a
 * GraphQL error, a JSON error body). Messages never say what the
 * per-operation limit is; a QUOTA_EXHAUSTED message says how much is left
 * (the client can read as much from `quota` and `extensions.cost`).
 */
import { Code } from '../codes/error-codes.js';
import type { Estimate } from './resource-estimate.js';
import { ErrorCode } from '../upstream/errors.js';
import type { Ledger } from './ledger.js';
import type { SpendGuard } from './spend-meter.js';
import { ChargeTally, TallyPayer } from './charge-tally.js';
import type { Budgets } from './client-budgets.js';
import { OperationBudget } from './operation-budget.js';

export type SpendScope = 'plan' | 'client';

export interface SpendRefusal {
  readonly code: typeof Code.COST_LIMIT_EXCEEDED | typeof ErrorCode.QuotaExhausted;
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
  /** The payer: put it on the work's spend meter before anything is sent. */
  readonly guard: SpendGuard;
  /** Ends the work (no further claims); returns the client's budget left (undefined without a budget). */
  settle(): number | undefined;
}

/** Who pays for work that a client did not ask for itself: `plan` (the importer, a poll) is charged to a budget only when one is named. */
export type Payer = 'client' | 'plan';

export type Admission =
  | { readonly ok: true; readonly pass: SpendPass }
  | { readonly ok: false; readonly refusal: SpendRefusal };

/** An operation's admission: its budget guard is charged by whoever ends it (`settle`). */
export type OperationAdmission = { readonly ok: true } | { readonly ok: false; readonly refusal: SpendRefusal };

/**
 * Refuse before running only when what is left would buy a fraction of the
 * answer: `need` passes `left` by more than `left`. Nothing left: nothing
 * to protect, the operation runs and its counted fields fail one by one.
 */
export function passesByMoreThanLeft(need: number, left: number): boolean {
  return left > 0 && need - left > left;
}

export interface SpendGateOptions {
  readonly ledger: Pick<Ledger, 'available' | 'snapshot'>;
  /** Client budgets; none for a caller that acts for no client (the importer). */
  readonly budgets?: Budgets | undefined;
  /** Most counted upstream requests one piece of work may be estimated at. @default 50 */
  readonly maxOperationCost?: number;
  /** Allowance units the gate leaves untouched (the importer's `--reserve`). @default 0 */
  readonly reserve?: number;
  /** Where the payers without a budget are counted (src/spend/charge-tally.ts). @default a tally of this gate's own */
  readonly tally?: ChargeTally;
}

export class SpendGate {
  readonly #ledger: SpendGateOptions['ledger'];
  readonly #budgets: SpendGateOptions['budgets'];
  readonly #maxOperationCost: number;
  readonly #reserve: number;
  /** What every payer was charged. */
  readonly tally: ChargeTally;

  constructor({ ledger, budgets, maxOperationCost = 50, reserve = 0, tally = new ChargeTally() }: SpendGateOptions) {
    this.#ledger = ledger;
    this.#budgets = budgets;
    this.#maxOperationCost = maxOperationCost;
    this.#reserve = reserve;
    this.tally = tally;
  }

  /**
   * Admits work estimated at `estimate` for `client` (undefined: no client,
   * or keys off), holding its budget; or says why not. `what` names the
   * work in messages ("operation", "image request", "subscription");
   * `payer` says who pays when the client has no budget (`plan`: no client
   * asked for it). Asynchronous because a cluster holds budgets in Redis.
   */
  async admit(
    estimate: Estimate,
    client: string | undefined,
    what = 'operation',
    payer: Payer = 'client',
  ): Promise<Admission> {
    const early = this.#limitOrPlanRefusal(estimate, what);
    if (early !== undefined) return this.#refuse(early);
    const budgets = this.#budgets;
    if (budgets?.has(client) === true) {
      const budget = new OperationBudget(budgets, client, this.tally);
      if (!(await budget.reserveAll(estimate.requests))) {
        return this.#refuse(this.#clientRefusal(budgets, estimate.requests, what, budgets.remaining(client)));
      }
      return { ok: true, pass: { estimated: estimate.requests, guard: budget, settle: () => budget.settle() } };
    }
    const guard = payer === 'plan' ? new TallyPayer(this.tally, 'plan') : this.payerWithoutBudget(client);
    return { ok: true, pass: { estimated: estimate.requests, guard, settle: () => undefined } };
  }

  /** The payer of work by `client` when it has no budget (or no client: keys off, none presented): counted, never refused. */
  payerWithoutBudget(client: string | undefined): SpendGuard {
    return new TallyPayer(this.tally, client === undefined ? 'anonymous' : 'client');
  }

  /**
   * A budget guard for one GraphQL operation of `client`, holding nothing
   * yet: put it on the operation's meter before anything is loaded (the
   * estimate may load a cheap list first). Undefined for a client without a
   * budget.
   */
  operationBudget(client: string | undefined): OperationBudget | undefined {
    const budgets = this.#budgets;
    return budgets?.has(client) === true ? new OperationBudget(budgets, client, this.tally) : undefined;
  }

  /**
   * Admits a GraphQL operation whose remaining counted requests are
   * estimated at `estimate` (what it already spent estimating, `spent`,
   * counts towards the per-operation limit only), or says why not; on
   * admission, holds the estimate (or what is left) on `budget`.
   */
  async admitOperation(
    estimate: Estimate,
    client: string | undefined,
    budget: OperationBudget | undefined,
    spent = 0,
  ): Promise<OperationAdmission> {
    const total = estimate.requests + spent;
    if (total > this.#maxOperationCost) return { ok: false, refusal: this.#limitRefusal(total, 'operation') };
    const allowanceLeft = Math.max(0, this.#ledger.available() - this.#reserve);
    if (passesByMoreThanLeft(estimate.unanswerable, allowanceLeft)) {
      return { ok: false, refusal: this.#planRefusal(total, allowanceLeft, 'operation') };
    }
    const budgets = this.#budgets;
    if (budget !== undefined && budgets?.has(client) === true) {
      const budgetLeft = budgets.remaining(client) ?? 0;
      if (passesByMoreThanLeft(estimate.requests, budgetLeft)) {
        return { ok: false, refusal: this.#clientRefusal(budgets, total, 'operation', budgetLeft) };
      }
      await budget.reserve(estimate.requests);
    }
    return { ok: true };
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
      return this.#clientRefusal(budgets, estimate.requests, what, budgets.remaining(client));
    }
    return undefined;
  }

  #limitOrPlanRefusal(estimate: Estimate, what: string): SpendRefusal | undefined {
    const estimated = estimate.requests;
    if (estimated > this.#maxOperationCost) return this.#limitRefusal(estimated, what);
    const left = Math.max(0, this.#ledger.available() - this.#reserve);
    if (estimate.unanswerable > 0 && estimate.unanswerable > left) return this.#planRefusal(estimated, left, what);
    return undefined;
  }

  #limitRefusal(estimated: number, what: string): SpendRefusal {
    return {
      code: Code.COST_LIMIT_EXCEEDED,
      message: `Refused: this ${what} could cost more upstream requests than one ${what} may spend. Ask for fewer items or fields.`,
      estimated,
    };
  }

  #planRefusal(estimated: number, left: number, what: string): SpendRefusal {
    return {
      code: ErrorCode.QuotaExhausted,
      message: `The daily upstream allowance has ${requestsLeft(left)} left, not enough for this ${what}. Ask for fewer items or fields.`,
      scope: 'plan',
      estimated,
      resetsAt: new Date(this.#ledger.snapshot().resetsAt).toISOString(),
    };
  }

  #clientRefusal(budgets: Budgets, estimated: number, what: string, left: number | undefined): SpendRefusal {
    return {
      code: ErrorCode.QuotaExhausted,
      message: `This client's daily budget has ${requestsLeft(left ?? 0)} left, not enough for this ${what}. Ask for fewer items or fields.`,
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

function requestsLeft(left: number): string {
  return `${left} upstream request${left === 1 ? '' : 's'}`;
}
