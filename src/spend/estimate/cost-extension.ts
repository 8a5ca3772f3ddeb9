/**
 * The one shape of `extensions.cost`, whoever writes it: the trace plugin
 * after execution, the cost plugin when it refuses, and a stored result
 * served from the result cache (through yoga or the HTTP fast path). Built
 * in one place so the four answers cannot drift apart.
 */
import type { Ledger } from '../ledger.js';

export interface CostExtension {
  /** Upper bound computed before execution; absent when no estimate was made (subscriptions). */
  readonly estimated?: number;
  readonly upstreamRequests: number;
  readonly cacheHits: number;
  readonly allowanceRemaining: number;
  /** Only for a client with a daily budget. */
  readonly budgetRemaining?: number;
}

export interface CostSpent {
  readonly estimated: number | undefined;
  readonly upstreamRequests: number;
  readonly cacheHits: number;
}

export function costExtension(
  spent: CostSpent,
  ledger: Pick<Ledger, 'snapshot'>,
  budgetRemaining: number | undefined,
): CostExtension {
  // Built by assignment in the documented key order, not by spreading optional parts: made on every result-cache
  // hit, where the spreads' throwaway objects were a few per cent of the hit's CPU.
  const { remaining } = ledger.snapshot();
  const extension: Mutable<CostExtension> =
    spent.estimated === undefined
      ? { upstreamRequests: spent.upstreamRequests, cacheHits: spent.cacheHits, allowanceRemaining: remaining }
      : {
          estimated: spent.estimated,
          upstreamRequests: spent.upstreamRequests,
          cacheHits: spent.cacheHits,
          allowanceRemaining: remaining,
        };
  if (budgetRemaining !== undefined) extension.budgetRemaining = budgetRemaining;
  return extension;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
