/**
 * Charged when reserved, at every door (issue 35, item 2): a subscription's
 * shared poll over SSE, a query over graphql-ws, and `_entities` on the
 * federation subgraph, each by a client with a budget, against an upstream
 * that never answers. Each request the ledger kept is charged to the
 * client, although no answer ever came back to be counted.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { Ledger } from '../src/spend/ledger.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { clearFaults, gqlAt, injectFault, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const KEY = 'door-client-key-0001';
const as = { authorization: `Bearer ${KEY}` };
const inFlight = (ledger: Ledger): number => ledger.snapshot().remaining - ledger.available();

describe('every door charges its client when the request is reserved', () => {
  let stack: TestStack;
  let nextAthlete = 0;
  const budgetLeft = (): number => stack.gateway.services.spend.budgetRemaining('door') ?? Number.NaN;
  const used = (): number => stack.gateway.services.ledger.snapshot().used;
  const quiet = () =>
    vi.waitFor(() => expect(inFlight(stack.gateway.services.ledger)).toBe(0), { timeout: 20_000, interval: 50 });

  /** Runs `send` against a hung route; returns what the ledger kept and what the client was charged meanwhile. */
  async function againstHungRoute(
    route: string,
    send: () => Promise<unknown>,
  ): Promise<{ ledgered: number; charged: number; sent: number }> {
    await quiet();
    await resetCounts(stack.sandbox.url);
    const budgetBefore = budgetLeft();
    const usedBefore = used();
    await injectFault(stack.sandbox.url, { route, kind: 'hang' });
    await send();
    await quiet();
    await clearFaults(stack.sandbox.url);
    return {
      ledgered: used() - usedBefore,
      charged: budgetBefore - budgetLeft(),
      sent: (await requestCounts(stack.sandbox.url)).total,
    };
  }

  beforeAll(async () => {
    stack = await startStack({
      sandbox: { allowance: 150_000 },
      env: {
        SPORTS_API_PLAN: 'mega',
        GATEWAY_CLIENT_KEYS: `door:${KEY}:200`,
        // Requests outlive their operation: the operation ends before any hung request gives up.
        OPERATION_TIMEOUT_MS: '1000',
        UPSTREAM_HEADERS_TIMEOUT_MS: '2500',
        // The ticker polls every second, so that a hung poll is seen quickly.
        LIVE_TICKER_ALLOWANCE_PERCENT: '100',
        LIVE_TICKER_MIN_INTERVAL_MS: '1',
        CACHE_TTL_WORLDCUP: '1',
      },
    });
  });
  afterAll(() => stack.close());

  it('SSE subscription: the shared polls its client pays for are charged although none is answered', async () => {
    const result = await againstHungRoute('GET /api/v1/world-cup/matches', async () => {
      const abort = new AbortController();
      const response = await fetch(`${stack.gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...as },
        body: JSON.stringify({ query: 'subscription { liveTicker { games { statusGroup } } }' }),
        signal: abort.signal,
      });
      expect(response.status).toBe(200);
      // Two polls reached the hung upstream (each ends at its deadline, the next follows): then leave.
      await vi.waitFor(async () => expect((await requestCounts(stack.sandbox.url)).total).toBeGreaterThanOrEqual(2), {
        timeout: 20_000,
        interval: 100,
      });
      abort.abort();
      await response.body?.cancel().catch(() => undefined);
    });
    expect(result.sent).toBeGreaterThanOrEqual(2);
    expect(result.ledgered).toBeGreaterThanOrEqual(result.sent);
    expect(result.charged).toBe(result.ledgered);
  });

  it('graphql-ws query: every athlete request sent is charged', async () => {
    const result = await againstHungRoute('GET /v1/hockey/athletes', async () => {
      const client = createClient({
        url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: as,
      });
      const ids = Array.from({ length: 3 }, () => `"${hockeyV1Ids.firstAthleteId + nextAthlete++}"`).join(', ');
      await new Promise<void>((resolve, reject) => {
        client.subscribe(
          { query: `{ v1 { hockey { athletes(ids: [${ids}]) { name } } } }` },
          { next: () => undefined, error: reject, complete: resolve },
        );
      });
      await client.dispose();
    });
    expect(result.sent).toBe(3);
    expect(result.ledgered).toBe(3);
    expect(result.charged).toBe(3);
  });

  it('federation /subgraph: _entities pays for each representation it sent', async () => {
    const result = await againstHungRoute('GET /v1/hockey/athletes', async () => {
      const representations = Array.from({ length: 3 }, () => ({
        __typename: 'V1HockeyAthlete',
        ref: { version: 'V1', nativeId: String(hockeyV1Ids.firstAthleteId + nextAthlete++), sport: 'hockey' },
      }));
      const answer = await gqlAt(
        `${stack.gateway.url}/subgraph`,
        'query ($r: [_Any!]!) { _entities(representations: $r) { ... on V1HockeyAthlete { name } } }',
        { r: representations },
        as,
      );
      expect(answer.errors?.length).toBe(3);
    });
    expect(result.sent).toBe(3);
    expect(result.ledgered).toBe(3);
    expect(result.charged).toBe(3);
  });
});
