/**
 * Issue 14, item 1 (the operation-result cache, one interface with a local
 * and a Redis implementation): two replicas on one real Redis share stored
 * results. A result stored by one replica is a hit on the other, with no
 * upstream request; it is still a client's own; it holds no longer than the
 * freshness of what it used, on either replica; and with Redis killed both
 * replicas keep answering from their own layer or by executing, then share
 * again when Redis returns.
 *
 * Hits are told by the replica's own counters: `..._shared_hits_total`
 * (a local miss answered from Redis) and `..._fast_hits_total` (a local hit
 * answered before yoga). Upstream requests are counted at the sandbox.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { gql, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { startCluster, type Cluster, type Replica } from './support/cluster.js';

const KEY_A = 'cluster-results-key-a-0001';
const KEY_B = 'cluster-results-key-b-0002';
const as = (key: string) => ({ authorization: `Bearer ${key}` });
/** Standings stay fresh 5 s here (the expiry test waits for it); athletes keep their hour. */
const STANDINGS_TTL_MS = 5_000;
const athlete = (offset: number): string =>
  `{ v1 { hockey { athlete(id: "${hockeyV1Ids.firstAthleteId + offset}") { name } } } }`;
const STANDINGS = `{ v1 { hockey { standings { entries { position points competitor { name } } } } } }`;
/** Where src/state/redis/redis-result-cache.ts keeps results under the default `REDIS_KEY_PREFIX`. */
const RESULT_KEYS = 'sports-graph:result:*';

interface Cost {
  estimated?: number;
  upstreamRequests: number;
  cacheHits: number;
}
const costOf = (response: GraphQLResponse): Cost => response.extensions?.['cost'] as Cost;

/** Polls `read` until `accept` holds, for at most `ms`; returns the last value. */
async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function counter(replica: Replica, name: 'fast_hits' | 'shared_hits'): Promise<number> {
  const text = await (await fetch(`${replica.url}/metrics`, { headers: as(KEY_A) })).text();
  const value = new RegExp(`^sports_graph_result_cache_${name}_total\\{replica="${replica.id}"\\} (\\d+)$`, 'm').exec(
    text,
  )?.[1];
  if (value === undefined) throw new Error(`no ${name} counter in /metrics of ${replica.id}`);
  return Number(value);
}

async function healthOf(replica: Replica): Promise<string> {
  return ((await (await fetch(`${replica.url}/healthz`)).json()) as { status: string }).status;
}

/** Two cold gateway processes start in beforeAll, as the other cluster tests allow them (cluster-harness.test.ts). */
const PROCESS_START_TIMEOUT_MS = 60_000;

