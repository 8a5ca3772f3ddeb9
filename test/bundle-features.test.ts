/**
 * Features the build loads only on demand or only when configured, run from
 * the build's output (`node dist/main.js`, issue 29): esbuild bundles them
 * differently from how tsx runs the sources (a chunk of their own, a
 * CommonJS package turned into an ES module, a package left external, a
 * file copied next to the bundle), so a test of the sources says nothing of
 * them. The other process tests cover the embedded sandbox
 * (start-offline), the disk cache (cache-restart, cache-file-state) and
 * cluster mode (cluster-*); these cover the rest, one small check each.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { gql, gqlAt, requestCounts, resetCounts } from './support/client.js';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver.js';

const API_KEY = 'bundle-features-key';
const STANDINGS = `{ v1 { hockey { standings(competition: ${hockeyV1Ids.topLeague.standingsId}) { entries { position } } } } }`;
const SPORTS = '{ sports { sport } }';
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const persisted = (id: string): Record<string, unknown> => ({ persistedQuery: { version: 1, sha256Hash: id } });

interface Answer {
  status: number;
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

async function post(gatewayUrl: string, body: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(`${gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, ...((await response.json()) as Omit<Answer, 'status'>) };
}

const codeOf = (answer: Answer): unknown => answer.errors?.[0]?.extensions?.['code'];
const upstream = { SPORTS_API_KEY: API_KEY, SPORTS_API_PLAN: 'pro' };

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: API_KEY, allowance: 7_500 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('the build, with tracing on', () => {
  let receiver: OtlpReceiver;
  let gateway: GatewayProcess | undefined;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await gateway?.stop();
    await receiver.close();
  });

  it('starts, and exports the operation span of a query over OTLP/HTTP', async () => {
    gateway = await startGatewayProcess({
      ...upstream,
      SPORTS_API_BASE_URL: sandbox.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'sports-graph-bundle',
      // Export within 50 ms of a span's end: the test waits for the span, not for time.
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    expect(gateway.process.spawnargs.slice(1)).toEqual(['dist/main.js']);
    const traceId = randomBytes(16).toString('hex');
    const answer = await gql(gateway.url, `query Standings ${STANDINGS}`, undefined, {
      traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    });
    expect(answer.errors).toBeUndefined();
    const spans = await receiver.waitFor((all) =>
      all.some((span) => span.traceId === traceId && span.name === 'query Standings'),
    );
    const operation = spans.find((span) => span.traceId === traceId && span.name === 'query Standings');
    expect(operation?.resource['service.name']).toBe('sports-graph-bundle');
    expect(spans.filter((span) => span.traceId === traceId).map((span) => span.name)).toContain(
      'GET /v1/hockey/standings',
    );
    expect(receiver.refused).toEqual([]);
  });
});

describe('the build, with default settings', () => {
  let gateway: GatewayProcess;
  beforeAll(async () => {
    gateway = await startGatewayProcess({ ...upstream, SPORTS_API_BASE_URL: sandbox.url });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('leaves the OpenTelemetry SDK out of its entry module: it is a chunk loaded only when tracing is on', async () => {
    const main = await readFile('dist/main.js', 'utf8');
    expect(main).not.toContain('class OTLPTraceExporter');
    expect(main).toMatch(/await import\("\.\/chunks\/sdk-\w+\.js"\)/);
  });

  it('serves GraphiQL and its assets, loaded from the external @graphql-yoga/render-graphiql on first request', async () => {
    const page = await fetch(`${gateway.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const files = [...(await page.text()).matchAll(/"(\/graphiql\/[^"]+\.js)"/g)].map((match) => match[1] ?? '');
    expect(files.length).toBeGreaterThan(0);
    const asset = await fetch(`${gateway.url}${files[0] ?? ''}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(1_000);
  });

  it('answers as a Federation subgraph on /subgraph: its SDL, and an entity with the one upstream request it needs', async () => {
    const printed = await gqlAt<{ _service: { sdl: string } }>(`${gateway.url}/subgraph`, '{ _service { sdl } }');
    expect(printed.errors).toBeUndefined();
    expect(printed.data?._service.sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.3"');
    await resetCounts(sandbox.url);
    const nativeId = String(hockeyV1Ids.firstAthleteId);
    const entities = await gqlAt<{ _entities: Array<{ ref: { nativeId: string } }> }>(
      `${gateway.url}/subgraph`,
      'query ($r: [_Any!]!) { _entities(representations: $r) { ... on V1HockeyAthlete { ref { nativeId } name } } }',
      { r: [{ __typename: 'V1HockeyAthlete', ref: { version: 'V1', nativeId, sport: 'hockey' } }] },
    );
    expect(entities.errors).toBeUndefined();
    expect(entities.data?._entities.map((entity) => entity.ref.nativeId)).toEqual([nativeId]);
    expect((await requestCounts(sandbox.url)).byRoute).toEqual({ 'GET /v1/hockey/athletes': 1 });
  });

  it('takes automatic persisted queries: the hash alone is unknown, hash and text register it, then the hash alone runs', async () => {
    const hash = sha256(SPORTS);
    expect(codeOf(await post(gateway.url, { extensions: persisted(hash) }))).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registered = await post(gateway.url, { query: SPORTS, extensions: persisted(hash) });
    expect(registered.errors).toBeUndefined();
    const byHash = await post(gateway.url, { extensions: persisted(hash) });
    expect(byHash.errors).toBeUndefined();
    expect(byHash.data).toEqual(registered.data);
  });

  it('serves MCP on /mcp with the bundled SDK: a tool call answers, estimate spends nothing, the examples are resources', async () => {
    await resetCounts(sandbox.url);
    const response = await fetch(`${gateway.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'estimate', arguments: { query: STANDINGS } },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result?: { structuredContent?: Record<string, unknown> } };
    expect(body.result?.structuredContent).toMatchObject({ requests: expect.any(Number), spent: 0 });
    expect((await requestCounts(sandbox.url)).total).toBe(0);
    // The example operations it offers as resources are the files the build copies next to the bundle.
    const listed = await fetch(`${gateway.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/list' }),
    });
    const { result } = (await listed.json()) as { result?: { resources: Array<{ uri: string }> } };
    expect(result?.resources.map((resource) => resource.uri)).toContain(
      'sports-graph://examples/1-hockey-night.graphql',
    );
  });

  it("serves the odds widget's page, a file the build copies next to the bundle", async () => {
    const widget = await fetch(`${gateway.url}/widgets/odds`);
    expect(widget.status).toBe(200);
    expect(widget.headers.get('content-type')).toMatch(/text\/html/);
  });
});

describe('the build, with trusted documents only', () => {
  let dir: string;
  let gateway: GatewayProcess | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sports-graph-bundle-trusted-'));
  });
  afterAll(async () => {
    await gateway?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs a manifest operation by its ID and refuses an ad-hoc document before any upstream request', async () => {
    const file = join(dir, 'persisted-documents.json');
    await writeFile(file, JSON.stringify({ [sha256(STANDINGS)]: STANDINGS }));
    gateway = await startGatewayProcess({
      ...upstream,
      SPORTS_API_BASE_URL: sandbox.url,
      TRUSTED_DOCUMENTS_FILE: file,
    });
    await resetCounts(sandbox.url);
    const refused = await post(gateway.url, { query: SPORTS });
    expect(refused.status).toBe(403);
    expect(codeOf(refused)).toBe('TRUSTED_DOCUMENTS_ONLY');
    expect((await requestCounts(sandbox.url)).total).toBe(0);
    const byId = await post(gateway.url, { extensions: persisted(sha256(STANDINGS)) });
    expect(byId.errors).toBeUndefined();
    expect(byId.data).toMatchObject({ v1: { hockey: { standings: { entries: expect.any(Array) as unknown } } } });
    expect((await requestCounts(sandbox.url)).byRoute['GET /v1/hockey/standings']).toBe(1);
  });
});
