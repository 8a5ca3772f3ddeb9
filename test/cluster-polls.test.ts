/**
 * The live ticker's poll and each baseball lineup watch run once per
 * cluster (issue 14, item 5; src/live/cluster-loop.ts), with real parts:
 * one sandbox, one redis-server, three gateway processes. Upstream
 * requests are counted by the sandbox (`GET /__sandbox/requests`); the
 * lease holder is read from `/healthz`.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { baseballIds } from '../sandbox/fixtures/baseball.js';
import { requestCounts, resetCounts } from './support/client.js';
import { startCluster, type Cluster, type Replica } from './support/cluster.js';
import { collectUntilComplete } from './support/odds-stream.js';

const MATCHES = 'GET /api/v1/world-cup/matches';
const TICKER = 'subscription { liveTicker { games { ref { nativeId } } pollIntervalSeconds stale } }';
const LINEUP_INTERVAL_MS = 150;
/** Lease TTL + tick (src/live/cluster-loop.ts defaults) and room for a loaded machine. */
const TAKEOVER_BOUND_MS = 3_000 + 1_000;
const SLACK_MS = 4_000;

interface Ticker {
  games: Array<{ ref: { nativeId: string } }>;
  pollIntervalSeconds: number;
  stale: boolean;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value).slice(0, 1_000)}`);
    await sleep(50);
  }
}

async function leases(replica: Replica): Promise<Record<string, string>> {
  return ((await (await fetch(`${replica.url}/healthz`)).json()) as { leases?: Record<string, string> }).leases ?? {};
}

describe('polls in a cluster: one per cluster, not one per replica', () => {
  let cluster: Cluster;
  const clients: Client[] = [];
  const clientOf = (replica: Replica): Client => {
    const client = createClient({
      url: `${replica.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(client);
    return client;
  };
  const polls = async (route: string | RegExp): Promise<number> => {
    const { byRoute } = await requestCounts(cluster.sandbox.url);
    if (typeof route === 'string') return byRoute[route] ?? 0;
    return Object.entries(byRoute)
      .filter(([name]) => route.test(name))
      .reduce((sum, [, n]) => sum + n, 0);
  };

  beforeAll(async () => {
    // Mega, a 100 % share and a 1 s cache: the ticker's formula gives a 1 s poll, short enough to count.
    cluster = await startCluster({
      replicas: 3,
      env: {
        SPORTS_API_PLAN: 'mega',
        LIVE_TICKER_ALLOWANCE_PERCENT: '100',
        LIVE_TICKER_MIN_INTERVAL_MS: '1',
        CACHE_TTL_WORLDCUP: '1',
        LINEUP_POLL_INTERVAL_MS: String(LINEUP_INTERVAL_MS),
        CACHE_TTL_LINEUPS: '0',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await cluster?.close();
  }, 60_000);

  it('a baseball lineup watch with subscribers on every replica reads the match once and polls once per interval; all complete confirmed', async () => {
    await resetCounts(cluster.sandbox.url);
    const id = String(baseballIds.firstGame + 1); // starts within 3 hours; confirms on its 3rd lineups request
    const runs = cluster.replicas.flatMap((replica) =>
      Array.from({ length: 3 }, () =>
        collectUntilComplete<{ confirmed: boolean; polls: number }>(
          clientOf(replica),
          'subscription($id: ID!) { baseballLineupConfirmation(matchId: $id) { confirmed polls } }',
          { id },
          'baseballLineupConfirmation',
        ),
      ),
    );
    const results = await Promise.all(runs);
    for (const seen of results) expect(seen.at(-1)).toEqual({ confirmed: true, polls: 3 });
    expect(await polls(new RegExp(`/match/${id}/lineups$`))).toBe(3);
    expect(await polls(new RegExp(`^GET /v2/baseball/api/match/${id}$`))).toBe(1);
  }, 60_000);

  it('the live ticker: subscribers on every replica share one poll; the holder killed, a survivor polls on, still once per interval', async () => {
    await sleep(1_100); // any cached matches answer expires
    await resetCounts(cluster.sandbox.url);
    const received = cluster.replicas.map((replica) => {
      const values: Ticker[] = [];
      clientOf(replica).subscribe<{ liveTicker: Ticker }>(
        { query: TICKER },
        { next: (r) => void values.push(r.data!.liveTicker), error: () => undefined, complete: () => undefined },
      );
      return values;
    });
    await until(
      async () => received.map((v) => v.length),
      (lengths) => lengths.every((n) => n > 0),
      10_000,
      'a ticker snapshot on every replica',
    );
    expect(new Set(received.map((v) => JSON.stringify(v[0]!.games))).size).toBe(1);

    // One poll a second for the cluster: over 3 s, 2 to 5 requests (three replicas polling alone would make 9 or more).
    const start = await polls(MATCHES);
    await sleep(3_000);
    const during = (await polls(MATCHES)) - start;
    expect(during).toBeGreaterThanOrEqual(2);
    expect(during).toBeLessThanOrEqual(5);

    const holderId = await until(
      () => leases(cluster.replicas[0]!),
      (l) => l['ticker'] !== undefined,
      SLACK_MS,
      'a ticker lease',
    );
    const holder = cluster.replicas.find((r) => r.id === holderId['ticker'])!;
    await holder.kill();
    const survivors = cluster.replicas.filter((r) => r.running);
    const killed = await polls(MATCHES);
    // A survivor takes the lease within the bound, and polls again.
    await until(
      () => leases(survivors[0]!),
      (l) => l['ticker'] !== undefined && l['ticker'] !== holder.id,
      TAKEOVER_BOUND_MS + SLACK_MS,
      'a survivor holding the ticker lease',
    );
    await until(
      () => polls(MATCHES),
      (n) => n > killed,
      1_000 + SLACK_MS,
      'a poll after the takeover',
    );
    const after = await polls(MATCHES);
    await sleep(3_000);
    const later = (await polls(MATCHES)) - after;
    expect(later).toBeGreaterThanOrEqual(2);
    expect(later).toBeLessThanOrEqual(5);
  }, 60_000);
});
