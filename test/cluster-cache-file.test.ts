/**
 * Issue 18, item 4: in a cluster, Redis is the shared upstream cache and
 * each replica's cache file (`CACHE_STORE=disk`) is only its own layer, in
 * front: a replica answers from its own copy first and asks Redis on a
 * miss. Shown with Redis emptied: a replica restarted after Redis lost
 * everything still spends 0 requests on what it had fetched, because its
 * own file answers. Real parts: sandbox, redis-server, a gateway process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { gql, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { cacheFileSettled } from './support/cache-file.js';
import { startCluster, type Cluster } from './support/cluster.js';

const TEAM_AND_NEWS = `{
  v1 { hockey { news(limit: 3) { articles { title } } } }
  v2(sport: ICE_HOCKEY) { hockey { team(id: "${hockeyV2Ids.firstTeam + 2}") { detail { name } roster { position } } } }
}`;
const upstreamRequestsOf = (response: GraphQLResponse): number =>
  (response.extensions!['cost'] as { upstreamRequests: number }).upstreamRequests;

describe('cluster: the replica cache file in front of Redis', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ replicas: 1, env: { LOG_LEVEL: 'warn' } });
  }, 60_000);
  afterAll(() => cluster?.close());

  it('a replica restarted after Redis lost everything answers from its own file: 0 requests', async () => {
    const replica = cluster.replicas[0]!;
    await resetCounts(cluster.sandbox.url);
    const first = await gql(replica.url, TEAM_AND_NEWS);
    expect(first.errors).toBeUndefined();
    const spent = (await requestCounts(cluster.sandbox.url)).total;
    expect(spent).toBeGreaterThanOrEqual(3);
    await cacheFileSettled(replica.url, spent);

    // Redis comes back empty: nothing shared is left to answer from.
    await cluster.redis.restart();
    await replica.restart();
    const again = await gql(replica.url, TEAM_AND_NEWS);
    expect(again.errors).toBeUndefined();
    expect(again.data).toEqual(first.data);
    expect(upstreamRequestsOf(again)).toBe(0);
    expect((await requestCounts(cluster.sandbox.url)).total).toBe(spent);
  }, 90_000);
});
