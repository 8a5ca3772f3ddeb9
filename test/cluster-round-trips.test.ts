/**
 * Issue 16, item 5: the Redis round trips one operation costs a replica,
 * counted exactly, so that a change that adds one is caught. Read from the
 * replica's own `sports_graph_redis_round_trips_total` (src/state/redis/
 * round-trips.ts) before and after one operation, on two replicas of a real
 * Redis; upstream requests are counted at the sandbox.
 *
 * Background senders (the membership heartbeat, the ledger's periodic read)
 * run on their own timers whatever the operations do: they are left out of
 * the sums and nothing else is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../src/sandbox/fixtures/hockey-v1.js';
import { gql, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { startCluster, type Cluster, type Replica } from './support/cluster.js';

const KEY = 'cluster-round-trips-key-0001';
const as = { authorization: `Bearer ${KEY}` };
const athlete = (offset: number, fields = 'name'): string => `{ v1 { hockey { athlete(id: "${hockeyV1Ids.firstAthleteId + offset}") { ${fields} } } } }`;
/** Timers' senders, not an operation's: the heartbeat (redis-link.ts) and the ledger's refresh (redis-ledger.ts). */
const BACKGROUND = new Set(['sgHeartbeat', 'sgLedgerRead']);

interface Cost {
  upstreamRequests: number;
}
const costOf = (response: GraphQLResponse): Cost => response.extensions?.['cost'] as Cost;

/** The replica's round trips so far, by sender, background senders left out. */
async function roundTrips(replica: Replica): Promise<Map<string, number>> {
  const text = await (await fetch(`${replica.url}/metrics`, { headers: as })).text();
  const bySender = new Map<string, number>();
  for (const [, sender, value] of text.matchAll(/^sports_graph_redis_round_trips_total\{sender="([^"]+)",replica="[^"]+"\} (\d+)$/gm)) {
    if (sender !== undefined && !BACKGROUND.has(sender)) bySender.set(sender, Number(value));
  }
  return bySender;
}

/** Round trips `replica` made while `run` ran, by sender (only those that moved). */
async function roundTripsDuring(replica: Replica, run: () => Promise<void>): Promise<Record<string, number>> {
  const before = await roundTrips(replica);
  await run();
  const after = await roundTrips(replica);
  const moved: Record<string, number> = {};
  for (const [sender, value] of after) if (value !== (before.get(sender) ?? 0)) moved[sender] = value - (before.get(sender) ?? 0);
  return moved;
}

const PROCESS_START_TIMEOUT_MS = 60_000;

describe('cluster: Redis round trips per operation', { timeout: 60_000 }, () => {
  let cluster: Cluster;
  let r1: Replica;
  let r2: Replica;

  beforeAll(async () => {
    cluster = await startCluster({ replicas: 2, env: { GATEWAY_CLIENT_KEYS: `a:${KEY}` } });
    [r1, r2] = cluster.replicas as [Replica, Replica];
  }, PROCESS_START_TIMEOUT_MS);
  afterAll(() => cluster?.close(), PROCESS_START_TIMEOUT_MS);

  it('explore', async () => {
    await resetCounts(cluster.sandbox.url);
    let first: GraphQLResponse | undefined;
    const cold = await roundTripsDuring(r1, async () => {
      first = await gql(r1.url, athlete(0), undefined, as);
    });
    console.log('cold', cold, costOf(first!), (await requestCounts(cluster.sandbox.url)).total);
    const hit = await roundTripsDuring(r2, async () => {
      await gql(r2.url, athlete(0), undefined, as);
    });
    console.log('shared hit', hit);
    const local = await roundTripsDuring(r2, async () => {
      await gql(r2.url, athlete(0), undefined, as);
    });
    console.log('local hit', local);
    const executed = await roundTripsDuring(r1, async () => {
      await gql(r1.url, athlete(0, 'name id'), undefined, as);
    });
    console.log('executed', executed);
    const cold2 = await roundTripsDuring(r2, async () => {
      first = await gql(r2.url, athlete(1), undefined, as);
    });
    console.log('cold2', cold2);
    expect(1).toBe(1);
  });
});
