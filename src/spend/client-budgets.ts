/**
 * Per-client daily budgets of counted upstream requests, carved out of the
 * plan's allowance (a client key may carry one; the sum may not pass the
 * plan's daily allowance).
 *
 * An operation holds its estimate before it runs, so concurrent operations
 * of one client cannot pass the budget together, and is charged what it
 * really spent when it ends. Spending is per UTC day, like the upstream's
 * allowance.
 *
 * This module has the contract and the rule on the configured budgets; the
 * implementations are the single node's on `DATA_DIR/quota.json`
 * (src/state/local/local-budgets.ts) and the cluster's in Redis
 * (src/state/redis/redis-budgets.ts).
 */

export interface BudgetHold {
  /** Charges what the operation spent, frees the rest of the hold; returns the budget left. */
  settle(spent: number): number;
}

/** What the spend gate needs of client budgets, whoever keeps them. */
export interface Budgets {
  /** True when `client` has a daily budget. */
  has(client: string | undefined): client is string;
  /** Units left today as far as this replica knows now, holds deducted; undefined for a client without a budget. */
  remaining(client: string | undefined): number | undefined;
  /** Holds `units` for an operation about to run; undefined (nothing held) when they are not left. */
  hold(client: string, units: number): Promise<BudgetHold | undefined>;
  /** ISO time the budgets reset. */
  readonly resetsAtIso: string;
}
