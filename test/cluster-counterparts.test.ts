/**
 * Issue 32 in a cluster: a counterpart one replica learned is kept in the
 * cluster's Redis (src/state/redis/redis-link-store.ts), so another replica
 * answers it without a request, and its estimate says so before it runs
 * (the estimate reads the store, not the response tier: an estimate of 0 is
 * the link store's doing). Two replicas on the test's own redis-server.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startCluster, type Cluster } from './support/cluster.js';
import { until } from './support/until.js';

/** Two cold Node starts on a busy 2-core machine. */
const PROCESS_START_TIMEOUT_MS = 60_000;

const gid = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const query = `query($id: ID!) { counterparts(id: $id, versions: [V1, V3]) { version nativeId confidence evidence status } }`;

interface Answer {
  counterparts: Array<{ version: string; nativeId: string; status: string }>;
}

describe('counterparts shared by a cluster', () => {
  let cluster: Cluster;
  let redis: Redis;
  beforeAll(async () => {
    // No shared result cache: the second replica must execute the operation.
    cluster = await startCluster({ replicas: 2, env: { RESULT_CACHE: 'false' } });
    redis = new Redis(cluster.redis.url);
  }, PROCESS_START_TIMEOUT_MS);
  afterAll(async () => {
    redis?.disconnect();
    await cluster?.close();
  }, PROCESS_START_TIMEOUT_MS);

  it('learned on r1, it costs 0 on r2, estimate included', async () => {
    const [r1, r2] = cluster.replicas.map((replica) => replica.url) as [string, string];
    const id = gid('V2:football:V2Team:970002');

    await resetCounts(cluster.sandbox.url);
    const first = await gql<Answer>(r1, query, { id });
    expect(first.errors).toBeUndefined();
    expect(first.extensions?.['cost']).toMatchObject({ estimated: 3 });
    expect((await requestCounts(cluster.sandbox.url)).byRoute).toMatchObject({
      'GET /v2/football/api/teams/970002': 1,
      'GET /search': 1,
      'GET /v3/search': 1,
    });
    expect(first.data?.counterparts).toEqual([
      expect.objectContaining({ version: 'V1', nativeId: '91002', status: 'MATCH' }),
      expect.objectContaining({ version: 'V3', nativeId: '880002', status: 'CANDIDATE' }),
    ]);
    // What r1 learned is in the cluster's Redis, one field per entity and version.
    expect(await redis.hlen('sports-graph:counterparts')).toBe(2);

    await resetCounts(cluster.sandbox.url);
    const second = await gql<Answer>(r2, query, { id });
    expect(second.errors).toBeUndefined();
    expect(second.extensions?.['cost']).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    expect((await requestCounts(cluster.sandbox.url)).total).toBe(0);
    expect(second.data).toEqual(first.data);
  });

  it('Redis killed: the field still answers and spends what its estimate said; what a replica learns alone, it keeps', async () => {
    const r2 = cluster.replicas[1]!.url;
    const id = gid('V2:football:V2Team:970001');
    await cluster.redis.kill();
    try {
      await until('r2 reports degraded', async () => {
        const health = (await (await fetch(`${r2}/healthz`)).json()) as { status: string };
        return health.status === 'degraded';
      });
      await resetCounts(cluster.sandbox.url);
      const alone = await gql<Answer>(r2, query, { id });
      expect(alone.errors).toBeUndefined();
      expect(alone.extensions?.['cost']).toMatchObject({ estimated: 3 });
      // Counted: the team and the two searches (the free sport catalogue may be read again: it was the tier's).
      expect((await requestCounts(cluster.sandbox.url)).byRoute).toMatchObject({
        'GET /v2/football/api/teams/970001': 1,
        'GET /search': 1,
        'GET /v3/search': 1,
      });
      expect(alone.data?.counterparts).toEqual(
        expect.arrayContaining([expect.objectContaining({ version: 'V1', status: 'MATCH' })]),
      );

      await resetCounts(cluster.sandbox.url);
      const again = await gql<Answer>(r2, query, { id });
      expect(again.errors).toBeUndefined();
      expect(again.extensions?.['cost']).toMatchObject({ estimated: 0, upstreamRequests: 0 });
      expect((await requestCounts(cluster.sandbox.url)).total).toBe(0);
      expect(again.data).toEqual(alone.data);
    } finally {
      await cluster.redis.restart();
    }
  });
});
