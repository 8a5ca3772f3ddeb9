/**
 * Issue 15, item 4: `@defer` and `@stream` over multipart HTTP, read by a
 * client that speaks incremental delivery (meros, what Apollo Client's and
 * urql's multipart readers are built on), asserting the initial and the
 * subsequent payloads.
 *
 * And what the other plugins do with a stream (src/plugins/incremental-delivery.ts):
 * the cost estimate is made before the first payload and `extensions.cost`
 * arrives on the last, counting the deferred requests; a client's budget is
 * charged for them; the result cache never keeps a stream; graphql-jit (on
 * here, as by default) leaves such documents to yoga's executor, or the
 * deferred fields would come in the first payload; a client that cannot
 * read a stream is refused before anything is spent.
 */
import { meros } from 'meros/browser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const TEAM = hockeyV2Ids.firstTeam + 3;
const SEASON = `tournamentId: "${hockeyV2Ids.uniqueTournament}", seasonId: "${hockeyV2Ids.season}"`;
const CLIENT_KEY = 'incremental-delivery-key-0001';
const BUDGET = 500;

interface Payload {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; path?: unknown[]; extensions?: Record<string, unknown> }>;
  incremental?: Array<{
    data?: Record<string, unknown>;
    items?: unknown[];
    path: Array<string | number>;
    label?: string;
    errors?: Payload['errors'];
  }>;
  hasNext?: boolean;
  extensions?: Record<string, unknown>;
}

interface Cost {
  estimated: number;
  upstreamRequests: number;
  cacheHits: number;
  budgetRemaining?: number;
}

