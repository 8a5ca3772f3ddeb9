/**
 * The live ticker: games in progress (statusGroup 3) as a query and a
 * subscription fed by one shared poll, at an interval the allowance allows.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { tickerIntervalMs } from '../src/live/ticker.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const MATCHES = 'GET /api/v1/world-cup/matches';
const TICKER = `{ games { ref { nativeId } statusGroup minute } pollIntervalSeconds stale }`;

interface Ticker {
  games: Array<{ ref: { nativeId: string }; statusGroup: number; minute: number | null }>;
  pollIntervalSeconds: number;
  stale: boolean;
}

describe('live ticker interval', () => {
  it('never spends more than the set share of the daily allowance', () => {
    const base = { allowancePercent: 10, minIntervalMs: 15_000, cacheTtlMs: 30_000 };
    expect(tickerIntervalMs({ ...base, allowance: 100 })).toBe(8_640_000); // free: 10 polls a day
    expect(tickerIntervalMs({ ...base, allowance: 7_500 })).toBe(115_200); // pro: 750 polls a day
    expect(tickerIntervalMs({ ...base, allowance: 75_000 })).toBe(30_000); // ultra: the cache TTL is the floor
    expect(tickerIntervalMs({ ...base, allowance: 0 })).toBe(86_400_000);
    for (const allowance of [100, 7_500, 75_000, 150_000]) {
      const pollsPerDay = 86_400_000 / tickerIntervalMs({ ...base, allowance });
      expect(pollsPerDay).toBeLessThanOrEqual(allowance * 0.1);
    }
  });
});

describe('live ticker', () => {
  let stack: TestStack;
  let expectedLive: string[];
  const clients: Client[] = [];

  beforeAll(async () => {
    // Mega with a 100 % share and a 1 s cache: the formula gives a 1 s poll, short enough to watch.
    stack = await startStack({
      sandbox: { allowance: 150_000 },
      env: {
        SPORTS_API_PLAN: 'mega',
        LIVE_TICKER_ALLOWANCE_PERCENT: '100',
        LIVE_TICKER_MIN_INTERVAL_MS: '1',
        CACHE_TTL_WORLDCUP: '1',
      },
    });
    expectedLive = stack.sandbox.fixtures.worldCup.matches
      .filter((match) => match.state === 'live')
      .map((match) => String(match.v1Id))
      .sort();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await stack.close();
  });

  it('the query lists exactly the games in progress', async () => {
    const result = await gql<{ liveTicker: Ticker }>(stack.gateway.url, `{ liveTicker ${TICKER} }`);
    expect(result.errors).toBeUndefined();
    expect(expectedLive.length).toBeGreaterThan(0);
    const ticker = result.data!.liveTicker;
    expect(ticker.games.map((game) => game.ref.nativeId).sort()).toEqual(expectedLive);
    expect(ticker.games.every((game) => game.statusGroup === 3)).toBe(true);
    expect(ticker.pollIntervalSeconds).toBe(1);
  });

  it('30 subscribers share one poll: one upstream request per interval, not one per subscriber', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the query's cached answer expires
    await resetCounts(stack.sandbox.url);
    const url = `${stack.gateway.url.replace('http', 'ws')}/graphql`;
    const received: Ticker[][] = [];
    const stops: Array<() => void> = [];
    for (let c = 0; c < 3; c++) {
      const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0 });
      clients.push(client);
      for (let i = 0; i < 10; i++) {
        const values: Ticker[] = [];
        received.push(values);
        stops.push(
          client.subscribe<{ liveTicker: Ticker }>(
            { query: `subscription { liveTicker ${TICKER} }` },
            {
              next: (result) => void values.push(result.data!.liveTicker),
              error: () => undefined,
              complete: () => undefined,
            },
          ),
        );
      }
    }
    const deadline = Date.now() + 5_000;
    while (received.some((values) => values.length === 0) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.every((values) => values.length > 0)).toBe(true);
    for (const values of received)
      expect(values[0]!.games.map((game) => game.ref.nativeId).sort()).toEqual(expectedLive);
    expect((await requestCounts(stack.sandbox.url)).byRoute[MATCHES]).toBe(1);

    // Over ~2.5 s the shared poll asks about twice more, whatever the 30 subscribers.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const polls = (await requestCounts(stack.sandbox.url)).byRoute[MATCHES] ?? 0;
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(4);

    // Nobody listening: no more polls.
    for (const stop of stops) stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = (await requestCounts(stack.sandbox.url)).byRoute[MATCHES] ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await requestCounts(stack.sandbox.url)).byRoute[MATCHES] ?? 0).toBe(after);
  });
});
