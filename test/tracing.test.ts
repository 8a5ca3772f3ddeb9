/**
 * Issue 15, item 5: OpenTelemetry. A span per operation, the child of the
 * caller's W3C `traceparent`, and a child span per upstream resource it
 * loads, carrying the version, the route template (never an ID, the key or
 * a URL), the cache outcome (hit, miss, stale, shared in flight), whether
 * it was counted and the allowance left; exported over OTLP/HTTP to a real
 * receiver on loopback (test/support/otlp-receiver.ts) because
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, and off without it.
 *
 * Upstream requests are counted at the sandbox and compared with the spans.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type ConfigError, loadConfig } from '../src/config.js';
import { openTracing } from '../src/tracing/open-tracing.js';
import { createLogger } from '../src/logger.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts } from './support/client.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { startStack, type TestStack } from './support/servers.js';

const CLIENT_KEY = 'tracing-test-key-0001';
const NEWS_ROUTE = 'GET /v1/hockey/news';
const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');
/** A caller's span: `traceparent` header and the IDs in it. */
function callerSpan(sampled = true): { traceId: string; spanId: string; headers: Record<string, string> } {
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, headers: { traceparent: `00-${traceId}-${spanId}-${sampled ? '01' : '00'}` } };
}

describe('OpenTelemetry traces over OTLP/HTTP', () => {
  let receiver: OtlpReceiver;
  let stack: TestStack;
  const as = { authorization: `Bearer ${CLIENT_KEY}` };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    stack = await startStack({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: 'sports-graph-test',
        // Export within 50 ms of a span's end rather than 5 s: the test waits for spans, not for time.
        OTEL_BSP_SCHEDULE_DELAY: '50',
        GATEWAY_CLIENT_KEYS: `tracer:${CLIENT_KEY}`,
        // News is stale at once: the stale test needs an old copy and a failing refresh.
        CACHE_TTL_NEWS: '0',
      },
    });
  });
  afterAll(async () => {
    await clearFaults(stack.sandbox.url);
    await stack.close();
    await receiver.close();
  });

  /** The spans of one trace once its operation span (named `name`) has arrived: children end first, so they came no later. */
  async function traceOf(
    traceId: string,
    name: string,
  ): Promise<{ operation: ReceivedSpan; children: ReceivedSpan[] }> {
    const spans = await receiver.waitFor((all) => all.some((span) => span.traceId === traceId && span.name === name));
    const operation = spans.find((span) => span.traceId === traceId && span.name === name) as ReceivedSpan;
    return { operation, children: spans.filter((span) => span.parentSpanId === operation.spanId) };
  }

  const childNamed = (children: ReceivedSpan[], name: string): ReceivedSpan => {
    const found = children.find((span) => span.name === name);
    expect(found, `a child span ${name} among ${children.map((span) => span.name).join(', ')}`).toBeDefined();
    return found as ReceivedSpan;
  };

  it("honours the caller's traceparent: the operation span continues its trace, with one child per upstream load, as many as the sandbox received", async () => {
    await resetCounts(stack.sandbox.url);
    const caller = callerSpan();
    const answer = await gql(
      stack.gateway.url,
      'query Standings { v1 { hockey { standings { entries { position } } } } sports { sport } }',
      undefined,
      {
        ...caller.headers,
        ...as,
      },
    );
    expect(answer.errors).toBeUndefined();
    const { operation, children } = await traceOf(caller.traceId, 'query Standings');
    expect(operation.parentSpanId).toBe(caller.spanId);
    expect(operation.kind).toBe(SERVER);
    expect(operation.resource['service.name']).toBe('sports-graph-test');
    expect(operation.attributes).toMatchObject({
      'graphql.operation.type': 'query',
      'graphql.operation.name': 'Standings',
      'sports_graph.client': 'tracer',
      'sports_graph.cost.upstream_requests': 2,
      'sports_graph.cost.counted_requests': 1,
      'sports_graph.cost.estimated': 1,
      'sports_graph.allowance.remaining': stack.gateway.services.ledger.snapshot().remaining,
    });
    expect(operation.statusCode).not.toBe(ERROR);

    const sent = await requestCounts(stack.sandbox.url);
    expect(children.map((span) => span.name).sort()).toEqual(Object.keys(sent.byRoute).sort());
    const standings = childNamed(children, 'GET /v1/hockey/standings');
    expect(standings.kind).toBe(CLIENT);
    expect(standings.attributes).toMatchObject({
      'url.template': '/v1/hockey/standings',
      'sports_graph.upstream.version': 'v1',
      'sports_graph.cache.outcome': 'miss',
      'sports_graph.upstream.requests': 1,
      'sports_graph.upstream.counted': true,
      'sports_graph.route.counted': true,
    });
    expect(standings.attributes['sports_graph.allowance.remaining']).toEqual(expect.any(Number));
    expect(childNamed(children, 'GET /reference/sports').attributes).toMatchObject({
      'sports_graph.cache.outcome': 'miss',
      'sports_graph.upstream.counted': false,
      'sports_graph.route.counted': false,
    });
    for (const child of children) {
      expect(child.traceId).toBe(caller.traceId);
      expect(child.startNs >= operation.startNs && child.endNs <= operation.endNs).toBe(true);
    }
  });

  it('a resource the cache holds is a `hit`: nothing sent, not counted', async () => {
    await resetCounts(stack.sandbox.url);
    const caller = callerSpan();
    await gql(stack.gateway.url, 'query Points { v1 { hockey { standings { entries { points } } } } }', undefined, {
      ...caller.headers,
      ...as,
    });
    const { operation, children } = await traceOf(caller.traceId, 'query Points');
    expect(childNamed(children, 'GET /v1/hockey/standings').attributes).toMatchObject({
      'sports_graph.cache.outcome': 'hit',
      'sports_graph.upstream.requests': 0,
      'sports_graph.upstream.counted': false,
    });
    expect(operation.attributes).toMatchObject({
      'sports_graph.cost.upstream_requests': 0,
      'sports_graph.cost.cache_hits': 1,
    });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it("an operation that joins another's request in flight is `shared`; a failed refresh answered from an old copy is `stale`, with its reason", async () => {
    const news = (name: string, field: string) =>
      `query ${name} { v1 { hockey { news(competitionId: 303, limit: 5) { articles { ${field} } } } } }`;
    await resetCounts(stack.sandbox.url);
    // The first request is held 3 s at the sandbox (below the 5 s headers timeout); the second operation is sent once the sandbox has it.
    await injectFault(stack.sandbox.url, { route: NEWS_ROUTE, kind: 'delay', latencyMs: 3_000, times: 1 });
    const starter = callerSpan();
    const first = gql(stack.gateway.url, news('NewsStarter', 'title'), undefined, { ...starter.headers, ...as });
    for (let i = 0; (await requestCounts(stack.sandbox.url)).byRoute[NEWS_ROUTE] === undefined; i += 1) {
      if (i > 200) throw new Error('the sandbox never received the news request');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const joiner = callerSpan();
    const [started, joined] = await Promise.all([
      first,
      gql(stack.gateway.url, news('NewsJoiner', 'publishedAt'), undefined, { ...joiner.headers, ...as }),
    ]);
    expect(started.errors, JSON.stringify(started.errors)).toBeUndefined();
    expect(joined.errors, JSON.stringify(joined.errors)).toBeUndefined();
    expect((await requestCounts(stack.sandbox.url)).byRoute[NEWS_ROUTE]).toBe(1);
    expect(
      childNamed((await traceOf(starter.traceId, 'query NewsStarter')).children, 'GET /v1/hockey/news').attributes[
        'sports_graph.cache.outcome'
      ],
    ).toBe('miss');
    const joinedSpan = childNamed((await traceOf(joiner.traceId, 'query NewsJoiner')).children, 'GET /v1/hockey/news');
    expect(joinedSpan.attributes).toMatchObject({
      'sports_graph.cache.outcome': 'shared',
      'sports_graph.upstream.requests': 0,
      'sports_graph.upstream.counted': false,
    });

    // News is stale at once (CACHE_TTL_NEWS=0): a 502 on the refresh is answered from the copy just stored.
    await injectFault(stack.sandbox.url, { route: NEWS_ROUTE, status: 502, times: 1 });
    const stale = callerSpan();
    const answer = await gql(stack.gateway.url, news('NewsStale', 'title'), undefined, { ...stale.headers, ...as });
    expect(answer.extensions?.['stale']).toBeDefined();
    expect(
      childNamed((await traceOf(stale.traceId, 'query NewsStale')).children, 'GET /v1/hockey/news').attributes,
    ).toMatchObject({
      'sports_graph.cache.outcome': 'stale',
      'sports_graph.stale.reason': 'UPSTREAM_UNAVAILABLE',
      'sports_graph.upstream.requests': 1,
    });
  });

  it('a failed load is an error span carrying its code, and so is its operation', async () => {
    const caller = callerSpan();
    await gql(stack.gateway.url, 'query Missing { v1 { hockey { athlete(id: "999999999") { name } } } }', undefined, {
      ...caller.headers,
      ...as,
    });
    const { operation, children } = await traceOf(caller.traceId, 'query Missing');
    const athlete = childNamed(children, 'GET /v1/hockey/athletes');
    expect(athlete.statusCode).toBe(ERROR);
    expect(athlete.attributes['error.type']).toBe('NOT_FOUND');
    expect(operation.statusCode).toBe(ERROR);
    expect(operation.attributes['sports_graph.error_codes']).toEqual(['NOT_FOUND']);
  });

  it('an incoming trace that is not sampled records nothing; the next sampled one does', async () => {
    const unsampled = callerSpan(false);
    await gql(
      stack.gateway.url,
      'query Unsampled { v1 { hockey { standings { entries { position } } } } }',
      undefined,
      { ...unsampled.headers, ...as },
    );
    const sampled = callerSpan();
    await gql(stack.gateway.url, 'query Sampled { v1 { hockey { standings { entries { position } } } } }', undefined, {
      ...sampled.headers,
      ...as,
    });
    // Spans are exported in the order they end: once the later operation's span is in, the earlier one would be too.
    await traceOf(sampled.traceId, 'query Sampled');
    expect(receiver.spans.filter((span) => span.traceId === unsampled.traceId)).toEqual([]);
  });

  it('a result-cache hit answered before yoga has its span too', async () => {
    const query = 'query Again { v1 { hockey { standings { entries { position points } } } } }';
    const body = JSON.stringify({ query, operationName: 'Again' });
    const post = (headers: Record<string, string>) =>
      fetch(`${stack.gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...as, ...headers },
        body,
      });
    expect((await post({})).status).toBe(200);
    const caller = callerSpan();
    const hit = await post(caller.headers);
    expect(
      ((await hit.json()) as { extensions: { cost: { upstreamRequests: number } } }).extensions.cost.upstreamRequests,
    ).toBe(0);
    const { operation, children } = await traceOf(caller.traceId, 'query Again');
    expect(operation.parentSpanId).toBe(caller.spanId);
    expect(operation.attributes).toMatchObject({
      'sports_graph.result_cache': 'hit',
      'sports_graph.cost.upstream_requests': 0,
    });
    expect(children).toEqual([]);
  });

  it("a @defer operation's span ends after its last payload and holds the deferred loads", async () => {
    await resetCounts(stack.sandbox.url);
    const caller = callerSpan();
    const team = hockeyV2Ids.firstTeam + 5;
    const query = `query Deferred { v2(sport: ICE_HOCKEY) { hockey { team(id: "${team}") { detail { name }
      ... @defer { seasonAggregates(tournamentId: "${hockeyV2Ids.uniqueTournament}", seasonId: "${hockeyV2Ids.season}") { matches } } } } } }`;
    const response = await fetch(`${stack.gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'multipart/mixed', ...as, ...caller.headers },
      body: JSON.stringify({ query }),
    });
    expect(await response.text()).toContain('"hasNext":false');
    const { operation, children } = await traceOf(caller.traceId, 'query Deferred');
    const sent = await requestCounts(stack.sandbox.url);
    expect(children).toHaveLength(sent.total);
    expect(
      children.filter((span) => span.attributes['url.template'] === '/v2/hockey/api/match/{matchId}/statistics').length,
      JSON.stringify(children.map((c) => c.name)),
    ).toBeGreaterThan(0);
    expect(operation.attributes['sports_graph.cost.upstream_requests']).toBe(sent.total);
    for (const child of children) expect(child.endNs <= operation.endNs).toBe(true);
  });

  it('over graphql-ws, the traceparent of the upgrade request is the parent of every operation on the socket', async () => {
    const caller = callerSpan();
    const ws = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      connectionParams: { authorization: `Bearer ${CLIENT_KEY}` },
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { headers: caller.headers });
        }
      },
      retryAttempts: 0,
    });
    try {
      const answer = await new Promise<{ data?: unknown }>((resolve, reject) => {
        ws.subscribe(
          { query: 'query OverSocket { sports { sport } }' },
          { next: (value) => resolve(value), error: reject, complete: () => undefined },
        );
      });
      expect(answer.data).toMatchObject({ sports: expect.any(Array) as unknown });
    } finally {
      await ws.dispose();
    }
    const { operation } = await traceOf(caller.traceId, 'query OverSocket');
    expect(operation.parentSpanId).toBe(caller.spanId);
    expect(operation.attributes['sports_graph.client']).toBe('tracer');
  });

  it('never exports the upstream key, a client key, an entity ID or a full upstream URL', async () => {
    const caller = callerSpan();
    await gql(
      stack.gateway.url,
      `query Athlete { v1 { hockey { athlete(id: "${hockeyV1Ids.firstAthleteId}") { name } } } }`,
      undefined,
      { ...caller.headers, ...as },
    );
    await traceOf(caller.traceId, 'query Athlete');
    const exported = receiver.bodies.join('\n');
    expect(exported).not.toContain(stack.apiKey);
    expect(exported).not.toContain(CLIENT_KEY);
    expect(exported).not.toContain(String(hockeyV1Ids.firstAthleteId));
    expect(exported).not.toContain(stack.sandbox.url);
    expect(receiver.refused).toEqual([]);
  });
});