/** POSTs as Apollo Client does for an operation with @defer, and reads every part of the multipart answer. */
async function incremental(
  url: string,
  query: string,
  accept = 'multipart/mixed;deferSpec=20220824, application/json',
): Promise<{ status: number; payloads: Payload[] }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${CLIENT_KEY}` },
    body: JSON.stringify({ query }),
  });
  const parts = await meros<Payload>(response);
  if (!(Symbol.asyncIterator in parts)) return { status: response.status, payloads: [(await parts.json()) as Payload] };
  const payloads: Payload[] = [];
  for await (const part of parts) {
    if (!part.json) throw new Error(`a part that is not JSON: ${String(part.body)}`);
    payloads.push(part.body);
  }
  return { status: response.status, payloads };
}

const costOf = (payload: Payload | undefined): Cost => payload?.extensions?.['cost'] as Cost;

describe('@defer and @stream over multipart HTTP', () => {
  let stack: TestStack;
  const upstreamTotal = async (): Promise<number> => (await requestCounts(stack.sandbox.url)).total;

  beforeAll(async () => {
    stack = await startStack({ env: { GATEWAY_CLIENT_KEYS: `d:${CLIENT_KEY}:${BUDGET}`, GRAPHQL_JIT: 'true' } });
  });
  afterAll(() => stack.close());
  beforeEach(async () => {
    stack.gateway.services.fetcher.cache.clear();
    await resetCounts(stack.sandbox.url);
  });

  const AGGREGATES = `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${TEAM}") {
    nativeId
    detail { name }
    ... @defer(label: "aggregates") { seasonAggregates(${SEASON}) { matches goalsFor } }
    ... @defer(label: "logo") { logo { url } }
  } } } }`;

  it('season aggregates deferred: the team first, the aggregates and logo later, the cost (deferred requests included) on the last payload, the budget charged for all', async () => {
    const { status, payloads } = await incremental(stack.gateway.url, AGGREGATES);
    expect(status).toBe(200);
    const [initial, ...rest] = payloads;
    expect(initial?.hasNext).toBe(true);
    expect(initial?.errors).toBeUndefined();
    const team = (initial!.data as { v2: { hockey: { team: Record<string, unknown> } } }).v2.hockey.team;
    expect(team['nativeId']).toBe(String(TEAM));
    expect(team['detail']).toEqual({ name: expect.any(String) as unknown });
    // Deferred: not in the first payload (graphql-jit would have put them there).
    expect(team).not.toHaveProperty('seasonAggregates');
    expect(team).not.toHaveProperty('logo');

    expect(rest.length).toBeGreaterThanOrEqual(1);
    const last = rest.at(-1);
    expect(last?.hasNext).toBe(false);
    const parts = rest.flatMap((payload) => payload.incremental ?? []);
    expect(parts.map((part) => part.label).sort()).toEqual(['aggregates', 'logo']);
    for (const part of parts) {
      expect(part.path).toEqual(['v2', 'hockey', 'team']);
      expect(part.errors).toBeUndefined();
    }
    const aggregates = parts.find((part) => part.label === 'aggregates')?.data?.['seasonAggregates'] as {
      matches: number;
      goalsFor: number;
    };
    expect(aggregates.matches).toBeGreaterThan(0);
    expect(parts.find((part) => part.label === 'logo')?.data?.['logo']).toEqual({
      url: expect.stringContaining('/images/') as unknown,
    });

    // Every request the operation sent is on the last payload, and charged to the client's budget.
    const sent = await upstreamTotal();
    const counted = sent - (await uncountedSent());
    expect(counted).toBeGreaterThan(2 * aggregates.matches);
    const cost = costOf(last);
    expect(cost.upstreamRequests).toBe(sent);
    expect(cost.estimated).toBeGreaterThanOrEqual(counted);
    expect(cost.budgetRemaining).toBe(BUDGET - counted);
    for (const payload of payloads.slice(0, -1)) expect(payload.extensions?.['cost']).toBeUndefined();
  });

  /** Requests the sandbox saw that the allowance does not count (reference data). */
  const uncountedSent = async (): Promise<number> =>
    (await requestCounts(stack.sandbox.url)).byRoute['GET /reference/sports'] ?? 0;

  it('a stream is never kept by the result cache: the same deferred query runs again, in parts, once the upstream cache is empty', async () => {
    const first = await incremental(stack.gateway.url, AGGREGATES);
    expect(first.payloads.at(-1)?.hasNext).toBe(false);
    stack.gateway.services.fetcher.cache.clear();
    await resetCounts(stack.sandbox.url);
    const again = await incremental(stack.gateway.url, AGGREGATES);
    // In parts again (how many depends on which deferred fragments finish in the same turn, so only "more than one").
    expect(again.payloads.length).toBeGreaterThan(1);
    expect(again.payloads[0]?.hasNext).toBe(true);
    expect(again.payloads.at(-1)?.hasNext).toBe(false);
    expect(costOf(again.payloads.at(-1)).upstreamRequests).toBeGreaterThan(0);
    expect(await upstreamTotal()).toBe(costOf(again.payloads.at(-1)).upstreamRequests);
  });

  it('@stream on a long paged list: the first items at once, the others in later payloads, all in order', async () => {
    const query = `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${TEAM}") {
      recentResults(first: 6) { nodes @stream(initialCount: 2) { ref { nativeId } homeScore awayScore } }
    } } } }`;
    const plain = await incremental(stack.gateway.url, query.replace(' @stream(initialCount: 2)', ''));
    const expected = (plain.payloads[0]!.data as { v2: { hockey: { team: { recentResults: { nodes: unknown[] } } } } })
      .v2.hockey.team.recentResults.nodes;
    expect(expected).toHaveLength(6);

    const { payloads } = await incremental(stack.gateway.url, query);
    const [initial, ...rest] = payloads;
    expect(initial?.hasNext).toBe(true);
    const first = (initial!.data as { v2: { hockey: { team: { recentResults: { nodes: unknown[] } } } } }).v2.hockey
      .team.recentResults.nodes;
    expect(first).toEqual(expected.slice(0, 2));
    const streamed = rest.flatMap((payload) => payload.incremental ?? []);
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed[0]?.path).toEqual(['v2', 'hockey', 'team', 'recentResults', 'nodes', 2]);
    expect([...first, ...streamed.flatMap((part) => part.items ?? [])]).toEqual(expected);
    expect(rest.at(-1)?.hasNext).toBe(false);
  });

  it('an error in a deferred part is coded at its own path, and the rest answers', async () => {
    const query = `{ sports { sport } v2(sport: ICE_HOCKEY) { hockey { team(id: "999999") { ... @defer { detail { name } } } } } }`;
    const { payloads } = await incremental(stack.gateway.url, query);
    expect(payloads[0]?.data).toHaveProperty('sports');
    const errors = payloads.flatMap((payload) => payload.incremental ?? []).flatMap((part) => part.errors ?? []);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toEqual(['v2', 'hockey', 'team', 'detail']);
    expect(errors[0]?.extensions?.['code']).toBe('NOT_FOUND');
  });

  it('a client that accepts only JSON is refused, 406 NOT_ACCEPTABLE naming the media types, before any upstream request', async () => {
    const { status, payloads } = await incremental(stack.gateway.url, AGGREGATES, 'application/json');
    expect(status).toBe(406);
    expect(payloads[0]?.errors?.[0]?.extensions?.['code']).toBe('NOT_ACCEPTABLE');
    expect(payloads[0]?.errors?.[0]?.message).toContain('multipart/mixed');
    expect(await upstreamTotal()).toBe(0);
  });

  it('the same directives over SSE (`accept: text/event-stream`) arrive as one event per payload', async () => {
    const response = await fetch(`${stack.gateway.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${CLIENT_KEY}`,
      },
      body: JSON.stringify({ query: AGGREGATES }),
    });
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: ')
      .map((line) => JSON.parse(line.slice('data: '.length)) as Payload);
    expect(events[0]?.hasNext).toBe(true);
    expect(events.at(-1)?.hasNext).toBe(false);
    expect(
      events
        .flatMap((event) => event.incremental ?? [])
        .map((part) => part.label)
        .sort(),
    ).toEqual(['aggregates', 'logo']);
  });
});

describe('the validation rules @defer and @stream bring', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { GATEWAY_CLIENT_KEYS: `d:${CLIENT_KEY}:${BUDGET}` } });
  });
  afterAll(() => stack.close());

  const CONFLICT =
    'Fields "x" conflict because "v1" and "v2" are different fields. Use different aliases on the fields to fetch both if this was intentional.';
  const refusal = async (query: string): Promise<string[]> => {
    const { status, payloads } = await incremental(stack.gateway.url, query);
    expect(status).toBe(400);
    return (payloads[0]?.errors ?? []).map((error) => error.message);
  };

  // graphql-js's OverlappingFieldsCanBeMergedRule stays beside the plugin's own: the conflict is reported twice.
  it("keep graphql-js's own rules: conflicting fields are refused as they were", async () => {
    expect(await refusal('{ x: v1 { __typename } x: v2(sport: ICE_HOCKEY) { __typename } }')).toEqual([
      CONFLICT,
      CONFLICT,
    ]);
  });

  it('add their own: a label used twice is refused', async () => {
    expect(await refusal('{ ... @defer(label: "a") { __typename } ... @defer(label: "a") { x: __typename } }')).toEqual(
      ['Defer/Stream directive label argument must be unique.'],
    );
  });
});
