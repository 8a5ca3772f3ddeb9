/**
 * Issue 16, item 5: the Redis round trips one operation costs a replica,
 * counted exactly, so that a change that adds one is caught. Read from the
 * replica's own `sports_graph_redis_round_trips_total` (src/state/redis/
 * round-trips.ts) before and after one operation, on two replicas of a real
 * Redis; upstream requests are counted at the sandbox.
 *
 * Background senders (the membership heartbeat, the ledger's periodic read)
 * run on their own timers whatever the operations do: they are left out
 * (test/support/redis-round-trips.ts) and nothing else is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { gql, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { startCluster, type Cluster, type Replica } from './support/cluster.js';
import { redisRoundTrips, roundTripsBetween } from './support/redis-round-trips.js';

const KEY = 'cluster-round-trips-key-0001';
const as = { authorization: `Bearer ${KEY}` };
const athlete = (offset: number, fields = 'name'): string =>
  `{ v1 { hockey { athlete(id: "${hockeyV1Ids.firstAthleteId + offset}") { ${fields} } } } }`;

interface Cost {
  upstreamRequests: number;
}
const costOf = (response: GraphQLResponse): Cost => response.extensions?.['cost'] as Cost;

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

  /** Runs `query` on `replica` and returns the round trips it cost, by sender; the answer must have no errors. */
  async function roundTripsOf(
    replica: Replica,
    query: string,
    upstreamRequests: number,
  ): Promise<Record<string, number>> {
    await resetCounts(cluster.sandbox.url);
    const before = await redisRoundTrips(replica.url, as);
    const response = await gql(replica.url, query, undefined, as);
    const moved = roundTripsBetween(before, await redisRoundTrips(replica.url, as));
    expect(response.errors).toBeUndefined();
    expect(costOf(response).upstreamRequests).toBe(upstreamRequests);
    expect((await requestCounts(cluster.sandbox.url)).total).toBe(upstreamRequests);
    return moved;
  }

  it('a cold operation: one round trip per step of its one load, the announcement inside the store', async () => {
    expect(await roundTripsOf(r1, athlete(0), 1)).toEqual({
      // The result cache's lookup (a miss), the estimate's read of the shared response tier (a miss),
      sgResultGet: 1,
      hget: 1,
      // the claim of the load, the allowance's reservation and commit, the store (which publishes the notice),
      sgCacheClaim: 1,
      sgLedgerReserve: 1,
      sgLedgerCommit: 1,
      sgCacheStore: 1,
      // and the result written for the other replicas.
      set: 1,
    });
  });

  it("a result-cache hit through the shared tier is one read; a hit in the replica's own layer is none", async () => {
    expect(await roundTripsOf(r1, athlete(1), 1)).toMatchObject({ set: 1 });
    expect(await roundTripsOf(r2, athlete(1), 0)).toEqual({ sgResultGet: 1 });
    expect(await roundTripsOf(r2, athlete(1), 0)).toEqual({});
  });

  it('an operation executed over cached upstream answers: the result lookup and its write, nothing for the answers', async () => {
    expect(await roundTripsOf(r1, athlete(2), 1)).toMatchObject({ set: 1 });
    // Another selection of the same athlete: a new result, the athlete answered from r1's own response cache.
    expect(await roundTripsOf(r1, athlete(2, 'name id'), 0)).toEqual({ sgResultGet: 1, set: 1 });
  });

  it(
    "RESULT_CACHE=false: an answer another replica stored costs one read (the estimate's, kept for execution), then nothing",
    async () => {
      expect(await roundTripsOf(r1, athlete(3), 1)).toMatchObject({ sgCacheStore: 1 });
      await r2.restart({ RESULT_CACHE: 'false' });
      expect(await roundTripsOf(r2, athlete(3), 0)).toEqual({ hget: 1 });
      expect(await roundTripsOf(r2, athlete(3), 0)).toEqual({});
    },
    PROCESS_START_TIMEOUT_MS,
  );
});
