/**
 * One accounting for every door (issue 12, "client budgets have a side
 * door"): every HTTP route the gateway serves is in the route table
 * (src/route-table.ts), and every row's claim is proven here against the
 * running gateway with the examples below:
 * - a route that can cause counted upstream requests refuses a client whose
 *   budget is spent with a coded QUOTA_EXHAUSTED (`scope: "client"`) before
 *   any upstream request, and charges a client with budget exactly the
 *   counted requests the upstream received;
 * - a route that spends nothing makes no upstream request.
 * A row without examples, or a path outside the table, fails here.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { gatewayRoutes } from '../src/route-table.js';
import { baseballIds } from '../sandbox/fixtures/baseball.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { imageIds } from '../sandbox/fixtures/images.js';
import { gql, gqlAt, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const SPENT = 'spent-client-key-0001';
const RICH = 'rich-client-key-0002';
const KEYS = `spent:${SPENT}:1,rich:${RICH}:200`;
const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

/** What one request through a door came back with. */
interface Answer {
  /** The refusal's fields when the door refused (GraphQL `extensions`, or the JSON body's `error`). */
  readonly refusal?: Record<string, unknown> | undefined;
  /** HTTP status, or 200 for a graphql-ws message. */
  readonly status: number;
  readonly headers?: Headers;
}

interface Example {
  readonly name: string;
  send(key: string): Promise<Answer>;
}

const refusalOf = (errors: unknown): Record<string, unknown> | undefined => {
  const first = (errors as Array<{ extensions?: Record<string, unknown> }> | undefined)?.[0]?.extensions;
  return first?.['code'] === 'QUOTA_EXHAUSTED' || first?.['code'] === 'COST_LIMIT_EXCEEDED' ? first : undefined;
};

