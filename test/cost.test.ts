/**
 * Cost in upstream requests, before execution: the estimate, the
 * per-operation limit, the allowance left, and `extensions.cost`.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import { isInterfaceType, isObjectType } from 'graphql';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { fieldCosts, listSizes } from '../src/spend/estimate/cost-table.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { aussieRulesIds } from '../sandbox/fixtures/aussie-rules.js';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { loadTypeDefs } from '../src/gateway/schema.js';
import { gql, requestCounts, resetCounts, setSandboxQuota } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface Cost {
  estimated?: number;
  upstreamRequests: number;
  cacheHits: number;
  allowanceRemaining: number;
}

const costOf = (extensions: Record<string, unknown> | undefined): Cost => extensions?.['cost'] as Cost;
const athletes = (...offsets: number[]) =>
  `{ v1 { hockey { athletes(ids: [${offsets.map((o) => `"${hockeyV1Ids.firstAthleteId + o}"`).join(', ')}]) { name } } } }`;
const STANDINGS = `{ v1 { hockey { standings { entries { position competitor { name } } } } } }`;
/** 1 matches request + one game detail per match (104 at most): past the default limit of 50. */
const EVERY_MATCH_DETAIL = `{ v1 { worldCup { matches { detail { __typename } } } } }`;

describe('the cost table', () => {
  it('names only real fields and lists', () => {
    const schema = makeExecutableSchema({ typeDefs: loadTypeDefs() });
    const missing = [...Object.keys(fieldCosts), ...Object.keys(listSizes)].filter((key) => {
      const [typeName = '', fieldName = ''] = key.split('.');
      const type = schema.getType(typeName);
      return !((isObjectType(type) || isInterfaceType(type)) && type.getFields()[fieldName] !== undefined);
    });
    expect(missing).toEqual([]);
  });
});

