/**
 * Baseball V2 lineups and the lineup confirmation subscription: the spec's
 * polling schedule, one poll per match whatever the number of subscribers.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { baseballIds } from '../sandbox/fixtures/baseball.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { collectUntilComplete } from './support/odds-stream.js';
import { startStack, type TestStack } from './support/servers.js';

const game = (index: number): number => baseballIds.firstGame + index;
const INTERVAL_MS = 150;

interface Lineup {
  confirmed: boolean;
  home: {
    probablePitcher: { player: { name: string } } | null;
    battingOrder: Array<{ battingOrder: number; statistics: Array<{ name: string }> }>;
    pitchers: unknown[];
    substitutes: unknown[];
    supportStaff: Array<{ role: string }>;
  };
}

const LINEUPS = `query($id: ID!) { v2(sport: BASEBALL) { baseball { lineups(matchId: $id) {
  matchId confirmed
  home { probablePitcher { player { name } } battingOrder { battingOrder position statistics { name value } } pitchers { player { name } } substitutes { player { name } } supportStaff { name role } }
  away { probablePitcher { player { name } } battingOrder { battingOrder } }
} } } }`;

describe('baseball V2 lineups', () => {
  let stack: TestStack;
  let client: Client;
  beforeAll(async () => {
    stack = await startStack({ env: { LINEUP_POLL_INTERVAL_MS: String(INTERVAL_MS), CACHE_TTL_LINEUPS: '0' } });
    client = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
  });
  afterAll(async () => {
    await client.dispose();
    await stack.close();
  });
  beforeEach(() => resetCounts(stack.sandbox.url));

  const count = async (pattern: RegExp): Promise<number> => {
    const counts = await requestCounts(stack.sandbox.url);
    return Object.entries(counts.byRoute)
      .filter(([route]) => pattern.test(route))
      .reduce((sum, [, n]) => sum + n, 0);
  };

  it('answers an unconfirmed lineup with the probable pitcher only, then the full card once confirmed', async () => {
    const id = String(game(2)); // confirms on its 2nd lineups request
    const first = await gql<{ v2: { baseball: { lineups: Lineup } } }>(stack.gateway.url, LINEUPS, { id });
    expect(first.errors).toBeUndefined();
    const unconfirmed = first.data?.v2.baseball.lineups;
    expect(unconfirmed?.confirmed).toBe(false);
    expect(unconfirmed?.home.probablePitcher?.player.name).toBeTruthy();
    expect(unconfirmed?.home.battingOrder).toEqual([]);
    expect(unconfirmed?.home.supportStaff).toEqual([]);

    const second = await gql<{ v2: { baseball: { lineups: Lineup } } }>(stack.gateway.url, LINEUPS, { id });
    const confirmed = second.data?.v2.baseball.lineups;
    expect(confirmed?.confirmed).toBe(true);
    expect(confirmed?.home.battingOrder.map((b) => b.battingOrder)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(confirmed?.home.battingOrder[0]?.statistics.map((s) => s.name)).toContain('avg');
    expect(confirmed?.home.pitchers.length).toBeGreaterThan(1);
    expect(confirmed?.home.substitutes.length).toBeGreaterThan(0);
    expect(confirmed?.home.supportStaff.map((s) => s.role)).toContain('Manager');
    expect(confirmed?.home.probablePitcher?.player.name).toBe(unconfirmed?.home.probablePitcher?.player.name);
  });

  it('answers leagues whose lineups 404 or are not carried without a lineups request', async () => {
    for (const id of [game(6), game(8), game(10)]) {
      const result = await gql(stack.gateway.url, LINEUPS, { id: String(id) });
      expect(result.errors?.[0]?.extensions?.['code']).toBe('NOT_SUPPORTED');
      expect(result.errors?.[0]?.extensions?.['alternative']).toBeTruthy();
    }
    expect(await count(/\/lineups$/)).toBe(0);
    expect(await count(/^GET \/v2\/baseball\/api\/match\/\d+$/)).toBe(3);
  });

  it('polls once per interval for 50 subscribers and completes all of them on confirmed', async () => {
    const id = String(game(1)); // starts within 3 hours; confirms on its 3rd lineups request
    // 10 connections with 5 subscriptions each (the gateway caps subscriptions per socket).
    const clients = Array.from({ length: 10 }, () =>
      createClient({
        url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      }),
    );
    const runs = Array.from({ length: 50 }, (_, n) =>
      collectUntilComplete<{ confirmed: boolean; polls: number }>(
        clients[n % clients.length] as Client,
        `subscription($id: ID!) { baseballLineupConfirmation(matchId: $id) { confirmed polls lineups { confirmed home { battingOrder { battingOrder } } } } }`,
        { id },
        'baseballLineupConfirmation',
      ),
    );
    const results = await Promise.all(runs);
    await Promise.all(clients.map((c) => c.dispose()));
    for (const seen of results) {
      const last = seen.at(-1);
      expect(last?.confirmed).toBe(true);
      expect(last?.polls).toBe(3);
    }
    expect(await count(new RegExp(`/match/${id}/lineups$`))).toBe(3);
    expect(await count(new RegExp(`^GET /v2/baseball/api/match/${id}$`))).toBe(1);
  });

  it('does not poll before about 3 hours ahead of the first pitch', async () => {
    const id = String(game(5)); // 8 hours out
    const first = await new Promise<{ polls: number; nextCheckAt: string }>((resolve, reject) => {
      const unsubscribe = client.subscribe<{ baseballLineupConfirmation: { polls: number; nextCheckAt: string } }>(
        {
          query: `subscription($id: ID!) { baseballLineupConfirmation(matchId: $id) { polls nextCheckAt } }`,
          variables: { id },
        },
        {
          next: (message) => {
            if (message.data == null) return reject(new Error(JSON.stringify(message.errors)));
            resolve(message.data.baseballLineupConfirmation);
            setTimeout(unsubscribe, INTERVAL_MS * 4);
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });
    expect(first.polls).toBe(0);
    const hoursAhead = (Date.parse(first.nextCheckAt) - Date.now()) / 3_600_000;
    expect(hoursAhead).toBeGreaterThan(4);
    expect(hoursAhead).toBeLessThan(5.1);
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * 5));
    expect(await count(/\/lineups$/)).toBe(0);
  });
});