describe('cluster: one operation-result cache', { timeout: 60_000 }, () => {
  let cluster: Cluster;
  let r1: Replica;
  let r2: Replica;

  /** A fresh connection each time: the test kills and restarts Redis. */
  async function withRedis<T>(use: (redis: Redis) => Promise<T>): Promise<T> {
    const redis = new Redis(cluster.redis.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      return await use(redis);
    } finally {
      redis.disconnect();
    }
  }
  const resultKeys = (): Promise<string[]> => withRedis((redis) => redis.keys(RESULT_KEYS));
  /** The result key that appears after `before` was read: polled, since a replica writes to Redis after answering. */
  async function newResultKey(before: readonly string[]): Promise<string> {
    const keys = await eventually(resultKeys, (now) => now.length > before.length);
    const added = keys.filter((key) => !before.includes(key));
    expect(added).toHaveLength(1);
    return added[0]!;
  }

  beforeAll(async () => {
    cluster = await startCluster({
      replicas: 2,
      env: { GATEWAY_CLIENT_KEYS: `a:${KEY_A},b:${KEY_B}`, CACHE_TTL_STANDINGS: String(STANDINGS_TTL_MS / 1_000) },
    });
    [r1, r2] = cluster.replicas as [Replica, Replica];
  }, PROCESS_START_TIMEOUT_MS);
  afterAll(() => cluster?.close(), PROCESS_START_TIMEOUT_MS);

  it('an operation answered on one replica is a result-cache hit on the other, with no upstream request', async () => {
    const before = await resultKeys();
    await resetCounts(cluster.sandbox.url);
    const first = await gql(r1.url, athlete(0), undefined, as(KEY_A));
    expect(first.errors).toBeUndefined();
    expect(costOf(first)).toMatchObject({ upstreamRequests: 1 });
    const key = await newResultKey(before);
    // Kept no longer than the athlete resource stays fresh (an hour).
    const left = await withRedis((redis) => redis.pttl(key));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(3_600_000);

    await resetCounts(cluster.sandbox.url);
    const [shared, fast] = [await counter(r2, 'shared_hits'), await counter(r2, 'fast_hits')];
    const hit = await gql(r2.url, athlete(0), undefined, as(KEY_A));
    expect(hit.errors).toBeUndefined();
    expect(hit.data).toEqual(first.data);
    expect(costOf(hit)).toMatchObject({ estimated: 0, upstreamRequests: 0, cacheHits: 1 });
    expect(await counter(r2, 'shared_hits')).toBe(shared + 1);
    expect(await counter(r2, 'fast_hits')).toBe(fast);

    // Now in r2's own layer: answered before yoga, without asking Redis again.
    const again = await gql(r2.url, athlete(0), undefined, as(KEY_A));
    expect(again.data).toEqual(first.data);
    expect(await counter(r2, 'fast_hits')).toBe(fast + 1);
    expect(await counter(r2, 'shared_hits')).toBe(shared + 1);
    expect((await requestCounts(cluster.sandbox.url)).total).toBe(0);
  });

  it("a client's stored result is not another client's on any replica", async () => {
    const before = await resultKeys();
    const forA = await gql(r1.url, athlete(1), undefined, as(KEY_A));
    expect(forA.errors).toBeUndefined();
    const keyOfA = await newResultKey(before);

    const shared = await counter(r2, 'shared_hits');
    const forB = await gql(r2.url, athlete(1), undefined, as(KEY_B));
    expect(forB.errors).toBeUndefined();
    expect(forB.data).toEqual(forA.data);
    // Executed for B, not served from A's entry: no shared hit, and B's own result is stored beside A's.
    expect(await counter(r2, 'shared_hits')).toBe(shared);
    await newResultKey([...before, keyOfA]);

    const forAOnR2 = await gql(r2.url, athlete(1), undefined, as(KEY_A));
    expect(costOf(forAOnR2)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    expect(await counter(r2, 'shared_hits')).toBe(shared + 1);
  });

  it('a shared result holds no longer than the freshness of what it used, on the replica that stored it and on the one that read it', async () => {
    const before = await resultKeys();
    const first = await gql(r1.url, STANDINGS, undefined, as(KEY_A));
    expect(first.errors).toBeUndefined();
    const key = await newResultKey(before);
    const left = await withRedis((redis) => redis.pttl(key));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(STANDINGS_TTL_MS);

    const shared = await counter(r2, 'shared_hits');
    const hit = await gql(r2.url, STANDINGS, undefined, as(KEY_A));
    expect(costOf(hit)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    expect(await counter(r2, 'shared_hits')).toBe(shared + 1);

    // Once Redis has let it go, r2's copy (kept for what was left) is gone too: r2 executes again.
    expect(
      await eventually(
        () => withRedis((redis) => redis.exists(key)),
        (exists) => exists === 0,
      ),
    ).toBe(0);
    await resetCounts(cluster.sandbox.url);
    const fast = await counter(r2, 'fast_hits');
    const later = await gql(r2.url, STANDINGS, undefined, as(KEY_A));
    expect(later.errors).toBeUndefined();
    expect(costOf(later)).toMatchObject({ upstreamRequests: 1 });
    expect(await counter(r2, 'fast_hits')).toBe(fast);
    expect(await counter(r2, 'shared_hits')).toBe(shared + 1);
    // r1's own copy is gone too: it answers from the result r2 just stored under the same key (a shared hit), not from its layer.
    expect(
      await eventually(
        () => withRedis((redis) => redis.exists(key)),
        (exists) => exists === 1,
      ),
    ).toBe(1);
    const [fastOnR1, sharedOnR1] = [await counter(r1, 'fast_hits'), await counter(r1, 'shared_hits')];
    const onR1 = await gql(r1.url, STANDINGS, undefined, as(KEY_A));
    expect(costOf(onR1)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    expect(await counter(r1, 'fast_hits')).toBe(fastOnR1);
    expect(await counter(r1, 'shared_hits')).toBe(sharedOnR1 + 1);
    expect((await requestCounts(cluster.sandbox.url)).byRoute).toEqual({ 'GET /v1/hockey/standings': 1 });
  });

  it('an entry in Redis that is not a stored result is a miss, never an error', async () => {
    const before = await resultKeys();
    const first = await gql(r1.url, athlete(4), undefined, as(KEY_A));
    expect(first.errors).toBeUndefined();
    const key = await newResultKey(before);
    await withRedis((redis) => redis.set(key, '{"not":"a stored result"}', 'KEEPTTL'));

    await resetCounts(cluster.sandbox.url);
    const shared = await counter(r2, 'shared_hits');
    const executed = await gql(r2.url, athlete(4), undefined, as(KEY_A));
    expect(executed.errors).toBeUndefined();
    expect(executed.data).toEqual(first.data);
    // Executed again, not a result hit: its upstream answer comes from the cluster's response cache (r1 fetched it).
    expect(costOf(executed)).toMatchObject({ upstreamRequests: 0, cacheHits: 1 });
    expect(await counter(r2, 'shared_hits')).toBe(shared);
    expect((await requestCounts(cluster.sandbox.url)).total).toBe(0);
  });

  it('with Redis killed both replicas answer from their own layer or by executing, without an error; when it returns they share again', async () => {
    // athlete(0) is in both replicas' layers (the first test).
    await cluster.redis.kill();
    for (const replica of [r1, r2])
      expect(
        await eventually(
          () => healthOf(replica),
          (status) => status === 'degraded',
        ),
      ).toBe('degraded');

    await resetCounts(cluster.sandbox.url);
    for (const replica of [r1, r2]) {
      const fast = await counter(replica, 'fast_hits');
      const stored = await gql(replica.url, athlete(0), undefined, as(KEY_A));
      expect(stored.errors).toBeUndefined();
      expect(costOf(stored)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
      expect(await counter(replica, 'fast_hits')).toBe(fast + 1);
    }
    // Nothing to share while Redis is away: each replica executes a new operation once, then answers it from its own layer.
    for (const replica of [r1, r2]) {
      const executed = await gql(replica.url, athlete(2), undefined, as(KEY_A));
      expect(executed.errors).toBeUndefined();
      expect(costOf(executed)).toMatchObject({ upstreamRequests: 1 });
      const fast = await counter(replica, 'fast_hits');
      const again = await gql(replica.url, athlete(2), undefined, as(KEY_A));
      expect(again.errors).toBeUndefined();
      expect(again.data).toEqual(executed.data);
      expect(await counter(replica, 'fast_hits')).toBe(fast + 1);
    }
    expect((await requestCounts(cluster.sandbox.url)).total).toBe(2);
    expect(r1.running && r2.running).toBe(true);

    // Back, empty: results stored from now on are shared again.
    await cluster.redis.restart();
    for (const replica of [r1, r2])
      expect(
        await eventually(
          () => healthOf(replica),
          (status) => status === 'ok',
        ),
      ).toBe('ok');
    const first = await gql(r1.url, athlete(3), undefined, as(KEY_A));
    expect(first.errors).toBeUndefined();
    await newResultKey([]);
    await resetCounts(cluster.sandbox.url);
    const shared = await counter(r2, 'shared_hits');
    const hit = await gql(r2.url, athlete(3), undefined, as(KEY_A));
    expect(hit.data).toEqual(first.data);
    expect(costOf(hit)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    expect(await counter(r2, 'shared_hits')).toBe(shared + 1);
    expect((await requestCounts(cluster.sandbox.url)).total).toBe(0);
  });
});
