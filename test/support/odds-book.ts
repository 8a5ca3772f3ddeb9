/**
 * The odds feed as a test reads it: the shapes of `oddsSnapshots` and
 * `oddsChanges`, and the replay that proves a change stream lost, invented
 * and repeated nothing (the first snapshot plus every change is the latest).
 */

export interface Market {
  marketId: string;
  suspended: boolean;
  outcomes: Array<{ name: string; price: number | null }>;
}

export interface Snapshot {
  matchId: string;
  timestampMs: number;
  stale: boolean;
  feed: 'CONNECTING' | 'LIVE' | 'RECONNECTING';
  markets: Market[];
}

export interface Change {
  kind: 'OPENED' | 'SUSPENDED' | 'REOPENED' | 'CLOSED' | 'PRICE_MOVED';
  marketId: string;
  outcome: string | null;
  previousPrice: number | null;
  price: number | null;
  afterReconnect: boolean;
  market: Market;
}

/** Markets in a stable order, so that two books compare equal whatever order the feed listed them in. */
export const sortMarkets = (markets: readonly Market[]): Market[] =>
  [...markets].sort((a, b) => a.marketId.localeCompare(b.marketId));

export function priceOf(snapshot: Snapshot | undefined, market: string, outcome: string): number | null | undefined {
  return snapshot?.markets.find((m) => m.marketId === market)?.outcomes.find((o) => o.name === outcome)?.price;
}

/** Replays a change stream over a snapshot's markets; throws on a change that does not fit the book. Sorted. */
export function replay(start: readonly Market[], changes: readonly Change[]): Market[] {
  const book = new Map(start.map((m) => [m.marketId, structuredClone(m)]));
  for (const change of changes) {
    const market = book.get(change.marketId);
    switch (change.kind) {
      case 'OPENED':
        if (market !== undefined) throw new Error(`OPENED twice: ${change.marketId}`);
        book.set(change.marketId, structuredClone(change.market));
        break;
      case 'CLOSED':
        if (market === undefined) throw new Error(`CLOSED unknown: ${change.marketId}`);
        book.delete(change.marketId);
        break;
      case 'SUSPENDED':
      case 'REOPENED':
        if (market === undefined || market.suspended === (change.kind === 'SUSPENDED'))
          throw new Error(`bad ${change.kind}`);
        market.suspended = change.kind === 'SUSPENDED';
        break;
      case 'PRICE_MOVED': {
        const outcome = market?.outcomes.find((o) => o.name === change.outcome);
        if (outcome === undefined || outcome.price !== change.previousPrice)
          throw new Error(`bad PRICE_MOVED ${JSON.stringify(change)}`);
        outcome.price = change.price;
        break;
      }
    }
  }
  return sortMarkets([...book.values()]);
}
