/**
 * What the cost plugin decided before an operation ran, kept until the
 * trace plugin reports `extensions.cost` after it: the estimate and the
 * client's budget hold, keyed by the operation's context object.
 */
import type { BudgetHold } from '../access/client-budgets.js';

export interface OperationCost {
  /** Upper bound of counted upstream requests, computed before execution. */
  readonly estimated: number;
  /** The client's budget hold, charged with what was really spent. */
  readonly hold?: BudgetHold;
}

export const operationCosts = new WeakMap<object, OperationCost>();
