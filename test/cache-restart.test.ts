/**
 * Issue 18: nothing paid for is forgotten. The upstream cache file
 * (`CACHE_STORE=disk`, the default) outlives the gateway process: after a
 * clean stop or a `kill -9`, the same operations spend 0 counted requests
 * while their resources are fresh, and a gateway restarted while the
 * upstream is down answers stale, marked as stale. Real parts only: the
 * sandbox in this process, the gateway as `npm run dev` runs it, in a child
 * process, on a DATA_DIR the test keeps across restarts. Every count is the
 * sandbox's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { ANY_ROUTE } from '../sandbox/faults.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { cacheFileSettled } from './support/cache-file.js';
import { gatewayStartFailure, startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';

const API_KEY = 'cache-restart-key';
const STANDINGS_ROUTE = 'GET /v1/hockey/standings';

/** Several resources on two versions (V2 also needs `/reference/sports` for its slug). */
const TEAM_AND_NEWS = `{
  v1 { hockey { news(limit: 3) { articles { title } } } }
  v2(sport: ICE_HOCKEY) { hockey { team(id: "${hockeyV2Ids.firstTeam + 1}") { detail { name } roster { position } } } }
}`;
const STANDINGS = `{ v1 { hockey { standings { entries { position } } } } }`;

const upstreamRequestsOf = (response: GraphQLResponse): number =>
  (response.extensions!['cost'] as { upstreamRequests: number }).upstreamRequests;

describe('the upstream cache across restarts', () => {
  let sandbox: SandboxHandle;
  let dataDir: string;
  let gateway: GatewayProcess | undefined;
  // Standings go stale after 1 s (the stale case); everything else keeps its default TTL (minutes and more).
  const env = (): Record<string, string> => ({
    SPORTS_API_BASE_URL: sandbox.url,
    SPORTS_API_KEY: API_KEY,
    SPORTS_API_PLAN: 'pro',
    CACHE_TTL_STANDINGS: '1',
  });

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, apiKey: API_KEY, allowance: 7_500 });
  });
  afterAll(() => sandbox.close());
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cache-restart-'));
    await clearFaults(sandbox.url);
    await resetCounts(sandbox.url);
  });
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Runs `query` once on a fresh gateway; returns its answer and what it cost the upstream. */
  const firstRun = async (query: string): Promise<{ answer: GraphQLResponse; spent: number }> => {
    gateway = await startGatewayProcess(env(), { dataDir });
    const answer = await gql(gateway.url, query);
    expect(answer.errors).toBeUndefined();
    const spent = (await requestCounts(sandbox.url)).total;
    expect(spent).toBeGreaterThanOrEqual(3);
    expect(upstreamRequestsOf(answer)).toBe(spent);
    return { answer, spent };
  };

  /** A fresh gateway on the same file answers TEAM_AND_NEWS as before, with no upstream request. */
  const expectRestartAnswersFromFile = async (answer: GraphQLResponse, spent: number): Promise<void> => {
    gateway = await startGatewayProcess(env(), { dataDir });
    const again = await gql(gateway.url, TEAM_AND_NEWS);
    expect(again.errors).toBeUndefined();
    expect(again.data).toEqual(answer.data);
    expect(upstreamRequestsOf(again)).toBe(0);
    expect((await requestCounts(sandbox.url)).total).toBe(spent);
  };

  it('after a clean stop (SIGTERM) the same operation spends 0 requests and answers the same', async () => {
    const { answer, spent } = await firstRun(TEAM_AND_NEWS);
    await gateway?.stop();

    await expectRestartAnswersFromFile(answer, spent);
  });

  it('after kill -9 the same operation spends 0 requests: what was committed survives the crash', async () => {
    const { answer, spent } = await firstRun(TEAM_AND_NEWS);
    // The file commits in batches off the request path: wait until this one is in (the gauge says so), then crash.
    await cacheFileSettled(gateway!.url, spent);
    await gateway?.kill();

    await expectRestartAnswersFromFile(answer, spent);
  });

  it('restarted while the upstream is down: stale answers are served and marked, fresh ones cost nothing', async () => {
    gateway = await startGatewayProcess(env(), { dataDir });
    const fresh = await gql(gateway.url, STANDINGS);
    const others = await gql(gateway.url, TEAM_AND_NEWS);
    expect(fresh.errors).toBeUndefined();
    expect(others.errors).toBeUndefined();
    const storedAt = Date.now();
    const spent = (await requestCounts(sandbox.url)).total;
    await cacheFileSettled(gateway.url, spent);
    await gateway.kill();

    // Every route fails from now on, and the standings are past their 1 s TTL.
    await injectFault(sandbox.url, { route: ANY_ROUTE, status: 502 });
    while (Date.now() <= storedAt + 1_200) await new Promise((resolve) => setTimeout(resolve, 100));
    await resetCounts(sandbox.url);

    gateway = await startGatewayProcess(env(), { dataDir });
    const stale = await gql(gateway.url, STANDINGS);
    expect(stale.errors).toBeUndefined();
    expect(stale.data).toEqual(fresh.data);
    expect(stale.extensions?.['stale']).toEqual([expect.objectContaining({ reason: 'UPSTREAM_UNAVAILABLE' })]);
    // One refused refresh of the standings (and its retry, if the pipeline retries a 502), nothing else.
    const refused = await requestCounts(sandbox.url);
    expect(Object.keys(refused.byRoute)).toEqual([STANDINGS_ROUTE]);

    const stillFresh = await gql(gateway.url, TEAM_AND_NEWS);
    expect(stillFresh.errors).toBeUndefined();
    expect(stillFresh.data).toEqual(others.data);
    expect(stillFresh.extensions?.['stale']).toBeUndefined();
    expect(await requestCounts(sandbox.url)).toEqual(refused);
  });

  it('CACHE_STORE=memory keeps nothing: the same operation after a restart pays again', async () => {
    gateway = await startGatewayProcess({ ...env(), CACHE_STORE: 'memory' }, { dataDir });
    const first = await gql(gateway.url, TEAM_AND_NEWS);
    const spent = upstreamRequestsOf(first);
    expect(spent).toBeGreaterThanOrEqual(3);
    await gateway.stop();
    gateway = await startGatewayProcess({ ...env(), CACHE_STORE: 'memory' }, { dataDir });
    const again = await gql(gateway.url, TEAM_AND_NEWS);
    expect(upstreamRequestsOf(again)).toBe(spent);
  });

  it('a CACHE_STORE that is neither memory nor disk stops start-up with a message naming it', async () => {
    const refused = await gatewayStartFailure({ ...env(), CACHE_STORE: 'redis' }, dataDir);
    expect(refused.code).toBe(2);
    expect(refused.output).toContain('CACHE_STORE must be one of memory, disk, got "redis"');
  });
});