describe('cost before execution', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('an uncounted route is estimated at 0 and traced as an upstream request, not a cache hit', async () => {
    const sports = await gql(stack.gateway.url, `{ sports { sport } }`);
    expect(costOf(sports.extensions)).toMatchObject({ estimated: 0, upstreamRequests: 1, cacheHits: 0 });
  });

  it('reports the estimate next to what was spent; cached data is estimated at 0', async () => {
    await resetCounts(stack.sandbox.url);
    const first = await gql(stack.gateway.url, STANDINGS);
    expect(first.errors).toBeUndefined();
    expect(costOf(first.extensions)).toMatchObject({ estimated: 1, upstreamRequests: 1, cacheHits: 0 });
    const second = await gql(stack.gateway.url, STANDINGS);
    expect(costOf(second.extensions)).toMatchObject({ estimated: 0, upstreamRequests: 0, cacheHits: 1 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(1);
  });

  it('estimates an upper bound of the counted requests real operations make, across versions', async () => {
    const operations = [
      athletes(10, 11, 12),
      `{ v1 { hockey { news(limit: 5) { articles { title } } lines(gameId: "${hockeyV1Ids.firstGameId}") { gameId } } } }`,
      `{ v1 { worldCup { matches { ref { nativeId } } standings { __typename } predictions { __typename } } } }`,
      `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${hockeyV2Ids.firstTeam}") {
          detail { name } roster { position } form { played }
          recentResults(first: 12) { nodes { ref { nativeId } } } upcomingGames(first: 2) { nodes { ref { nativeId } } } } } } }`,
      `{ v2(sport: AUSSIE_RULES) { aussieRules { coach(id: "${aussieRulesIds.firstCoach}") { name lastEvents(first: 12) { nodes { id } } } } } }`,
      `{ v2(sport: FOOTBALL) { football { worldCup2026 { matches(first: 45) { edges { cursor } } teams { name } } } } }`,
      `{ v3 { sports { slug } } }`,
    ];
    for (const query of operations) {
      const before = await gql<{ quota: { used: number } }>(stack.gateway.url, `{ quota { used } }`);
      const result = await gql(stack.gateway.url, query);
      expect(result.errors, query).toBeUndefined();
      const after = await gql<{ quota: { used: number } }>(stack.gateway.url, `{ quota { used } }`);
      const counted = after.data!.quota.used - before.data!.quota.used;
      const cost = costOf(result.extensions);
      expect(counted, query).toBeGreaterThan(0);
      expect(cost.estimated, query).toBeGreaterThanOrEqual(counted);
    }
  });

  it('refuses an operation past the per-operation limit before any upstream request, without naming the limit', async () => {
    await resetCounts(stack.sandbox.url);
    const refused = await gql(stack.gateway.url, EVERY_MATCH_DETAIL);
    expect(refused.data ?? null).toBeNull();
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'COST_LIMIT_EXCEEDED',
      estimated: expect.any(Number),
    });
    expect(refused.errors?.[0]?.message).not.toMatch(/\d/);
    expect(costOf(refused.extensions)).toMatchObject({ upstreamRequests: 0 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('refuses the same over graphql-ws', async () => {
    await resetCounts(stack.sandbox.url);
    const client = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    const result = await new Promise<{ errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>(
      (resolve, reject) => {
        client.subscribe(
          { query: EVERY_MATCH_DETAIL },
          { next: (value) => resolve(value as never), error: reject, complete: () => undefined },
        );
      },
    );
    await client.dispose();
    expect(result.errors?.[0]?.extensions?.['code']).toBe('COST_LIMIT_EXCEEDED');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });
});

describe('cost against a configured limit and the allowance left', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({
      env: { SPORTS_API_PLAN: 'free', GATEWAY_MAX_OPERATION_COST: '3' },
      sandbox: { allowance: 100 },
    });
  });
  afterAll(() => stack.close());

  it('GATEWAY_MAX_OPERATION_COST sets the per-operation limit', async () => {
    await resetCounts(stack.sandbox.url);
    const refused = await gql(stack.gateway.url, athletes(1, 2, 3, 4));
    expect(refused.errors?.[0]?.extensions?.['code']).toBe('COST_LIMIT_EXCEEDED');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    const allowed = await gql(stack.gateway.url, athletes(1, 2, 3));
    expect(allowed.errors).toBeUndefined();
    expect((await requestCounts(stack.sandbox.url)).total).toBe(3);
  });

  it('refuses before any request only what would pass the allowance left by more than what is left, and says how much is left', async () => {
    // 95 units spent elsewhere today; one request teaches the gateway (rate-limit headers): 4 left.
    await setSandboxQuota(stack.sandbox.url, { used: 95 });
    await gql(stack.gateway.url, athletes(20));
    await resetCounts(stack.sandbox.url);
    const ok = await gql(stack.gateway.url, athletes(21, 22, 28));
    expect(ok.errors).toBeUndefined();
    expect(costOf(ok.extensions)).toMatchObject({ estimated: 3, allowanceRemaining: 1 });
    // 3 needed, 1 left: past what is left by more than what is left.
    const refused = await gql(stack.gateway.url, athletes(23, 24, 25));
    expect(refused.data ?? null).toBeNull();
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXHAUSTED', scope: 'plan', estimated: 3 });
    expect(Date.parse(String(refused.errors?.[0]?.extensions?.['resetsAt']))).toBeGreaterThan(Date.now());
    expect(refused.errors?.[0]?.message).toMatch(/has 1 upstream request left/);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(3);
  });

  it('answers what it can when the allowance runs out: each counted field it cannot pay errors at its own path', async () => {
    // 1 left (previous test), 2 needed: it runs; one athlete answers, the other cannot be paid.
    await resetCounts(stack.sandbox.url);
    const partial = await gql<{ v1: { hockey: { athletes: Array<{ name: string } | null> } } }>(
      stack.gateway.url,
      athletes(23, 24),
    );
    const items = partial.data!.v1.hockey.athletes;
    expect(items.filter((item) => item !== null)).toHaveLength(1);
    expect(partial.errors).toHaveLength(1);
    expect(partial.errors?.[0]?.path?.slice(0, 3)).toEqual(['v1', 'hockey', 'athletes']);
    expect(partial.errors?.[0]?.extensions).toMatchObject({
      code: 'QUOTA_EXHAUSTED',
      scope: 'plan',
      resetsAt: expect.any(String),
    });
    expect(costOf(partial.extensions)).toMatchObject({ estimated: 2, upstreamRequests: 1, allowanceRemaining: 0 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(1);
  });

  it('with the allowance at 0, { athlete sports } answers sports and errors athlete at its path, sending no counted request', async () => {
    await resetCounts(stack.sandbox.url);
    const result = await gql<{ v1: { hockey: { athlete: unknown } }; sports: Array<{ sport: string }> }>(
      stack.gateway.url,
      `{ v1 { hockey { athlete(id: "${hockeyV1Ids.firstAthleteId + 30}") { name } } } sports { sport } }`,
    );
    expect(result.data?.sports.length).toBeGreaterThan(0);
    expect(result.data?.v1.hockey.athlete).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors?.[0]?.path).toEqual(['v1', 'hockey', 'athlete']);
    expect(result.errors?.[0]?.extensions).toMatchObject({
      code: 'QUOTA_EXHAUSTED',
      scope: 'plan',
      resetsAt: expect.any(String),
    });
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({ 'GET /reference/sports': 1 });
    // Cached data costs nothing, so it still runs.
    const cached = await gql(stack.gateway.url, athletes(21, 22));
    expect(cached.errors).toBeUndefined();
    expect(costOf(cached.extensions)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
  });
});
