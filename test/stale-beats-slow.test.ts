/**
 * Issue 12, finding "Stale loses to the deadline": with a value in the cache
 * past its TTL, a refresh that has not answered within CACHE_STALE_IF_SLOW_MS
 * answers the field stale, and goes on in the background to refill the
 * cache, counted once. Callers with nothing cached still wait to the deadline,
 * and a refresh quicker than the bound answers fresh.
 *
 * The result cache is off so every operation reaches the upstream cache;
 * header and body timeouts are longer than the deadline, so that what bounds
 * a hang or a trickle is the deadline itself (as in test/faults.test.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { v1Routes } from '../src/upstream/routes/v1.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { trackUnhandledRejections } from './support/fuzz.js';
import { send } from './support/faults.js';
import { startStack, type TestStack } from './support/servers.js';

const DEADLINE_MS = 6_000;
const SLOW_MS = 1_000;
const STANDINGS_ROUTE = 'GET /v1/hockey/standings';
const STANDINGS = { query: `{ v1 { hockey { standings { entries { position competitor { name } } } } } }` };
/** A season never asked for before: nothing cached for it. */
const UNCACHED_STANDINGS = { query: `{ v1 { hockey { standings(season: 2024) { season } } } }` };

interface Cost {
  upstreamRequests: number;
  cacheHits: number;
}
const costOf = (response: GraphQLResponse): Cost => response.extensions?.['cost'] as Cost;

