/**
 * Per-client daily budgets carved out of the plan's allowance: refused
 * before execution when far past what is left, otherwise paid field by
 * field (what cannot be paid errors at its path), charged after, shown in `extensions.cost`, kept across
 * a restart, and the same over graphql-ws.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ConfigError, loadConfig } from '../src/config.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const SMALL = 'small-client-key-0001';
const BIG = 'big-client-key-0002';
const FREE = 'free-client-key-0003';
const KEYS = `small:${SMALL}:3,big:${BIG}:100,free:${FREE}`;
const athletes = (...offsets: number[]) =>
  `{ v1 { hockey { athletes(ids: [${offsets.map((o) => `"${hockeyV1Ids.firstAthleteId + o}"`).join(', ')}]) { name } } } }`;
const as = (key: string) => ({ authorization: `Bearer ${key}` });
const costOf = (extensions: Record<string, unknown> | undefined) => extensions?.['cost'] as Record<string, unknown>;

describe('budget configuration', () => {
  const base = { SPORTS_API_KEY: 'k', SPORTS_API_BASE_URL: 'http://127.0.0.1:9' };

  it('refuses budgets that add up past the plan allowance, naming the variable', () => {
    expect(() =>
      loadConfig({ ...base, SPORTS_API_PLAN: 'free', GATEWAY_CLIENT_KEYS: 'a:key-a:60,b:key-b:41' }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig({ ...base, SPORTS_API_PLAN: 'free', GATEWAY_CLIENT_KEYS: 'a:key-a:60,b:key-b:41' }),
    ).toThrow(/GATEWAY_CLIENT_KEYS/);
    const config = loadConfig({
      ...base,
      SPORTS_API_PLAN: 'free',
      GATEWAY_CLIENT_KEYS: 'a:key-a:60,b:key-b:40,c:key:with:colons',
    });
    expect(config.access.clientKeys).toEqual([
      { name: 'a', key: 'key-a', budget: 60 },
      { name: 'b', key: 'key-b', budget: 40 },
      { name: 'c', key: 'key:with:colons' },
    ]);
  });

  it('reads budgets from the keys file too, and checks them against the plan', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'budgets-'));
    const file = join(dir, 'keys.json');
    await writeFile(
      file,
      JSON.stringify([
        { name: 'a', key: 'key-a', budget: 7_000 },
        { name: 'b', key: 'key-b', budget: 600 },
      ]),
    );
    expect(() => loadConfig({ ...base, SPORTS_API_PLAN: 'pro', GATEWAY_CLIENT_KEYS_FILE: file })).toThrow(
      /budgets add up/,
    );
    expect(
      loadConfig({ ...base, SPORTS_API_PLAN: 'ultra', GATEWAY_CLIENT_KEYS_FILE: file }).access.clientKeys[0],
    ).toMatchObject({ budget: 7_000 });
    await rm(dir, { recursive: true, force: true });
  });
});

describe('per-client daily budgets', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { GATEWAY_CLIENT_KEYS: KEYS } });
  });
  afterAll(() => stack.close());

  it('HTTP: charges what was spent, refuses what would pass the budget left by more than what is left, leaves other clients alone', async () => {
    await resetCounts(stack.sandbox.url);
    const spent = await gql(stack.gateway.url, athletes(1, 2), undefined, as(SMALL));
    expect(spent.errors).toBeUndefined();
    expect(costOf(spent.extensions)).toMatchObject({ estimated: 2, upstreamRequests: 2, budgetRemaining: 1 });

    // 3 needed, 1 left: refused before any request, saying how much is left.
    const refused = await gql(stack.gateway.url, athletes(3, 4, 5), undefined, as(SMALL));
    expect(refused.data ?? null).toBeNull();
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXHAUSTED', scope: 'client' });
    expect(new Date(String(refused.errors?.[0]?.extensions?.['resetsAt'])).toISOString()).toMatch(/T00:00:00\.000Z$/);
    expect(refused.errors?.[0]?.message).toMatch(/has 1 upstream request left/);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(2);

    // Cached data costs nothing: still allowed, and charged nothing.
    const cached = await gql(stack.gateway.url, athletes(1, 2), undefined, as(SMALL));
    expect(costOf(cached.extensions)).toMatchObject({ estimated: 0, budgetRemaining: 1 });

    const other = await gql(stack.gateway.url, athletes(30, 31), undefined, as(BIG));
    expect(other.errors).toBeUndefined();
    expect(costOf(other.extensions)).toMatchObject({ budgetRemaining: 98 });
    // A key without a budget spends the plan's allowance only.
    const unbudgeted = await gql(stack.gateway.url, athletes(32), undefined, as(FREE));
    expect(unbudgeted.errors).toBeUndefined();
    expect(costOf(unbudgeted.extensions)['budgetRemaining']).toBeUndefined();
  });

  it('a budget that runs out mid-operation fails only the fields it cannot pay, before sending them', async () => {
    await resetCounts(stack.sandbox.url);
    // 2 needed, 1 left: it runs; one athlete is paid, the other errors at its path.
    const partial = await gql<{ v1: { hockey: { athletes: Array<{ name: string } | null> } } }>(
      stack.gateway.url,
      athletes(3, 4),
      undefined,
      as(SMALL),
    );
    expect(partial.data!.v1.hockey.athletes.filter((item) => item !== null)).toHaveLength(1);
    expect(partial.errors).toHaveLength(1);
    expect(partial.errors?.[0]?.path?.slice(0, 3)).toEqual(['v1', 'hockey', 'athletes']);
    expect(partial.errors?.[0]?.extensions).toMatchObject({
      code: 'QUOTA_EXHAUSTED',
      scope: 'client',
      resetsAt: expect.any(String),
    });
    expect(costOf(partial.extensions)).toMatchObject({ estimated: 2, upstreamRequests: 1, budgetRemaining: 0 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(1);

    // Budget 0: a cached field and the free catalogue answer; an uncached one errors, and nothing counted is sent.
    await resetCounts(stack.sandbox.url);
    const atZero = await gql<{ v1: { hockey: { athletes: Array<{ name: string } | null> } }; sports: unknown[] }>(
      stack.gateway.url,
      `{ v1 { hockey { athletes(ids: ["${hockeyV1Ids.firstAthleteId + 1}", "${hockeyV1Ids.firstAthleteId + 40}"]) { name } } } sports { sport } }`,
      undefined,
      as(SMALL),
    );
    expect(atZero.data?.sports.length).toBeGreaterThan(0);
    expect(atZero.data?.v1.hockey.athletes[0]).toMatchObject({ name: expect.any(String) });
    expect(atZero.data?.v1.hockey.athletes[1]).toBeNull();
    expect(atZero.errors?.map((e) => [e.path, e.extensions?.['code'], e.extensions?.['scope']])).toEqual([
      [['v1', 'hockey', 'athletes', 1], 'QUOTA_EXHAUSTED', 'client'],
    ]);
    expect(costOf(atZero.extensions)).toMatchObject({ budgetRemaining: 0 });
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.total).toBe(counts.byRoute['GET /reference/sports'] ?? 0);
  });

  it('graphql-ws: the client named at connection init spends and is refused the same way', async () => {
    await resetCounts(stack.sandbox.url);
    const client = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${BIG}` },
    });
    const run = (query: string) =>
      new Promise<{
        errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
        extensions?: Record<string, unknown>;
      }>((resolve, reject) => {
        client.subscribe(
          { query },
          { next: (value) => resolve(value as never), error: reject, complete: () => undefined },
        );
      });
    const spent = await run(athletes(6));
    expect(costOf(spent.extensions)).toMatchObject({ upstreamRequests: 1, budgetRemaining: 97 });
    await client.dispose();
    const small = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${SMALL}` },
    });
    const refused = await new Promise<{ errors?: Array<{ extensions?: Record<string, unknown> }> }>(
      (resolve, reject) => {
        small.subscribe(
          { query: athletes(7) },
          { next: (value) => resolve(value as never), error: reject, complete: () => undefined },
        );
      },
    );
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXHAUSTED', scope: 'client' });
    await small.dispose();
    expect((await requestCounts(stack.sandbox.url)).total).toBe(1);
  });

  it('what a client spent survives a gateway restart', async () => {
    await stack.stopGateway();
    await stack.restartGateway({ GATEWAY_CLIENT_KEYS: KEYS });
    await resetCounts(stack.sandbox.url);
    const refused = await gql(stack.gateway.url, athletes(8), undefined, as(SMALL));
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXHAUSTED', scope: 'client' });
    const big = await gql(stack.gateway.url, athletes(9), undefined, as(BIG));
    expect(costOf(big.extensions)).toMatchObject({ budgetRemaining: 96 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(1);
  });
});