describe('tracing configuration', () => {
  it('is off without an endpoint: no tracer is made', async () => {
    const config = loadConfig({});
    expect(config.tracing.tracesUrl).toBeUndefined();
    expect(await openTracing(config.tracing, { replicaId: 'r', logger: createLogger('silent') })).toBeUndefined();
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }).tracing.tracesUrl,
    ).toBeUndefined();
  });

  it('takes the standard variables: the base endpoint gets /v1/traces, the traces endpoint is used as given, headers are key=value pairs', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing.tracesUrl).toBe(
      'http://collector:4318/v1/traces',
    );
    const traces = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/otlp/traces',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-token=abc%3D, tenant=t1',
    });
    expect(traces.tracing.tracesUrl).toBe('https://b/otlp/traces');
    expect(traces.tracing.headers).toEqual({ 'x-token': 'abc=', tenant: 't1' });
  });

  it('names a bad value: an endpoint that is not an http(s) URL, headers that are not pairs', () => {
    const problems = (env: Record<string, string>): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toEqual([
      expect.stringContaining('OTEL_EXPORTER_OTLP_ENDPOINT'),
    ]);
    expect(problems({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' })).toEqual([
      expect.stringContaining('must use http: or https:'),
    ]);
    expect(problems({ OTEL_EXPORTER_OTLP_HEADERS: 'just-a-token' })).toEqual([
      'OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs separated by commas',
    ]);
  });
});
