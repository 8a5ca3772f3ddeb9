/**
 * The allowance ledger against the sandbox: refusal before sending, restart,
 * and stale answers when the upstream cannot give fresh ones.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts, setSandboxQuota } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface QuotaData {
  quota: { plan: string; limit: number; used: number; remaining: number; resetsAt: string };
}

const QUOTA = `{ quota { plan limit used remaining resetsAt } }`;
const athlete = (offset: number) =>
  `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + offset}) { name } } } }`;

describe('allowance ledger', () => {
  let stack: TestStack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  it('counts counted routes only, and shows the plan', async () => {
    stack = await startStack({ env: { SPORTS_API_PLAN: 'free' }, sandbox: { allowance: 100 } });
    await gql(stack.gateway.url, `{ sports { sport } }`);
    let quota = (await gql<QuotaData>(stack.gateway.url, QUOTA)).data!.quota;
    expect(quota).toMatchObject({ plan: 'FREE', limit: 100, used: 0, remaining: 100 });
    expect(Date.parse(quota.resetsAt)).toBeGreaterThan(Date.now());
    expect(new Date(quota.resetsAt).toISOString()).toMatch(/T00:00:00\.000Z$/);
    await gql(stack.gateway.url, athlete(1));
    quota = (await gql<QuotaData>(stack.gateway.url, QUOTA)).data!.quota;
    expect(quota).toMatchObject({ used: 1, remaining: 99 });
    // Now from the upstream's reset header (whole seconds from its answer): still the daily reset, to the second.
    expect(new Date(quota.resetsAt).toISOString()).toMatch(/T00:00:00\.000Z$/);
  });

  it("quota in an operation shows the allowance after that operation's own counted requests, as extensions.cost does", async () => {
    stack = await startStack({ env: { SPORTS_API_PLAN: 'free' }, sandbox: { allowance: 100 } });
    const spendAndLook = `query ($id: ID!) {
      v1 { hockey { athlete(id: $id) { name } } }
      quota { used remaining }
      q: quota { used @include(if: true) }
      ...More
      ... on Query { inline: quota { remaining } }
    }
    fragment More on Query { viaFragment: quota { ...Left } sports { sport } }
    fragment Left on Quota { remaining }`;
    const result = await gql<Record<string, { used?: number; remaining?: number }>>(stack.gateway.url, spendAndLook, {
      id: String(hockeyV1Ids.firstAthleteId + 5),
    });
    expect(result.errors).toBeUndefined();
    // Two upstream requests: the athlete (counted) and /reference/sports (free).
    expect(result.extensions?.['cost']).toMatchObject({ upstreamRequests: 2, allowanceRemaining: 99 });
    expect(result.data).toMatchObject({
      quota: { used: 1, remaining: 99 },
      q: { used: 1 },
      viaFragment: { remaining: 99 },
      inline: { remaining: 99 },
    });
    expect(Object.keys(result.data ?? {}).sort()).toEqual(['inline', 'q', 'quota', 'sports', 'v1', 'viaFragment']);
  });

  it('refuses at the allowance without calling the upstream, and remembers it after a restart', async () => {
    stack = await startStack({ env: { SPORTS_API_PLAN: 'free' }, sandbox: { allowance: 100 } });
    // 98 units were spent elsewhere today: the upstream's rate-limit headers tell the gateway.
    await setSandboxQuota(stack.sandbox.url, { used: 98 });
    expect((await gql(stack.gateway.url, athlete(1))).errors).toBeUndefined();
    expect((await gql(stack.gateway.url, athlete(2))).errors).toBeUndefined();
    expect((await gql<QuotaData>(stack.gateway.url, QUOTA)).data!.quota).toMatchObject({ used: 100, remaining: 0 });
    await resetCounts(stack.sandbox.url);

    const refused = await gql(stack.gateway.url, athlete(3));
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXHAUSTED' });
    expect(Date.parse(String(refused.errors?.[0]?.extensions?.['resetsAt']))).toBeGreaterThan(Date.now());
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);

    await stack.stopGateway();
    await stack.restartGateway();
    expect((await gql<QuotaData>(stack.gateway.url, QUOTA)).data!.quota).toMatchObject({ used: 100, remaining: 0 });
    const stillRefused = await gql(stack.gateway.url, athlete(4));
    expect(stillRefused.errors?.[0]?.extensions?.['code']).toBe('QUOTA_EXHAUSTED');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);

    // Free routes still work: /reference/sports is not counted.
    const sports = await gql(stack.gateway.url, `{ sports { sport } }`);
    expect(sports.errors).toBeUndefined();
  });

  it('concurrent operations cannot overshoot the allowance together', async () => {
    stack = await startStack({ env: { SPORTS_API_PLAN: 'free' }, sandbox: { allowance: 100 } });
    await setSandboxQuota(stack.sandbox.url, { used: 95 });
    await gql(stack.gateway.url, athlete(0));
    await resetCounts(stack.sandbox.url);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => gql(stack!.gateway.url, athlete(100 + i))));
    const refused = results.filter((r) => r.errors?.[0]?.extensions?.['code'] === 'QUOTA_EXHAUSTED');
    expect(refused).toHaveLength(6);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(4);
  });

  it('an upstream 429 is QUOTA_EXHAUSTED and stops further requests', async () => {
    stack = await startStack({ env: { SPORTS_API_PLAN: 'pro' }, sandbox: { allowance: 10 } });
    await setSandboxQuota(stack.sandbox.url, { used: 10 });
    const first = await gql(stack.gateway.url, athlete(1));
    expect(first.errors?.[0]?.extensions?.['code']).toBe('QUOTA_EXHAUSTED');
    await resetCounts(stack.sandbox.url);
    const second = await gql(stack.gateway.url, athlete(2));
    expect(second.errors?.[0]?.extensions?.['code']).toBe('QUOTA_EXHAUSTED');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  describe('stale rather than nothing', () => {
    const STANDINGS = `{ v1 { hockey { standings { entries { position competitor { name } } } } } }`;

    it('serves an expired entry with its age and reason when the allowance is spent', async () => {
      stack = await startStack({
        env: { SPORTS_API_PLAN: 'free', CACHE_TTL_STANDINGS: '1' },
        sandbox: { allowance: 100 },
      });
      const fresh = await gql(stack.gateway.url, STANDINGS);
      expect(fresh.extensions?.['stale']).toBeUndefined();
      await setSandboxQuota(stack.sandbox.url, { used: 99 });
      await gql(stack.gateway.url, athlete(1));
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await resetCounts(stack.sandbox.url);
      const stale = await gql(stack.gateway.url, STANDINGS);
      expect(stale.errors).toBeUndefined();
      expect(stale.data).toEqual(fresh.data);
      expect(stale.extensions?.['stale']).toEqual([
        { route: '/v1/hockey/standings', version: 'v1', ageSeconds: expect.any(Number), reason: 'QUOTA_EXHAUSTED' },
      ]);
      expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
      // Nothing cached for another season: that field errors.
      const uncached = await gql(stack.gateway.url, `{ v1 { hockey { standings(season: 2024) { season } } } }`);
      expect(uncached.errors?.[0]?.extensions?.['code']).toBe('QUOTA_EXHAUSTED');
    });

    for (const [name, fault, reason] of [
      ['502', { status: 502 }, 'UPSTREAM_UNAVAILABLE'],
      ['504', { status: 504 }, 'UPSTREAM_TIMEOUT'],
      ['reset', { kind: 'reset' as const }, 'UPSTREAM_UNREACHABLE'],
    ] as const) {
      it(`serves an expired entry when the upstream answers ${name}, then fresh data once it recovers`, async () => {
        stack = await startStack({ env: { CACHE_TTL_STANDINGS: '1' } });
        const fresh = await gql(stack.gateway.url, STANDINGS);
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        await injectFault(stack.sandbox.url, { route: 'GET /v1/hockey/standings', ...fault });
        const stale = await gql(stack.gateway.url, STANDINGS);
        expect(stale.errors).toBeUndefined();
        expect(stale.data).toEqual(fresh.data);
        expect(stale.extensions?.['stale']).toMatchObject([{ reason, ageSeconds: expect.any(Number) }]);
        await clearFaults(stack.sandbox.url);
        const recovered = await gql(stack.gateway.url, STANDINGS);
        expect(recovered.extensions?.['stale']).toBeUndefined();
        expect(recovered.data).toEqual(fresh.data);
      });
    }
  });
});
