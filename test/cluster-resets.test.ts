/**
 * The Redis ledger's scripts state `resetsAt` as the single-node ledger
 * does: the daily reset when the upstream's seconds land on it, otherwise a
 * whole second (issue 15, item 9). A gateway in cluster mode, in process,
 * on a redis-server of this file's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { gql, injectFault } from './support/client.js';
import { startRedis, type RedisServer } from './support/redis-server.js';
import { startStack, type TestStack } from './support/servers.js';

interface QuotaData {
  quota: { used: number; resetsAt: string };
}

describe('resetsAt in a cluster', () => {
  let redis: RedisServer;
  let stack: TestStack;
  beforeAll(async () => {
    redis = await startRedis();
    stack = await startStack({ env: { REDIS_URL: redis.url, SPORTS_API_PLAN: 'free' }, sandbox: { allowance: 100 } });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it("after the upstream's reset header: the daily reset, to the second", async () => {
    const spent = await gql(
      stack.gateway.url,
      `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId}) { name } } } }`,
    );
    expect(spent.errors).toBeUndefined();
    const { quota } = (await gql<QuotaData>(stack.gateway.url, '{ quota { used resetsAt } }')).data!;
    expect(quota.used).toBe(1);
    expect(new Date(quota.resetsAt).toISOString()).toMatch(/T00:00:00\.000Z$/);
  });

  it('after a 429 with Retry-After: a whole second that far ahead', async () => {
    await injectFault(stack.sandbox.url, {
      route: 'GET /v1/hockey/athletes',
      status: 429,
      headers: { 'retry-after': '120' },
    });
    const refused = await gql(
      stack.gateway.url,
      `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + 1}) { name } } } }`,
    );
    expect(refused.errors?.[0]?.extensions?.['code']).toBe('QUOTA_EXHAUSTED');
    const resetsAt = Date.parse(
      (await gql<QuotaData>(stack.gateway.url, '{ quota { used resetsAt } }')).data!.quota.resetsAt,
    );
    expect(resetsAt % 1_000).toBe(0);
    expect(resetsAt - Date.now()).toBeGreaterThan(100_000);
    expect(resetsAt - Date.now()).toBeLessThan(125_000);
  });
});
