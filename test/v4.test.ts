/**
 * V4 multi-bookmaker odds over REST, with V4's own hockey slug (`ice-hockey`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface Odds {
  eventId: string;
  sport: string;
  bookmakers: Array<{
    key: string;
    name: string;
    markets: Array<{
      key: string;
      suspended: boolean;
      outcomes: Array<{ name: string; price: number; point: number | null }>;
    }>;
  }>;
  best: Array<{ outcome: string; price: number; bookmaker: string; point: number | null }>;
  totals: Array<{ outcome: string; price: number; bookmaker: string }>;
}

describe('V4 odds', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('serves several bookmakers for an ice hockey event, spelled ice-hockey upstream', async () => {
    const eventId = stack.sandbox.fixtures.otherSports.v4.events.get('ice-hockey')?.[0];
    const result = await gql<{ v4: { odds: Odds } }>(
      stack.gateway.url,
      `query($id: ID!) { v4 { odds(sport: ICE_HOCKEY, eventId: $id) {
        eventId sport homeTeam awayTeam
        bookmakers { key name lastUpdate markets { key suspended outcomes { name price point } } }
        best(market: "moneyline") { outcome price bookmaker point }
        totals: best(market: "total") { outcome price bookmaker }
      } } }`,
      { id: String(eventId) },
    );
    expect(result.errors).toBeUndefined();
    const odds = result.data?.v4.odds;
    expect(odds?.sport).toBe('ice-hockey');
    expect(odds?.bookmakers.map((b) => b.name)).toEqual(['NorthBet', 'Pinnacle Peak', 'Bet Harbour', 'Oddsmith']);
    // Best moneyline price per outcome is the highest across bookmakers.
    for (const best of odds?.best ?? []) {
      const prices =
        odds?.bookmakers.map(
          (b) =>
            b.markets.find((m) => m.key === 'moneyline')?.outcomes.find((o) => o.name === best.outcome)?.price ?? 0,
        ) ?? [];
      expect(best.price).toBe(Math.max(...prices));
    }
    // The suspended total at one bookmaker is left out of the best prices.
    expect(odds?.totals.some((t) => t.bookmaker === 'Oddsmith')).toBe(false);
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute['GET /v4/ice-hockey/odds']).toBe(1);
    expect(counts.byRoute['GET /v4/hockey/odds']).toBeUndefined();
  });

  it('refuses a sport V4 does not carry without a request to V4', async () => {
    const result = await gql(stack.gateway.url, `{ v4 { odds(sport: CYCLING, eventId: "1") { eventId } } }`);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('NOT_SUPPORTED');
    const counts = await requestCounts(stack.sandbox.url);
    expect(Object.keys(counts.byRoute).filter((r) => r.startsWith('GET /v4/'))).toEqual([]);
  });
});
