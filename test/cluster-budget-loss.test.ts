/**
 * Issue 35, item 3: the shared budgets and the allowance are state that
 * must not vanish. Under `maxmemory` with a `volatile-*` policy, Redis full
 * of cached entries evicts keys that carry an expiry, so the budgets key
 * carries none; and a key lost anyway (FLUSHALL, DEL, a Redis restarted
 * empty) is restored from what the replica last saw, never from 0.
 *
 * One gateway in this process on a redis-server of each test's own.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { gql, requestCounts, type GraphQLResponse } from './support/client.js';
import { startRedis, type RedisServer } from './support/redis-server.js';
import type { StateBackend } from '../src/state/open-state.js';
import { startStack, type TestStack } from './support/servers.js';

const PREFIX = 'sports-graph:';
const ALICE = { 'x-client-key': 'key-alice' };
const BOB = { 'x-client-key': 'key-bob' };
const athlete = (offset: number): string =>
  `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + offset}) { name } } } }`;
const codeOf = (response: GraphQLResponse): unknown => response.errors?.[0]?.extensions?.['code'];
const scopeOf = (response: GraphQLResponse): unknown => response.errors?.[0]?.extensions?.['scope'];

describe('shared budgets and allowance survive memory pressure and data loss', { timeout: 60_000 }, () => {
  let redis: RedisServer | undefined;
  let stack: TestStack | undefined;
  let client: Redis | undefined;
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0)) await step();
    client?.disconnect();
    await stack?.close();
    await redis?.stop();
    client = undefined;
    stack = undefined;
    redis = undefined;
  });

  async function start(serverArgs: string[] = []): Promise<{ stack: TestStack; client: Redis }> {
    redis = await startRedis({ serverArgs });
    stack = await startStack({
      env: { REDIS_URL: redis.url, SPORTS_API_PLAN: 'free', GATEWAY_CLIENT_KEYS: 'alice:key-alice:3,bob:key-bob' },
    });
    client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    return { stack, client };
  }

  /** Alice spends her whole budget of 3 on distinct athletes; the 4th is refused for her budget. */
  async function spendAlice(url: string): Promise<void> {
    for (let offset = 0; offset < 3; offset += 1)
      expect((await gql(url, athlete(offset), undefined, ALICE)).errors).toBeUndefined();
    const refused = await gql(url, athlete(3), undefined, ALICE);
    expect([codeOf(refused), scopeOf(refused)]).toEqual(['QUOTA_EXHAUSTED', 'client']);
  }

  it('a Redis filled under volatile-lru evicts cached entries, not the budgets: a spent budget still refuses', async () => {
    const { stack, client } = await start(['--maxmemory', '2mb', '--maxmemory-policy', 'volatile-lru']);
    await spendAlice(stack.gateway.url);
    // Keys with an expiry, as the response tier, the result cache and APQ write them, until Redis has evicted plenty.
    const value = 'x'.repeat(64 * 1024);
    let evicted = 0;
    for (let index = 0; index < 400 && evicted < 60; index += 1) {
      await client.set(`${PREFIX}filler:${index}`, value, 'PX', 3_600_000);
      evicted = Number(/evicted_keys:(\d+)/.exec(await client.info('stats'))?.[1] ?? 0);
    }
    expect(evicted).toBeGreaterThanOrEqual(60);
    expect(await client.hget(`${PREFIX}budgets`, 'c:alice')).toBe('3');
    // No expiry that memory pressure could act on.
    expect(await client.pttl(`${PREFIX}budgets`)).toBe(-1);
    expect(await client.pttl(`${PREFIX}allowance`)).toBe(-1);
    const before = (await requestCounts(stack.sandbox.url)).byRoute['GET /v1/hockey/athletes'] ?? 0;
    const again = await gql(stack.gateway.url, athlete(10), undefined, ALICE);
    expect([codeOf(again), scopeOf(again)]).toEqual(['QUOTA_EXHAUSTED', 'client']);
    expect((await requestCounts(stack.sandbox.url)).byRoute['GET /v1/hockey/athletes'] ?? 0).toBe(before);
  });

  it('the start-up log warns once when the policy could evict the budgets (allkeys-lru)', async () => {
    const { stack } = await start(['--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru']);
    const warnings = stack.logs.filter((line) => line.includes('maxmemory-policy'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, policy: 'allkeys-lru' });
  });

  it('CONFIG disabled (as on managed Redis): the gateway starts and says once, at info level, that the policy is unknown', async () => {
    const { stack } = await start(['--rename-command', 'CONFIG', '']);
    const lines = stack.logs.filter((line) => line.includes('maxmemory-policy'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30 });
    await spendAlice(stack.gateway.url);
  });

  it('the budgets key deleted while the replica runs: the replica restores the counts it last saw, and the spent budget still refuses', async () => {
    const { stack, client } = await start();
    await spendAlice(stack.gateway.url);
    expect(await client.del(`${PREFIX}budgets`)).toBe(1);
    const again = await gql(stack.gateway.url, athlete(10), undefined, ALICE);
    expect([codeOf(again), scopeOf(again)]).toEqual(['QUOTA_EXHAUSTED', 'client']);
    expect(await client.hget(`${PREFIX}budgets`, 'c:alice')).toBe('3');
  });

  it('a replica that only saw the counts another one published restores them as well', async () => {
    const { stack: first, client } = await start();
    const second = await startStack({
      env: {
        REDIS_URL: redis!.url,
        REPLICA_ID: 'second',
        SPORTS_API_PLAN: 'free',
        GATEWAY_CLIENT_KEYS: 'alice:key-alice:3,bob:key-bob',
      },
    });
    cleanup.push(() => second.close());
    await spendAlice(first.gateway.url);
    // The second replica has run no budget script: what it knows of alice came on the bus.
    // Operations see a narrower view of the shared state; the object is the whole StateBackend.
    const { budgets } = second.gateway.services.state as unknown as StateBackend;
    for (let waited = 0; budgets.remaining('alice') !== 0 && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(budgets.remaining('alice')).toBe(0);
    expect(await client.del(`${PREFIX}budgets`)).toBe(1);
    const again = await gql(second.gateway.url, athlete(10), undefined, ALICE);
    expect([codeOf(again), scopeOf(again)]).toEqual(['QUOTA_EXHAUSTED', 'client']);
    expect(await client.hget(`${PREFIX}budgets`, 'c:alice')).toBe('3');
  });

  it('FLUSHALL while the replica runs: budgets and the allowance come back as the replica last saw them', async () => {
    const { stack, client } = await start();
    await spendAlice(stack.gateway.url);
    // 5 more for nobody's budget: 8 spent of the free plan's 100.
    for (let offset = 20; offset < 25; offset += 1)
      expect((await gql(stack.gateway.url, athlete(offset), undefined, BOB)).errors).toBeUndefined();
    await client.flushall();
    const again = await gql(stack.gateway.url, athlete(10), undefined, ALICE);
    expect([codeOf(again), scopeOf(again)]).toEqual(['QUOTA_EXHAUSTED', 'client']);
    expect(await client.hget(`${PREFIX}budgets`, 'c:alice')).toBe('3');
    // The replica reads the shared count every second: the next read finds it lost and raises it back to the 8 it saw,
    // before any upstream answer's headers could do so.
    const deadline = Date.now() + 10_000;
    let spent = await client.hget(`${PREFIX}allowance`, 'spent');
    while (spent !== '8' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      spent = await client.hget(`${PREFIX}allowance`, 'spent');
    }
    expect(spent).toBe('8');
    const quota = await gql<{ quota: { used: number } }>(stack.gateway.url, '{ quota { used } }', undefined, BOB);
    expect(quota.data?.quota.used).toBe(8);
  });
});
