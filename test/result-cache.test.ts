/**
 * The operation-result cache (src/plugins/use-result-cache.ts): a repeated
 * query is answered without execution while every upstream resource it used
 * is fresh; errors, stale answers and the allowance are never kept; variables
 * and clients never share.
 *
 * "Answered without execution" is told apart from "executed against a warm
 * upstream cache" by emptying the upstream cache between two queries: only a
 * stored result can then answer without an upstream request.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface Cost {
  estimated?: number;
  upstreamRequests: number;
  cacheHits: number;
  allowanceRemaining: number;
  budgetRemaining?: number;
}

const costOf = (response: GraphQLResponse): Cost => response.extensions?.['cost'] as Cost;
const LINES_ROUTE = 'GET /v1/hockey/bets/lines';
const STANDINGS = `{ v1 { hockey { standings { entries { position points competitor { name } } } } } }`;
const STANDINGS_AND_NEWS = `{ v1 { hockey { standings { entries { position } } news(competitionId: 303, limit: 5) { articles { title } } } } }`;
const LINES = `query Lines($game: ID!) { v1 { hockey { lines(gameId: $game) { gameId moneyline { home away } } } } }`;
const ATHLETE = `query Athlete($id: ID!) { v1 { hockey { athlete(id: $id) { name } } } }`;
const game = String(hockeyV1Ids.firstGameId);

const CLIENT_A = 'result-cache-key-a-0001';
const CLIENT_B = 'result-cache-key-b-0002';
/** A budget of one counted request a day. */
const CLIENT_C = 'result-cache-key-c-0003';
const as = (key: string) => ({ authorization: `Bearer ${key}` });