describe('every door pays', () => {
  let stack: TestStack;
  let wsUrl: string;
  const athlete = (offset: number): string =>
    `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + offset}) { name } } } }`;

  const http =
    (path: string, init: RequestInit = {}) =>
    async (key: string): Promise<Answer> => {
      const response = await fetch(`${stack.gateway.url}${path}`, {
        ...init,
        headers: { ...bearer(key), ...(init.headers as Record<string, string>) },
      });
      const text = await response.text();
      let refusal: Record<string, unknown> | undefined;
      if ((response.headers.get('content-type') ?? '').includes('json')) {
        const body = JSON.parse(text) as { error?: Record<string, unknown>; errors?: unknown };
        refusal =
          body.errors !== undefined
            ? refusalOf(body.errors)
            : body.error?.['code'] === 'QUOTA_EXHAUSTED'
              ? body.error
              : undefined;
      }
      return { refusal, status: response.status, headers: response.headers };
    };

  const query =
    (text: string) =>
    async (key: string): Promise<Answer> => {
      const result = await gql(stack.gateway.url, text, undefined, bearer(key));
      return { refusal: refusalOf(result.errors), status: result.status };
    };

  const subgraphQuery =
    (text: string, variables?: Record<string, unknown>) =>
    async (key: string): Promise<Answer> => {
      const result = await gqlAt(`${stack.gateway.url}/subgraph`, text, variables, bearer(key));
      return { refusal: refusalOf(result.errors), status: result.status };
    };

  /** The first message of a graphql-ws subscription (data or errors); then it is stopped. */
  const wsFirst =
    (text: string, variables: Record<string, unknown> = {}) =>
    async (key: string): Promise<Answer> => {
      const client = createClient({
        url: wsUrl,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: bearer(key),
      });
      try {
        const errors = await new Promise<unknown>((resolve, reject) => {
          client.subscribe(
            { query: text, variables },
            { next: (message) => resolve(message.errors), error: reject, complete: () => resolve(undefined) },
          );
        });
        return { refusal: refusalOf(errors), status: 200 };
      } finally {
        await client.dispose();
      }
    };

  /** The first `next` event of an SSE subscription (graphql-sse distinct connections: a POST). */
  const sseFirst =
    (text: string) =>
    async (key: string): Promise<Answer> => {
      const abort = new AbortController();
      const response = await fetch(`${stack.gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...bearer(key) },
        body: JSON.stringify({ query: text }),
        signal: abort.signal,
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) throw new Error('the SSE stream ended before its first event');
          buffer += decoder.decode(value, { stream: true });
          const data = /event: next\ndata: (.*)\n\n/.exec(buffer)?.[1];
          if (data !== undefined)
            return { refusal: refusalOf((JSON.parse(data) as { errors?: unknown }).errors), status: response.status };
        }
      } finally {
        abort.abort();
      }
    };

  /** An MCP `execute` call (stateless: one JSON-RPC POST, no session); its refusal is the GraphQL answer's. */
  const mcpExecute =
    (text: string) =>
    async (key: string): Promise<Answer> => {
      const response = await fetch(`${stack.gateway.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(key) },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'execute', arguments: { query: text } },
        }),
      });
      const body = (await response.json()) as { result?: { structuredContent?: { errors?: unknown } } };
      return { refusal: refusalOf(body.result?.structuredContent?.errors), status: response.status };
    };

  /** Example requests for every row of the route table, by row name. */
  const examples = (): Record<string, readonly Example[]> => ({
    graphql: [
      { name: 'a POST query', send: query(athlete(1)) },
      {
        name: 'a GET query',
        send: http(`/graphql?query=${encodeURIComponent(athlete(2))}`, { headers: { accept: 'application/json' } }),
      },
      {
        name: 'the logo chain in a query (it bypasses the request loader)',
        send: query(`{ logo(sources: { v2TeamId: "${imageIds.v2Football.team}", v2Sport: FOOTBALL }) { url } }`),
      },
      {
        name: 'a liveTicker subscription over graphql-ws (starts the shared poll)',
        send: wsFirst('subscription { liveTicker { stale } }'),
      },
      {
        name: 'a lineup confirmation subscription over graphql-ws (starts the shared watch)',
        send: wsFirst('subscription ($id: ID!) { baseballLineupConfirmation(matchId: $id) { polls } }', {
          id: String(baseballIds.firstGame + 5),
        }),
      },
    ],
    subgraph: [
      { name: 'a query on the federation subgraph', send: subgraphQuery(athlete(3)) },
      {
        name: "a router's _entities by the native key",
        send: subgraphQuery(
          'query ($r: [_Any!]!) { _entities(representations: $r) { ... on V1HockeyAthlete { name } } }',
          {
            r: [
              {
                __typename: 'V1HockeyAthlete',
                ref: { version: 'V1', nativeId: String(hockeyV1Ids.firstAthleteId + 4), sport: 'hockey' },
              },
            ],
          },
        ),
      },
    ],
    images: [
      {
        name: 'a V2 image whose ID does not exist (image + data route, spec 7.1)',
        send: http(`/images/v2/football/teams/${imageIds.v2Football.unknownTeam}`),
      },
      { name: 'a V6 image by type', send: http(`/images/v6/football/teams/${imageIds.v6.team}`) },
      { name: 'a V6 image without type', send: http(`/images/v6/football/${imageIds.v6.venue}`) },
      {
        name: 'a logo through V2 and V6',
        send: http(
          `/images/logo?v2Sport=football&v2=${imageIds.v2Football.player}&v6Sport=football&v6=${imageIds.v6.player}`,
        ),
      },
    ],
    mcp: [{ name: 'an MCP execute call', send: mcpExecute(athlete(5)) }],
    healthz: [{ name: 'GET /healthz', send: http('/healthz') }],
    readyz: [{ name: 'GET /readyz', send: http('/readyz') }],
    graphiql: [
      {
        name: 'the GraphiQL stylesheet the page names',
        send: async (key) => {
          const page = await (
            await fetch(`${stack.gateway.url}/graphql`, { headers: { accept: 'text/html', ...bearer(key) } })
          ).text();
          const stylesheet = /"(\/graphiql\/graphiql-[0-9a-f]+\.css)"/.exec(page)?.[1];
          if (stylesheet === undefined) throw new Error('the GraphiQL page names no stylesheet');
          return http(stylesheet)(key);
        },
      },
    ],
    metrics: [{ name: 'GET /metrics', send: http('/metrics') }],
    widgets: [{ name: 'the odds widget page', send: http('/widgets/odds?match=1') }],
    'possible-types': [{ name: 'GET /possible-types.json', send: http('/possible-types.json') }],
  });

  /** Counted requests the upstream received so far (its own allowance ledger). */
  const upstreamUsed = async (): Promise<number> =>
    ((await (await fetch(`${stack.sandbox.url}/__sandbox/quota`)).json()) as { used: number }).used;
  const budgetOf = async (key: string): Promise<number> => {
    const result = await gql(stack.gateway.url, '{ quota { remaining } }', undefined, bearer(key));
    return (result.extensions!['cost'] as { budgetRemaining: number }).budgetRemaining;
  };

  beforeAll(async () => {
    stack = await startStack({ env: { GATEWAY_CLIENT_KEYS: KEYS } });
    wsUrl = `${stack.gateway.url.replace('http', 'ws')}/graphql`;
    // The spent client spends its whole budget the way any client does.
    const spending = await gql(stack.gateway.url, athlete(0), undefined, bearer(SPENT));
    expect(spending.errors).toBeUndefined();
    expect(await budgetOf(SPENT)).toBe(0);
  });
  afterAll(() => stack.close());

  it('has examples for every row of the route table, and nothing else', () => {
    expect(Object.keys(examples()).sort()).toEqual(gatewayRoutes.map((route) => route.name).sort());
    for (const list of Object.values(examples())) expect(list.length).toBeGreaterThan(0);
  });

  it('answers a path outside the route table with a coded 404 and no upstream request', async () => {
    await resetCounts(stack.sandbox.url);
    for (const path of [
      '/',
      '/graphiql',
      '/graphql/extra',
      '/subgraph/extra',
      '/image/v2/football/teams/1',
      '/__sandbox/requests',
    ]) {
      const response = await fetch(`${stack.gateway.url}${path}`, { headers: bearer(RICH) });
      expect(response.status, path).toBe(404);
      expect(
        ((await response.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions.code,
      ).toBe('NOT_FOUND');
    }
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  for (const route of gatewayRoutes) {
    if (route.spending.kind === 'gated') {
      it(`${route.name}: a spent client is refused before any upstream request; a client with budget is charged exactly what it spent`, async () => {
        for (const example of examples()[route.name] ?? []) {
          await resetCounts(stack.sandbox.url);
          const usedBeforeRefusal = await upstreamUsed();
          const refused = await example.send(SPENT);
          expect(refused.refusal, example.name).toMatchObject({ code: 'QUOTA_EXHAUSTED', scope: 'client' });
          expect(new Date(String(refused.refusal?.['resetsAt'])).toISOString(), example.name).toMatch(
            /T00:00:00\.000Z$/,
          );
          if (route.name === 'images') {
            expect(refused.status, example.name).toBe(429);
            expect(Number(refused.headers?.get('retry-after')), example.name).toBeGreaterThan(0);
          }
          // A GraphQL operation still answers its free fields (a free V1 image in the logo chain): nothing counted is sent.
          if (route.name === 'graphql') expect((await upstreamUsed()) - usedBeforeRefusal, example.name).toBe(0);
          else expect((await requestCounts(stack.sandbox.url)).total, example.name).toBe(0);

          const budgetBefore = await budgetOf(RICH);
          const usedBefore = await upstreamUsed();
          const served = await example.send(RICH);
          expect(served.refusal, example.name).toBeUndefined();
          const spent = (await upstreamUsed()) - usedBefore;
          expect(spent, `${example.name} spends`).toBeGreaterThan(0);
          expect(budgetBefore - (await budgetOf(RICH)), `${example.name} is charged what it spent`).toBe(spent);
        }
      });
    } else {
      it(`${route.name}: answers a spent client without any upstream request`, async () => {
        for (const example of examples()[route.name] ?? []) {
          await resetCounts(stack.sandbox.url);
          const answer = await example.send(SPENT);
          expect(answer.status, example.name).toBe(200);
          expect(answer.refusal, example.name).toBeUndefined();
          expect((await requestCounts(stack.sandbox.url)).total, example.name).toBe(0);
        }
      });
    }
  }

  it('images: what the store holds still answers a spent client, and spends nothing', async () => {
    // Stored by the charged requests above.
    await resetCounts(stack.sandbox.url);
    const stored = await http(`/images/v6/football/teams/${imageIds.v6.team}`)(SPENT);
    expect(stored.status).toBe(200);
    // V1 is free: no budget is needed for it either.
    const free = await http(`/images/v1/competitors/${imageIds.v1LogoCompetitor}`)(SPENT);
    expect(free.status).toBe(200);
    const counts = await requestCounts(stack.sandbox.url);
    expect(Object.keys(counts.byRoute)).toEqual([`GET /v1/football/images/competitors/${imageIds.v1LogoCompetitor}`]);
    expect(await budgetOf(SPENT)).toBe(0);
  });

  it('graphql: a subscription over SSE passes the same gate', async () => {
    // The ticker's poll is fresh in the cache for a while after the charged run above: make it due again
    // (a restart on the cache file would keep it, issue 18: this one starts with the upstream cache in memory, empty).
    await stack.stopGateway();
    await stack.restartGateway({ GATEWAY_CLIENT_KEYS: KEYS, CACHE_STORE: 'memory' });
    await resetCounts(stack.sandbox.url);
    const refused = await sseFirst('subscription { liveTicker { stale } }')(SPENT);
    expect(refused.refusal).toMatchObject({ code: 'QUOTA_EXHAUSTED', scope: 'client' });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });
});
