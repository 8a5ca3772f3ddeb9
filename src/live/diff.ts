/**
 * Changes between two consecutive odds snapshots (spec 3 and 6.5). The
 * upstream sends complete snapshots, never deltas, so every change is
 * derived here:
 *
 * - a market key absent before and present now: OPENED;
 * - present before and absent now: CLOSED (removal from `markets[]` is the
 *   spec's only way to say closed);
 * - `suspended` false -> true: SUSPENDED; true -> false: REOPENED;
 * - an outcome whose price differs: PRICE_MOVED (one per outcome).
 *
 * A pure function of (previous, next): across a reconnect the caller passes
 * the last snapshot before the gap and the first one after it, so nothing is
 * lost (the gap's net effect appears) and nothing is invented or repeated
 * (an unchanged book yields no change).
 */
import type { OddsFrame, OddsMarket } from '../upstream/routes/odds-socket.js';

export type OddsChangeKind = 'OPENED' | 'SUSPENDED' | 'REOPENED' | 'CLOSED' | 'PRICE_MOVED';

export interface OddsChange {
  readonly kind: OddsChangeKind;
  readonly marketKey: string;
  readonly marketName: string | null;
  /** The market as it is now; for CLOSED, as it was last seen. */
  readonly market: OddsMarket;
  /** PRICE_MOVED only: the outcome whose price moved. */
  readonly outcome: string | null;
  readonly previousPrice: number | null;
  readonly price: number | null;
}

export function diffFrames(previous: OddsFrame, next: OddsFrame): OddsChange[] {
  const changes: OddsChange[] = [];
  const before = new Map(previous.markets.map((market) => [market.key, market]));
  const after = new Set<string>();

  for (const market of next.markets) {
    after.add(market.key);
    const old = before.get(market.key);
    if (old === undefined) {
      changes.push(change('OPENED', market));
      continue;
    }
    if (!old.suspended && market.suspended) changes.push(change('SUSPENDED', market));
    if (old.suspended && !market.suspended) changes.push(change('REOPENED', market));
    const oldPrices = new Map(old.outcomes.map((outcome) => [outcome.name, outcome.price]));
    for (const outcome of market.outcomes) {
      const oldPrice = oldPrices.get(outcome.name);
      // An outcome that appears inside a known market has moved from "no price".
      if (oldPrice === outcome.price) continue;
      changes.push({
        ...change('PRICE_MOVED', market),
        outcome: outcome.name,
        previousPrice: oldPrice ?? null,
        price: outcome.price,
      });
    }
  }
  for (const market of previous.markets) {
    if (!after.has(market.key)) changes.push(change('CLOSED', market));
  }
  return changes;
}

function change(kind: OddsChangeKind, market: OddsMarket): OddsChange {
  return {
    kind,
    marketKey: market.key,
    marketName: market.name,
    market,
    outcome: null,
    previousPrice: null,
    price: null,
  };
}
