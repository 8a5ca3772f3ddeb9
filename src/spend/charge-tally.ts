/**
 * Who paid for each counted upstream request, counted where it is charged:
 * at the moment its unit is reserved in the ledger (the spend meter's guard,
 * src/spend/spend-meter.ts), given back only when the request never left.
 *
 * A client with a daily budget pays from it (src/spend/operation-budget.ts);
 * every other payer is only counted here:
 * - `client`: a client key without a budget;
 * - `anonymous`: no client at all (keys off, or none presented);
 * - `plan`: work no client asked for, charged to the plan's allowance only
 *   (a shared poll no budgeted subscriber pays for, the image importer).
 *
 * The tally is what the suite's charge check (src/spend/charge-audit.ts)
 * compares with the ledger; in service it only costs a few additions.
 */
import type { SpendGuard } from './spend-meter.js';

export type PayerKind = 'budget' | 'client' | 'anonymous' | 'plan';

export class ChargeTally {
  /** Units charged and not given back, per kind of payer. */
  readonly charged: Record<PayerKind, number> = { budget: 0, client: 0, anonymous: 0, plan: 0 };

  charge(kind: PayerKind): void {
    this.charged[kind] += 1;
  }

  refund(kind: PayerKind): void {
    this.charged[kind] -= 1;
  }

  /** Every unit charged, whoever paid it. */
  get total(): number {
    const { budget, client, anonymous, plan } = this.charged;
    return budget + client + anonymous + plan;
  }
}

/** A payer with no budget to draw on: each claim is charged to it (counted) and never refused. */
export class TallyPayer implements SpendGuard {
  readonly #tally: ChargeTally;
  readonly #kind: Exclude<PayerKind, 'budget'>;

  constructor(tally: ChargeTally, kind: Exclude<PayerKind, 'budget'>) {
    this.#tally = tally;
    this.#kind = kind;
  }

  claim(): Promise<void> {
    this.#tally.charge(this.#kind);
    return Promise.resolve();
  }

  unclaim(): void {
    this.#tally.refund(this.#kind);
  }

  sent(): void {
    // The charge made at the claim stands.
  }
}
