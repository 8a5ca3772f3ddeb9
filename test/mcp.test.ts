/**
 * The MCP endpoint (src/transport/mcp/), with the SDK's own client over
 * real HTTP against a gateway on the sandbox: the tools, what each costs
 * (exact sandbox counts), the per-call cap, the budget refusal with cached
 * data still served, and the doors (Origin, client keys, MCP=false).
 */
import { readdir } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { v2HockeyRoutes } from '../src/upstream/routes/v2-hockey.js';
import { v4Routes } from '../src/upstream/routes/v4.js';
import { requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const RICH = 'rich-mcp-client-key-0001';
const POOR = 'poor-mcp-client-key-0002';
const KEYS = `rich:${RICH}:500,poor:${POOR}:1`;
const CAP = 3;
/** A front-end origin the gateway admits cross-origin. */
const APP = 'http://app.example:5173';

const athlete = (offset: number): string =>
  `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + offset}) { name } } } }`;
const athletes = (...offsets: number[]): string =>
  `{ v1 { hockey { athletes(ids: [${offsets.map((o) => `"${hockeyV1Ids.firstAthleteId + o}"`).join(', ')}]) { name } } } }`;

interface Cost {
  estimated?: number;
  upstreamRequests: number;
  cacheHits: number;
  allowanceRemaining: number;
  budgetRemaining?: number;
}

interface Catalogue {
  sports: Array<{ key: string; name: string; slug: string; sport: string | null }>;
  routeFamilies: Array<{ family: string; sport?: string; routes: string[]; counted: number }>;
}

interface Resource {
  route: string;
  version: string;
  resource: string;
  cached: 'fresh' | 'stale' | 'none';
  ageSeconds?: number;
}

const structured = (result: unknown): Record<string, unknown> =>
  (result as CallToolResult).structuredContent as Record<string, unknown>;
const text = (result: unknown): string =>
  ((result as CallToolResult).content[0] as { type: 'text'; text: string } | undefined)?.text ?? '';

describe('the MCP endpoint', () => {
  let stack: TestStack;
  const clients: Client[] = [];

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'sports-graph-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.gateway.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    stack = await startStack({
      env: { GATEWAY_CLIENT_KEYS: KEYS, MCP_MAX_CALL_COST: String(CAP), GATEWAY_CORS_ORIGINS: APP },
    });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await stack.close();
  });

  it('lists its tools, each with an input schema and a description that says what it costs', async () => {
    const client = await connect(RICH);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'estimate',
      'example_allowance',
      'example_hockey_night',
      'example_logo_fallback',
      'example_v2_discovery',
      'example_v6_team_stats',
      'example_world_cup',
      'execute',
      'quota',
      'search_schema',
    ]);
    const execute = tools.find((tool) => tool.name === 'execute');
    expect(execute?.inputSchema.required).toEqual(['query']);
    expect(execute?.description).toContain(`above ${CAP} counted requests`);
    expect(execute?.description).toContain('Subscriptions are not MCP tools');
    for (const tool of tools.filter((t) => t.name !== 'execute' && !t.name.startsWith('example_')))
      expect(tool.description).toMatch(/^Free/);
    const night = tools.find((tool) => tool.name === 'example_hockey_night');
    expect(night?.description).toContain('Cold it spends at most 3 counted upstream requests');
    expect(night?.inputSchema.properties).toMatchObject({ standings: {}, news: {}, game: {} });
    expect(night?.inputSchema.required ?? []).toEqual([]);
    expect(client.getInstructions()).toContain('Subscriptions are not MCP tools');
  });

  it('estimate spends nothing, and equals what the same operation spends cold', async () => {
    const client = await connect(RICH);
    await resetCounts(stack.sandbox.url);
    const estimate = structured(await client.callTool({ name: 'estimate', arguments: { query: athletes(1, 2) } }));
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    expect(estimate).toMatchObject({ requests: 2, uncached: 2, spent: 0, maxCallCost: CAP, overCap: false });
    // Cold: each counted resource it looked up is held by no cache, so has no age.
    const cold = estimate['resources'] as Resource[];
    expect(cold).toHaveLength(2);
    for (const resource of cold) {
      expect(resource).toMatchObject({ version: 'v1', cached: 'none' });
      expect(resource.ageSeconds).toBeUndefined();
    }

    const before = structured(await client.callTool({ name: 'quota', arguments: {} }));
    const executed = structured(await client.callTool({ name: 'execute', arguments: { query: athletes(1, 2) } }));
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.total).toBe(estimate['requests']);
    expect(executed['errors']).toBeUndefined();
    expect(executed['data']).toMatchObject({ v1: { hockey: { athletes: [{ name: expect.any(String) }, {}] } } });
    const cost = executed['cost'] as Cost;
    expect(cost).toMatchObject({ estimated: 2, upstreamRequests: 2 });
    expect(cost.budgetRemaining).toBe(500 - 2);
    // What it spent, and the allowance and budget the ledger holds once it finished.
    expect(executed['spent']).toEqual({ upstreamRequests: 2 });
    expect(executed['after']).toMatchObject({
      remaining: Number(before['remaining']) - 2,
      available: Number(before['remaining']) - 2,
      used: Number(before['used']) + 2,
      budgetRemaining: 500 - 2,
    });
    expect(structured(await client.callTool({ name: 'quota', arguments: {} }))).toMatchObject({
      remaining: (executed['after'] as Record<string, unknown>)['remaining'],
    });

    // Now cached: free to estimate and to run, and the estimate says which copies answer and how old they are.
    await resetCounts(stack.sandbox.url);
    const again = structured(await client.callTool({ name: 'estimate', arguments: { query: athletes(1, 2) } }));
    expect(again).toMatchObject({ requests: 0 });
    const warmResources = again['resources'] as Resource[];
    expect(warmResources.map((resource) => resource.resource).sort()).toEqual(
      cold.map((resource) => resource.resource).sort(),
    );
    for (const resource of warmResources) {
      expect(resource.cached).toBe('fresh');
      expect(resource.ageSeconds).toBeGreaterThanOrEqual(0);
    }
    const warm = structured(await client.callTool({ name: 'execute', arguments: { query: athletes(1, 2) } }));
    expect(warm['cost']).toMatchObject({ upstreamRequests: 0 });
    expect(warm['spent']).toEqual({ upstreamRequests: 0 });
    expect(warm['after']).toMatchObject({ remaining: (executed['after'] as Record<string, unknown>)['remaining'] });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('an example tool runs its operation with the example variables, spending what its description says cold', async () => {
    const client = await connect(RICH);
    await resetCounts(stack.sandbox.url);
    const night = structured(await client.callTool({ name: 'example_hockey_night', arguments: {} }));
    expect(night['errors']).toBeUndefined();
    expect(night['data']).toMatchObject({ v1: { hockey: { standings: {} } } });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(3);
    expect(night['cost']).toMatchObject({ estimated: 3, upstreamRequests: 3 });
    // Another game: its variables are the tool's input, checked against the operation's types.
    const bad = await client.callTool({ name: 'example_hockey_night', arguments: { game: true } });
    expect(bad.isError).toBe(true);
  });

  it('execute refuses an operation estimated above the per-call cap before sending anything', async () => {
    const client = await connect(RICH);
    await resetCounts(stack.sandbox.url);
    const result = await client.callTool({ name: 'execute', arguments: { query: athletes(10, 11, 12, 13) } });
    expect(result.isError).toBe(true);
    expect(structured(result)).toMatchObject({ estimate: { requests: 4 }, maxCallCost: CAP });
    expect(String(structured(result)['refused'])).toContain('per-call cap of 3');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('quota shows the allowance, the caller budget and the cap, and spends nothing', async () => {
    const client = await connect(RICH);
    await resetCounts(stack.sandbox.url);
    const quota = structured(await client.callTool({ name: 'quota', arguments: {} }));
    expect(quota).toMatchObject({
      plan: 'PRO',
      limit: expect.any(Number),
      used: expect.any(Number),
      remaining: expect.any(Number),
      budgetRemaining: expect.any(Number),
      maxCallCost: CAP,
    });
    expect(new Date(String(quota['resetsAt'])).toISOString()).toMatch(/T00:00:00\.000Z$/);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('search_schema finds fields with their descriptions and cost hints, and spends nothing', async () => {
    const client = await connect(RICH);
    await resetCounts(stack.sandbox.url);
    const found = text(await client.callTool({ name: 'search_schema', arguments: { words: 'roster' } }));
    expect(found).toContain('roster');
    expect(found).toContain('"""Full roster, positions G, D, LW, RW, C."""');
    expect(found).toMatch(/roster: \[HockeyRosterPlayer!\] {2}# cost: may spend counted upstream requests/);
    const quota = text(await client.callTool({ name: 'search_schema', arguments: { words: 'daily allowance' } }));
    expect(quota).toContain('type Quota');
    expect(quota).toContain('# cost: free');
    const nothing = text(await client.callTool({ name: 'search_schema', arguments: { words: 'zzzqqq' } }));
    expect(nothing).toContain('Nothing in the schema matches');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('offers the schema, the quota and the example operations as resources, free to read', async () => {
    const client = await connect(RICH);
    await resetCounts(stack.sandbox.url);
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    expect(uris).toEqual(
      expect.arrayContaining(['sports-graph://schema', 'sports-graph://quota', 'sports-graph://sports']),
    );
    const examples = resources.filter((resource) => resource.uri.startsWith('sports-graph://examples/'));
    expect(examples.length).toBeGreaterThan(3);
    for (const example of examples) expect(example.description).toMatch(/^Free to read: \S/);
    const read = async (uri: string): Promise<string> => {
      const [first] = (await client.readResource({ uri })).contents;
      return first !== undefined && 'text' in first ? first.text : '';
    };
    expect(await read('sports-graph://schema')).toContain('type Quota {');
    expect(JSON.parse(await read('sports-graph://quota'))).toMatchObject({ plan: 'PRO', maxCallCost: CAP });
    expect(await read(examples[0]?.uri ?? '')).toMatch(/query \w+/);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('offers the sport catalogue per version: the sports and slugs of /reference/sports and the route families of the route tables, spending no allowance', async () => {
    const client = await connect(RICH);
    const read = async (): Promise<Record<string, Catalogue>> => {
      const [first] = (await client.readResource({ uri: 'sports-graph://sports' })).contents;
      return JSON.parse(first !== undefined && 'text' in first ? first.text : '{}') as Record<string, Catalogue>;
    };
    const used = structured(await client.callTool({ name: 'quota', arguments: {} }))['used'];
    await resetCounts(stack.sandbox.url);
    const catalogue = await read();
    // At most the free catalogue itself, once; a second read is answered from the cache.
    const counts = await requestCounts(stack.sandbox.url);
    expect(Object.keys(counts.byRoute).filter((route) => (counts.byRoute[route] ?? 0) > 0)).toEqual(
      counts.total === 0 ? [] : ['/reference/sports'],
    );
    expect(counts.total).toBeLessThanOrEqual(1);
    expect(await read()).toEqual(catalogue);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(counts.total);
    expect(structured(await client.callTool({ name: 'quota', arguments: {} }))['used']).toBe(used);

    expect(Object.keys(catalogue)).toEqual(['v1', 'v2', 'v3', 'v4', 'v6']);
    // The sports of each version are the catalogue's entries with a slug on it.
    const reference = (await (await fetch(`${stack.sandbox.url}/reference/sports`)).json()) as {
      sports: Array<{ sport: string; slugs: Record<string, string | null> }>;
    };
    for (const version of ['v1', 'v2', 'v3', 'v4', 'v6'] as const) {
      expect(catalogue[version]?.sports.map((sport) => [sport.key, sport.slug])).toEqual(
        reference.sports.filter((entry) => entry.slugs[version]).map((entry) => [entry.sport, entry.slugs[version]]),
      );
    }
    expect(catalogue['v2']?.sports).toContainEqual(expect.objectContaining({ key: 'ice_hockey', sport: 'ICE_HOCKEY' }));
    // The route families are the route tables, grouped by the sport in their path.
    const family = (version: string, name: string) =>
      catalogue[version]?.routeFamilies.find((candidate) => candidate.family === name);
    expect(family('v4', '{sport}')?.routes).toEqual(
      Object.values(v4Routes)
        .map((route) => route.template)
        .sort(),
    );
    for (const route of Object.values(v2HockeyRoutes).filter((r) => r.template.startsWith('/v2/hockey/')))
      expect(family('v2', 'hockey')?.routes).toContain(route.template);
    expect(family('v1', 'hockey')).toMatchObject({ sport: 'ice_hockey', counted: 4 });
    expect(family('v1', 'hockey')?.routes).toContain('/v1/hockey/standings');
    // A path segment that is no slug of the version (V3's `/v3/match/{id}`) names no sport.
    expect(family('v3', 'global')?.routes).toContain('/v3/match/{id}');
    expect(family('v1', 'global')?.routes).toContain('/reference/sports');
    expect(family('v1', 'global')?.counted).toBeLessThan(family('v1', 'global')?.routes.length ?? 0);
    // Every route of every route table of src/upstream/routes/ is in its version's families: none is left out.
    const routesDir = new URL('../src/upstream/routes/', import.meta.url);
    const modules = (await readdir(routesDir)).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    let checked = 0;
    for (const file of modules) {
      const exported = (await import(new URL(file, routesDir).href)) as Record<string, unknown>;
      for (const table of Object.values(exported)) {
        if (typeof table !== 'object' || table === null) continue;
        for (const route of Object.values(table)) {
          const { template, version } = (route ?? {}) as { template?: unknown; version?: unknown };
          if (typeof template !== 'string' || typeof version !== 'string' || typeof route.build !== 'function')
            continue;
          expect(
            catalogue[version]?.routeFamilies.flatMap((f) => f.routes),
            `${file}: ${template}`,
          ).toContain(template);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('a client with no budget left gets what is cached, and a coded refusal for the rest', async () => {
    const client = await connect(POOR);
    const first = structured(await client.callTool({ name: 'execute', arguments: { query: athlete(20) } }));
    expect(first['errors']).toBeUndefined();
    expect((first['cost'] as Cost).budgetRemaining).toBe(0);
    await resetCounts(stack.sandbox.url);
    const cached = structured(await client.callTool({ name: 'execute', arguments: { query: athlete(20) } }));
    expect(cached['errors']).toBeUndefined();
    expect(cached['data']).toMatchObject({ v1: { hockey: { athlete: { name: expect.any(String) } } } });
    const refused = await client.callTool({ name: 'execute', arguments: { query: athlete(21) } });
    const errors = structured(refused)['errors'] as Array<{ extensions: Record<string, unknown> }>;
    expect(errors[0]?.extensions).toMatchObject({ code: 'QUOTA_EXHAUSTED', scope: 'client' });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('answers an unknown tool and arguments that fail the input schema with clear errors', async () => {
    const client = await connect(RICH);
    await resetCounts(stack.sandbox.url);
    const unknown = await client.callTool({ name: 'drop_tables', arguments: {} }).then(
      (result) => text(result),
      (error: Error) => error.message,
    );
    expect(unknown).toMatch(/drop_tables.*not found/i);
    const bad = await client.callTool({ name: 'execute', arguments: { query: 42 } }).then(
      (result) => ({ isError: result.isError, message: text(result) }),
      (error: Error) => ({ isError: true, message: error.message }),
    );
    expect(bad.isError).toBe(true);
    expect(bad.message).toMatch(/query/);
    const subscription = await client.callTool({
      name: 'execute',
      arguments: { query: 'subscription { liveTicker { stale } }' },
    });
    expect(subscription.isError).toBe(true);
    expect(text(subscription)).toContain('Subscriptions are not MCP tools');
    const invalid = await client.callTool({ name: 'estimate', arguments: { query: '{ nope }' } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toContain('not valid');
    // The endpoint still answers.
    expect((await client.listTools()).tools.length).toBe(10);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('refuses a foreign Origin with 403 and a coded body, a missing client key with 401, GET with 405 and a garbled body with a parse error', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const foreign = await fetch(`${stack.gateway.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${RICH}`, origin: 'http://evil.example' },
      body: initialize,
    });
    expect(foreign.status).toBe(403);
    expect(
      ((await foreign.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions.code,
    ).toBe('ORIGIN_NOT_ALLOWED');
    const anonymous = await fetch(`${stack.gateway.url}/mcp`, { method: 'POST', headers, body: initialize });
    expect(anonymous.status).toBe(401);
    const own = await fetch(`${stack.gateway.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${RICH}`, origin: stack.gateway.url },
      body: initialize,
    });
    expect(own.status).toBe(200);
    // Stateless: no server stream to open, no session to end.
    const get = await fetch(`${stack.gateway.url}/mcp`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${RICH}` },
    });
    expect(get.status).toBe(405);
    const garbled = await fetch(`${stack.gateway.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${RICH}` },
      body: '{"jsonrpc":',
    });
    expect(garbled.status).toBe(400);
    expect(((await garbled.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('answers a CORS preflight with the rules of /graphql: an admitted origin gets 204 and its answers name it, another 403', async () => {
    const preflight = (path: string, origin: string): Promise<Response> =>
      fetch(`${stack.gateway.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
        },
      });
    const mcp = await preflight('/mcp', APP);
    expect(mcp.status).toBe(204);
    expect(mcp.headers.get('access-control-allow-origin')).toBe(APP);
    expect(mcp.headers.get('access-control-allow-methods')).toBe('POST');
    expect(mcp.headers.get('access-control-allow-headers')).toBe('authorization, content-type, mcp-protocol-version');
    // The same decision as /graphql's (one function): the same origin, headers and lifetime.
    const graphql = await preflight('/graphql', APP);
    expect(graphql.status).toBe(204);
    for (const name of ['access-control-allow-origin', 'access-control-allow-headers', 'access-control-max-age'])
      expect(mcp.headers.get(name)).toBe(graphql.headers.get(name));

    const refused = await preflight('/mcp', 'http://evil.example');
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(body.errors[0]?.extensions.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(body.errors[0]?.message).toContain('GATEWAY_CORS_ORIGINS');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight('/graphql', 'http://evil.example')).status).toBe(403);

    // The real request of the admitted page runs, and its answer names the origin so the browser hands it over.
    const own = await fetch(`${stack.gateway.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${RICH}`,
        origin: APP,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
      }),
    });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('estimate names a copy past its TTL as stale, with its age: it costs a request, but answers when the allowance is spent', async () => {
    await stack.stopGateway();
    // Athletes stale the moment they are stored.
    await stack.restartGateway({ CACHE_TTL_ATHLETE: '0' });
    const client = await connect(RICH);
    await resetCounts(stack.sandbox.url);
    const ran = structured(await client.callTool({ name: 'execute', arguments: { query: athlete(30) } }));
    expect(ran['spent']).toEqual({ upstreamRequests: 1 });
    const estimate = structured(await client.callTool({ name: 'estimate', arguments: { query: athlete(30) } }));
    expect(estimate).toMatchObject({ requests: 1, uncached: 0, staleAnswerable: 1 });
    const [resource, ...others] = estimate['resources'] as Resource[];
    expect(others).toEqual([]);
    expect(resource).toMatchObject({ route: '/v1/hockey/athletes', version: 'v1', cached: 'stale' });
    expect(resource?.resource).toContain(`athletes=${hockeyV1Ids.firstAthleteId + 30}`);
    expect(resource?.ageSeconds).toBeGreaterThanOrEqual(0);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(1);
  });

  it('MCP=false answers /mcp with the 404 of any unknown path', async () => {
    await stack.stopGateway();
    await stack.restartGateway({ GATEWAY_CLIENT_KEYS: KEYS, MCP: 'false' });
    const response = await fetch(`${stack.gateway.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${RICH}` },
      body: '{}',
    });
    expect(response.status).toBe(404);
    expect(
      ((await response.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions.code,
    ).toBe('NOT_FOUND');
  });
});