describe('operation-result cache', () => {
  let stack: TestStack;
  const emptyUpstreamCache = () => stack.gateway.services.fetcher.cache.clear();
  const upstreamTotal = async () => (await requestCounts(stack.sandbox.url)).total;

  beforeAll(async () => {
    // Standings and lines fresh for 1 s: the expiry tests wait past it; news keeps its 5 minutes.
    stack = await startStack({
      env: {
        CACHE_TTL_STANDINGS: '1',
        CACHE_TTL_LINES: '1',
        GATEWAY_CLIENT_KEYS: `a:${CLIENT_A},b:${CLIENT_B},c:${CLIENT_C}:1`,
      },
    });
  });
  afterAll(() => stack.close());
  afterEach(() => clearFaults(stack.sandbox.url));

  it('answers the same query again without execution: no upstream request, identical data, a truthful cost', async () => {
    emptyUpstreamCache();
    await resetCounts(stack.sandbox.url);
    const first = await gql(stack.gateway.url, STANDINGS_AND_NEWS, undefined, as(CLIENT_A));
    expect(first.errors).toBeUndefined();
    expect(costOf(first)).toMatchObject({ upstreamRequests: 2, cacheHits: 0 });

    // Only a stored result can answer now without asking the upstream.
    emptyUpstreamCache();
    const second = await gql(stack.gateway.url, STANDINGS_AND_NEWS, undefined, as(CLIENT_A));
    expect(second.errors).toBeUndefined();
    expect(second.data).toEqual(first.data);
    expect(costOf(second)).toEqual({
      estimated: 0,
      upstreamRequests: 0,
      cacheHits: 2,
      allowanceRemaining: costOf(first).allowanceRemaining,
    });
    expect(await upstreamTotal()).toBe(2);
    // The spliced body is the JSON a client expects (data first, then extensions).
    expect(JSON.parse(second.text)).toEqual({ data: first.data, extensions: second.extensions });
  });

  it('recomputes once the least fresh resource it used has expired', async () => {
    // Another client: the result the test above stored is not this one's.
    emptyUpstreamCache();
    const first = await gql(stack.gateway.url, STANDINGS_AND_NEWS, undefined, as(CLIENT_B));
    expect(costOf(first)).toMatchObject({ upstreamRequests: 2 });
    expect(costOf(await gql(stack.gateway.url, STANDINGS_AND_NEWS, undefined, as(CLIENT_B)))).toMatchObject({
      upstreamRequests: 0,
      estimated: 0,
    });

    // Standings (1 s) expire, news (5 min) does not: executed again, standings fetched, news from the cache.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await resetCounts(stack.sandbox.url);
    const later = await gql(stack.gateway.url, STANDINGS_AND_NEWS, undefined, as(CLIENT_B));
    expect(later.errors).toBeUndefined();
    expect(costOf(later)).toMatchObject({ upstreamRequests: 1, cacheHits: 1 });
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({ 'GET /v1/hockey/standings': 1 });
  });

  it('does not store a result with an error', async () => {
    emptyUpstreamCache();
    await injectFault(stack.sandbox.url, { route: LINES_ROUTE, status: 504, times: 1 });
    const failed = await gql(stack.gateway.url, LINES, { game }, as(CLIENT_A));
    expect(failed.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });

    const retried = await gql(stack.gateway.url, LINES, { game }, as(CLIENT_A));
    expect(retried.errors).toBeUndefined();
    expect(costOf(retried)).toMatchObject({ upstreamRequests: 1 });

    // A 404 is cached (fresh) by the upstream cache, yet the result holding its error is not stored.
    const missing = await gql(stack.gateway.url, LINES, { game: '999999' }, as(CLIENT_A));
    expect(missing.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    const again = await gql(stack.gateway.url, LINES, { game: '999999' }, as(CLIENT_A));
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect(costOf(again)).toMatchObject({ upstreamRequests: 0 });
  });

  it('does not store a stale answer', async () => {
    // Another game than the test above, whose result is stored.
    const game = String(hockeyV1Ids.firstGameId + 1);
    emptyUpstreamCache();
    const fresh = await gql(stack.gateway.url, LINES, { game }, as(CLIENT_A));
    expect(costOf(fresh)).toMatchObject({ upstreamRequests: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    await injectFault(stack.sandbox.url, { route: LINES_ROUTE, status: 504 });
    const stale = await gql(stack.gateway.url, LINES, { game }, as(CLIENT_A));
    expect(stale.errors).toBeUndefined();
    expect(stale.extensions?.['stale']).toBeDefined();
    await clearFaults(stack.sandbox.url);

    const recovered = await gql(stack.gateway.url, LINES, { game }, as(CLIENT_A));
    expect(recovered.extensions?.['stale']).toBeUndefined();
    expect(costOf(recovered)).toMatchObject({ upstreamRequests: 1 });
  });

  it('different variables do not share a result', async () => {
    emptyUpstreamCache();
    const one = await gql(stack.gateway.url, ATHLETE, { id: String(hockeyV1Ids.firstAthleteId) }, as(CLIENT_A));
    emptyUpstreamCache();
    const other = await gql(stack.gateway.url, ATHLETE, { id: String(hockeyV1Ids.firstAthleteId + 1) }, as(CLIENT_A));
    expect(costOf(other)).toMatchObject({ upstreamRequests: 1 });
    expect(other.data).not.toEqual(one.data);
    // The first one is still stored under its own variables.
    expect(
      costOf(await gql(stack.gateway.url, ATHLETE, { id: String(hockeyV1Ids.firstAthleteId) }, as(CLIENT_A))),
    ).toMatchObject({ upstreamRequests: 0 });
  });

  it('different clients do not share a result', async () => {
    const query = `{ v1 { hockey { athlete(id: "${hockeyV1Ids.firstAthleteId + 2}") { name } } } }`;
    emptyUpstreamCache();
    expect(costOf(await gql(stack.gateway.url, query, undefined, as(CLIENT_A)))).toMatchObject({ upstreamRequests: 1 });
    emptyUpstreamCache();
    expect(costOf(await gql(stack.gateway.url, query, undefined, as(CLIENT_B)))).toMatchObject({ upstreamRequests: 1 });
    expect(costOf(await gql(stack.gateway.url, query, undefined, as(CLIENT_A)))).toMatchObject({ upstreamRequests: 0 });
  });

  it('a hit spends nothing: served to a client whose budget is spent, charged 0', async () => {
    const athlete = (offset: number) =>
      `{ v1 { hockey { athlete(id: "${hockeyV1Ids.firstAthleteId + offset}") { name } } } }`;
    emptyUpstreamCache();
    const spent = await gql(stack.gateway.url, athlete(4), undefined, as(CLIENT_C));
    expect(spent.errors).toBeUndefined();
    expect(costOf(spent)).toMatchObject({ upstreamRequests: 1, budgetRemaining: 0 });
    const refused = await gql(stack.gateway.url, athlete(5), undefined, as(CLIENT_C));
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXHAUSTED', scope: 'client' });

    // Executing again would need the upstream (its cache is emptied) and be refused; the stored result needs nothing.
    emptyUpstreamCache();
    const hit = await gql(stack.gateway.url, athlete(4), undefined, as(CLIENT_C));
    expect(hit.errors).toBeUndefined();
    expect(hit.data).toEqual(spent.data);
    expect(costOf(hit)).toEqual({
      estimated: 0,
      upstreamRequests: 0,
      cacheHits: 1,
      allowanceRemaining: costOf(spent).allowanceRemaining,
      budgetRemaining: 0,
    });
  });

  it('never stores an operation that selects the allowance', async () => {
    const query = `{ quota { used remaining } v1 { hockey { athlete(id: "${hockeyV1Ids.firstAthleteId + 3}") { name } } } }`;
    emptyUpstreamCache();
    const first = await gql<{ quota: { used: number } }>(stack.gateway.url, query, undefined, as(CLIENT_A));
    expect(first.errors).toBeUndefined();
    emptyUpstreamCache();
    const second = await gql<{ quota: { used: number } }>(stack.gateway.url, query, undefined, as(CLIENT_A));
    expect(costOf(second)).toMatchObject({ upstreamRequests: 1 });
    // The allowance moved between the two, and the answer says so.
    expect(second.data?.quota.used).toBe((first.data?.quota.used ?? 0) + 1);
  });

  describe('fast path before yoga (src/transport/http/result-cache-hits.ts)', () => {
    const query = `{ v1 { hockey { athlete(id: "${hockeyV1Ids.firstAthleteId + 6}") { name } } } }`;
    const body = JSON.stringify({ query, variables: {} });
    const fastHits = async (): Promise<number> => {
      const text = await (await fetch(`${stack.gateway.url}/metrics`, { headers: as(CLIENT_A) })).text();
      const value = /^sports_graph_result_cache_fast_hits_total\{replica="[\w.:-]+"\} (\d+)$/m.exec(text)?.[1];
      if (value === undefined) throw new Error('no fast-hit counter in /metrics');
      return Number(value);
    };
    const post = async (headers: Record<string, string>, payload = body) => {
      const response = await fetch(`${stack.gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: payload,
      });
      return {
        status: response.status,
        contentType: response.headers.get('content-type'),
        text: await response.text(),
      };
    };
    let stored: GraphQLResponse;

    beforeAll(async () => {
      emptyUpstreamCache();
      stored = await gql(stack.gateway.url, query, {}, as(CLIENT_A));
      expect(stored.errors).toBeUndefined();
      expect(costOf(stored)).toMatchObject({ upstreamRequests: 1 });
    });

    it('answers a repeated query before yoga: counted, identical data, the same cost shape, the same bytes yoga writes', async () => {
      const before = await fastHits();
      const hit = await gql(stack.gateway.url, query, {}, as(CLIENT_A));
      expect(await fastHits()).toBe(before + 1);
      expect(hit.status).toBe(200);
      expect(hit.data).toEqual(stored.data);
      expect(costOf(hit)).toEqual({
        estimated: 0,
        upstreamRequests: 0,
        cacheHits: 1,
        allowanceRemaining: costOf(stored).allowanceRemaining,
      });

      // Content type as yoga's result processor picks it, per accept header.
      for (const [accept, contentType] of [
        [undefined, 'application/json; charset=utf-8'],
        ['*/*', 'application/json; charset=utf-8'],
        ['application/json', 'application/json; charset=utf-8'],
        ['application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
        ['application/graphql-response+json, application/json', 'application/graphql-response+json; charset=utf-8'],
      ] as const) {
        const headers = { ...as(CLIENT_A), ...(accept === undefined ? {} : { accept }) };
        const fast = await post(headers);
        // An Origin sends the same request through yoga (no CORS is configured here), whose plugin serves the hit.
        const viaYoga = await post({ ...headers, origin: 'https://elsewhere.example' });
        expect({ status: fast.status, contentType: fast.contentType, text: fast.text }).toEqual({
          status: 200,
          contentType,
          text: viaYoga.text,
        });
      }
      expect(await fastHits()).toBe(before + 6);
    });

    it('leaves key refusals to yoga: a missing key gets 401, a wrong key 403, even for a stored query', async () => {
      const before = await fastHits();
      const missing = await post({});
      expect(missing.status).toBe(401);
      expect(JSON.parse(missing.text)).toMatchObject({ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
      const wrong = await post(as('not-a-key-of-ours'));
      expect(wrong.status).toBe(403);
      expect(JSON.parse(wrong.text)).toMatchObject({ errors: [{ extensions: { code: 'FORBIDDEN' } }] });
      expect(await fastHits()).toBe(before);
    });

    it('sends a request with an Origin, or a GET, through yoga', async () => {
      const before = await fastHits();
      const withOrigin = JSON.parse(
        (await post({ ...as(CLIENT_A), origin: 'https://elsewhere.example' })).text,
      ) as GraphQLResponse;
      expect(withOrigin.data).toEqual(stored.data);
      const url = new URL(`${stack.gateway.url}/graphql`);
      url.searchParams.set('query', query);
      const viaGet = (await (
        await fetch(url, { headers: { ...as(CLIENT_A), 'x-graphql-csrf': '1', accept: 'application/json' } })
      ).json()) as GraphQLResponse;
      expect(viaGet.data).toEqual(stored.data);
      // Both still hits, served by yoga's plugin: the fast path did not answer them.
      expect(costOf(viaGet)).toMatchObject({ upstreamRequests: 0, cacheHits: 1 });
      expect(await fastHits()).toBe(before);
    });

    it('hands a body it cannot use to yoga, which answers as it always did', async () => {
      const before = await fastHits();
      const invalid = await post(as(CLIENT_A), '{"query": ');
      expect(invalid.status).toBe(400);
      expect(JSON.parse(invalid.text)).toMatchObject({
        errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }],
      });
      const batched = await post(as(CLIENT_A), `[${body}]`);
      expect(batched.status).toBe(400);
      expect(JSON.parse(batched.text)).toMatchObject({ errors: [{ message: 'Batching is not supported.' }] });
      // A miss (another client) that the fast path read in full still reaches yoga with its body and executes.
      emptyUpstreamCache();
      const miss = JSON.parse((await post(as(CLIENT_B))).text) as GraphQLResponse;
      expect(miss.data).toEqual(stored.data);
      expect(costOf(miss)).toMatchObject({ upstreamRequests: 1 });
      expect(await fastHits()).toBe(before);
    });
  });
});

describe('operation-result cache switched off', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { RESULT_CACHE: 'off' } });
  });
  afterAll(() => stack.close());

  it('executes every query', async () => {
    const first = await gql(stack.gateway.url, STANDINGS);
    expect(costOf(first)).toMatchObject({ upstreamRequests: 1 });
    stack.gateway.services.fetcher.cache.clear();
    expect(costOf(await gql(stack.gateway.url, STANDINGS))).toMatchObject({ upstreamRequests: 1 });
  });
});
