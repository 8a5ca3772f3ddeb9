/**
 * What the cost plugin decided before an operation ran, kept until the
 * trace plugin reports `extensions.cost` after it: the estimate and the
 * client's budget guard, keyed by the operation's context object.
 */
import type { OperationBudget } from '../operation-budget.js';

export interface OperationCost {
  /** Upper bound of counted upstream requests, computed before execution (what estimating spent included). */
  readonly estimated: number;
  /** The client's budget guard, charged with what was really spent. */
  readonly budget?: OperationBudget;
}

export const operationCosts = new WeakMap<object, OperationCost>();