/** Resolves once `condition` holds, checking every 25 ms (the test's own timeout bounds the wait). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe('stale beats slow: a cached value answers when the refresh is slow', () => {
  let stack: TestStack;
  const standingsFresh = (): boolean => stack.gateway.services.fetcher.isCached(v1Routes.standings, {});
  const standingsRequests = async (): Promise<number> =>
    (await requestCounts(stack.sandbox.url)).byRoute[STANDINGS_ROUTE] ?? 0;
  const used = (): number => stack.gateway.services.ledger.snapshot().used;

  beforeAll(async () => {
    stack = await startStack({
      env: {
        RESULT_CACHE: 'false',
        CACHE_TTL_STANDINGS: '2',
        OPERATION_TIMEOUT_MS: String(DEADLINE_MS),
        CACHE_STALE_IF_SLOW_MS: String(SLOW_MS),
        UPSTREAM_HEADERS_TIMEOUT_MS: '20000',
        UPSTREAM_BODY_TIMEOUT_MS: '20000',
      },
    });
  });
  afterAll(() => stack.close());
  beforeEach(async () => {
    await clearFaults(stack.sandbox.url);
    // A fresh gateway per test: no cache entry or refresh left by the test before.
    await stack.stopGateway();
    await stack.restartGateway({}, { freshData: true });
  });

  /** Standings loaded once, then left to expire (still within CACHE_MAX_STALE_SECONDS). */
  async function cachedThenExpired(): Promise<GraphQLResponse> {
    const fresh = await gql(stack.gateway.url, STANDINGS.query);
    expect(fresh.errors).toBeUndefined();
    expect(fresh.extensions?.['stale']).toBeUndefined();
    await until(() => !standingsFresh());
    await resetCounts(stack.sandbox.url);
    return fresh;
  }

  it('a trickled refresh: the field answers stale (UPSTREAM_SLOW) well before the deadline, for every caller, one request upstream', async () => {
    const rejections = trackUnhandledRejections();
    rejections.start();
    try {
      const fresh = await cachedThenExpired();
      await injectFault(stack.sandbox.url, { route: STANDINGS_ROUTE, kind: 'trickle' });
      const answers = await Promise.all([send(stack, STANDINGS), send(stack, STANDINGS), send(stack, STANDINGS)]);
      for (const { value, elapsedMs } of answers) {
        expect(value.errors).toBeUndefined();
        expect(value.data).toEqual(fresh.data);
        expect(value.extensions?.['stale']).toEqual([
          { route: '/v1/hockey/standings', version: 'v1', ageSeconds: expect.any(Number), reason: 'UPSTREAM_SLOW' },
        ]);
        // Loosely: the bound is 1 s, the deadline 6 s.
        expect(elapsedMs).toBeLessThan(DEADLINE_MS / 2);
      }
      // One of them started the refresh; the others joined it.
      expect(answers.map(({ value }) => costOf(value).upstreamRequests).sort()).toEqual([0, 0, 1]);
      expect(await standingsRequests()).toBe(1);

      // A caller arriving once the refresh is already past the bound does not wait for it, nor send another.
      const late = await send(stack, STANDINGS);
      expect(late.value.extensions?.['stale']).toMatchObject([{ reason: 'UPSTREAM_SLOW' }]);
      expect(costOf(late.value)).toMatchObject({ upstreamRequests: 0, cacheHits: 1 });
      expect(await standingsRequests()).toBe(1);

      // The trickle outlasts the deadline of the operation that started the
      // refresh: it fails in the background with nobody left waiting, and
      // that failure must be handled, not an unhandled rejection.
      await until(async () =>
        (await (await fetch(`${stack.gateway.url}/metrics`)).text()).includes(
          'route="/v1/hockey/standings",status="error"',
        ),
      );
      expect(rejections.seen()).toEqual([]);
      expect(standingsFresh()).toBe(false);
    } finally {
      rejections.stop();
    }
  });

  it('the slow refresh completes in the background: the cache is refilled, the next request is a fresh hit, the upstream and the ledger counted it once', async () => {
    const fresh = await cachedThenExpired();
    const usedBefore = used();
    // Three times the bound: the stale answer comes first on a busy machine too.
    await injectFault(stack.sandbox.url, { route: STANDINGS_ROUTE, kind: 'delay', latencyMs: 3 * SLOW_MS, times: 1 });

    const stale = await gql(stack.gateway.url, STANDINGS.query);
    expect(stale.errors).toBeUndefined();
    expect(stale.data).toEqual(fresh.data);
    expect(stale.extensions?.['stale']).toMatchObject([{ reason: 'UPSTREAM_SLOW' }]);
    // The operation started the refresh: it is charged the request, not given a cache hit.
    expect(costOf(stale)).toMatchObject({ upstreamRequests: 1, cacheHits: 0 });

    await until(standingsFresh);
    const hit = await gql(stack.gateway.url, STANDINGS.query);
    expect(hit.errors).toBeUndefined();
    expect(hit.extensions?.['stale']).toBeUndefined();
    expect(costOf(hit)).toMatchObject({ upstreamRequests: 0, cacheHits: 1 });
    expect(hit.data).toEqual(fresh.data);
    expect(await standingsRequests()).toBe(1);
    expect(used() - usedBefore).toBe(1);
  });

  it('a hang with nothing cached still ends with the coded deadline error', async () => {
    await resetCounts(stack.sandbox.url);
    await injectFault(stack.sandbox.url, { route: STANDINGS_ROUTE, kind: 'hang' });
    const { value, elapsedMs } = await send(stack, UNCACHED_STANDINGS);
    expect(value.data).toEqual({ v1: { hockey: { standings: null } } });
    expect(value.errors).toHaveLength(1);
    expect(value.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNREACHABLE' });
    expect(value.extensions?.['stale']).toBeUndefined();
    // It waited for the deadline, not for the stale bound.
    expect(elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
    expect(await standingsRequests()).toBe(1);
  });

  it('a refresh slower than usual but inside the bound answers fresh, with no stale marking', async () => {
    await stack.stopGateway();
    // A wide bound, so the delay stays well inside it on a busy machine.
    await stack.restartGateway({ CACHE_STALE_IF_SLOW_MS: '4000' }, { freshData: true });
    const fresh = await cachedThenExpired();
    await injectFault(stack.sandbox.url, { route: STANDINGS_ROUTE, kind: 'delay', latencyMs: 300, times: 1 });
    const { value, elapsedMs } = await send(stack, STANDINGS);
    expect(value.errors).toBeUndefined();
    expect(value.extensions?.['stale']).toBeUndefined();
    expect(costOf(value)).toMatchObject({ upstreamRequests: 1, cacheHits: 0 });
    expect(value.data).toEqual(fresh.data);
    expect(elapsedMs).toBeGreaterThanOrEqual(300);
    expect(await standingsRequests()).toBe(1);
  });
});

describe('CACHE_STALE_IF_SLOW_MS', () => {
  it('defaults to 1.5 s, follows a short deadline down, and must stay below OPERATION_TIMEOUT_MS', () => {
    expect(loadConfig({}).cacheStaleIfSlowMs).toBe(1_500);
    // Setting only a short deadline never stops start-up.
    expect(loadConfig({ OPERATION_TIMEOUT_MS: '1500' }).cacheStaleIfSlowMs).toBe(750);
    expect(loadConfig({ CACHE_STALE_IF_SLOW_MS: '9999' }).cacheStaleIfSlowMs).toBe(9_999);
    expect(() => loadConfig({ CACHE_STALE_IF_SLOW_MS: '10000' })).toThrow(ConfigError);
    expect(() => loadConfig({ CACHE_STALE_IF_SLOW_MS: '10000' })).toThrow(
      /CACHE_STALE_IF_SLOW_MS \(10000\) must be below OPERATION_TIMEOUT_MS \(10000\)/,
    );
    expect(() => loadConfig({ CACHE_STALE_IF_SLOW_MS: '0' })).toThrow(/CACHE_STALE_IF_SLOW_MS must be an integer >= 1/);
  });
});
