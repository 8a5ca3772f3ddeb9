/**
 * Issue 14, item 4: one upstream response cache for the whole cluster, with
 * cluster-wide single flight, and Redis failure as a state (item 7, for the
 * cache). Real parts: one sandbox, one redis-server of the test's own, three
 * gateway processes (test/support/cluster.ts). Every count is read from the
 * sandbox.
 *
 * The operation-result cache is off so that every operation reaches the
 * upstream cache; standings get a 1 s TTL for the stale case, every other
 * route keeps its default (minutes), so nothing else expires mid-file.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { imageIds } from '../sandbox/fixtures/images.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { until } from './support/until.js';
import { startCluster, type Cluster } from './support/cluster.js';

const STANDINGS_ROUTE = 'GET /v1/hockey/standings';
const LINES_ROUTE = 'GET /v1/hockey/bets/lines';

/** Several resources on several versions (V2 needs `/reference/sports` for its slug). */
const TEAM_AND_NEWS = `{
  v1 { hockey { news(limit: 3) { articles { title } } } }
  v2(sport: ICE_HOCKEY) { hockey { team(id: "${hockeyV2Ids.firstTeam + 1}") { detail { name } roster { position } } } }
}`;
const LINES_AND_ATHLETE = `query ($game: ID!, $athlete: ID!) { v1 { hockey { lines(gameId: $game) { gameId } athlete(id: $athlete) { name } } } }`;
const STANDINGS = `{ v1 { hockey { standings { entries { position } } } } }`;

interface Cost {
  upstreamRequests: number;
  cacheHits: number;
}
const costOf = (response: GraphQLResponse): Cost => response.extensions?.['cost'] as Cost;

/** An image route's answer, bytes and all. */
async function image(base: string, path: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const response = await fetch(`${base}${path}`);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/**
 * `ok`, or `degraded` while Redis is a reason. An upstream trouble state a
 * replica saw earlier (the 504 of the stale-copy test) is not Redis's: it
 * ends at that replica's next upstream answer (src/upstream/trouble.ts).
 */
async function healthStatus(url: string): Promise<string> {
  const response = await fetch(`${url}/healthz`);
  const body = (await response.json()) as { status: string; reasons: string[]; troubles?: unknown[] };
  const otherThanUpstream = body.reasons.length - (body.troubles?.length ?? 0);
  return body.status === 'degraded' && otherThanUpstream === 0 ? 'ok' : body.status;
}

describe('cluster: one response cache, one request per resource for all replicas', () => {
  let cluster: Cluster;
  const url = (index: number): string => cluster.replicas[index]!.url;
  const sandboxUrl = (): string => cluster.sandbox.url;

  beforeAll(async () => {
    cluster = await startCluster({
      replicas: 3,
      env: { RESULT_CACHE: 'false', CACHE_TTL_STANDINGS: '1', LOG_LEVEL: 'warn' },
    });
  }, 60_000);
  afterAll(() => cluster?.close());
  beforeEach(async () => {
    await clearFaults(sandboxUrl());
    await resetCounts(sandboxUrl());
  });

  it('a resource fetched by one replica is a cache hit on every other: three runs cost the requests of one', async () => {
    const first = await gql(url(0), TEAM_AND_NEWS);
    expect(first.errors).toBeUndefined();
    const once = await requestCounts(sandboxUrl());
    expect(once.total).toBeGreaterThanOrEqual(3);
    expect(costOf(first).upstreamRequests).toBe(once.total);

    for (const index of [1, 2]) {
      const again = await gql(url(index), TEAM_AND_NEWS);
      expect(again.errors).toBeUndefined();
      expect(again.data).toEqual(first.data);
      // The estimate peeks the shared tier too: what another replica stored is known, and costs nothing.
      expect(costOf(again)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    }
    expect(await requestCounts(sandboxUrl())).toEqual(once);
  });

  it('the same uncached operation on all three replicas at the same moment: one upstream request per resource', async () => {
    // A slow upstream keeps the first request in flight while the other replicas ask: they must wait for it, not send their own.
    await injectFault(sandboxUrl(), { route: LINES_ROUTE, kind: 'delay', latencyMs: 400 });
    const variables = { game: String(hockeyV1Ids.firstGameId + 7), athlete: String(hockeyV1Ids.firstAthleteId + 7) };
    const answers = await Promise.all([0, 1, 2].map((index) => gql(url(index), LINES_AND_ATHLETE, variables)));
    for (const answer of answers) {
      expect(answer.errors).toBeUndefined();
      expect(answer.data).toEqual(answers[0]!.data);
    }
    const counts = await requestCounts(sandboxUrl());
    expect(counts.byRoute[LINES_ROUTE]).toBe(1);
    expect(counts.byRoute['GET /v1/hockey/athletes']).toBe(1);
    expect(counts.total).toBe(2);
    // Whichever replica sent each request, the three operations were charged for two in all.
    expect(answers.reduce((sum, answer) => sum + costOf(answer).upstreamRequests, 0)).toBe(2);
  });

  it('a stale copy stored by one replica answers a failed refresh on the others', async () => {
    const fresh = await gql(url(0), STANDINGS);
    expect(fresh.errors).toBeUndefined();
    expect((await requestCounts(sandboxUrl())).byRoute[STANDINGS_ROUTE]).toBe(1);
    const storedAt = Date.now();
    // The TTL is 1 s: past it, the entry is stale everywhere (replicas 2 and 3 never held it at all).
    await until('standings past their TTL', () => Date.now() > storedAt + 1_200);
    await injectFault(sandboxUrl(), { route: STANDINGS_ROUTE, status: 504 });

    const second = await gql(url(1), STANDINGS);
    expect(second.errors).toBeUndefined();
    expect(second.data).toEqual(fresh.data);
    expect(second.extensions?.['stale']).toEqual([expect.objectContaining({ reason: 'UPSTREAM_TIMEOUT' })]);
    const third = await gql(url(2), STANDINGS);
    expect(third.errors).toBeUndefined();
    expect(third.data).toEqual(fresh.data);
    expect(third.extensions?.['stale']).toEqual([expect.objectContaining({ reason: 'UPSTREAM_TIMEOUT' })]);
    // One refused refresh each (sequential operations: each found the lock free and the entry stale), none more.
    expect((await requestCounts(sandboxUrl())).byRoute[STANDINGS_ROUTE]).toBe(3);

    await clearFaults(sandboxUrl());
    const recovered = await gql(url(1), STANDINGS);
    expect(recovered.extensions?.['stale']).toBeUndefined();
    const thenOthers = await Promise.all([gql(url(0), STANDINGS), gql(url(2), STANDINGS)]);
    for (const answer of thenOthers) expect(answer.extensions?.['stale']).toBeUndefined();
    expect((await requestCounts(sandboxUrl())).byRoute[STANDINGS_ROUTE]).toBe(4);
  });

  it('images once per cluster: a logo, a V1 placeholder and an image 404 fetched by one replica cost nothing on the others', async () => {
    const logo = `/images/v2/football/teams/${imageIds.v2Football.team}`;
    const placeholder = `/images/v1/competitors/${imageIds.v1PlaceholderCompetitor}?placeholder=keep`;
    const noImage = `/images/v2/football/teams/${imageIds.v2Football.teamWithoutImage}`;
    const first = await Promise.all([image(url(0), logo), image(url(0), placeholder), image(url(0), noImage)]);
    expect(first.map((answer) => answer.status)).toEqual([200, 200, 404]);
    const once = await requestCounts(sandboxUrl());
    expect(once.byRoute[`GET /v2/football/images/teams/${imageIds.v2Football.team}`]).toBe(1);

    // Replica 1 puts them in Redis after answering: wait until they are there before asking the others.
    const redis = new Redis(cluster.redis.url);
    try {
      const keys = [
        `v2/football/teams/${imageIds.v2Football.team}`,
        `v1/competitors/${imageIds.v1PlaceholderCompetitor}@-`,
        `v2/football/teams/${imageIds.v2Football.teamWithoutImage}`,
      ];
      await until(
        'the three answers are shared',
        async () => (await redis.exists(...keys.map((key) => `sports-graph:images:item:${key}`))) === 3,
      );
    } finally {
      redis.disconnect();
    }
    for (const index of [1, 2]) {
      const [sameLogo, samePlaceholder, stillMissing] = await Promise.all([
        image(url(index), logo),
        image(url(index), placeholder),
        image(url(index), noImage),
      ]);
      expect(sameLogo.status).toBe(200);
      expect(sameLogo.type).toBe(first[0]!.type);
      expect(sameLogo.body.equals(first[0]!.body)).toBe(true);
      expect(samePlaceholder.status).toBe(200);
      expect(samePlaceholder.body.equals(first[1]!.body)).toBe(true);
      expect(stillMissing.status).toBe(404);
    }
    expect(await requestCounts(sandboxUrl())).toEqual(once);
  });

  it('Redis killed: every replica still answers, from its own layer or the upstream, without an error; back, it is shared again', async () => {
    // Cached on replica 1 (and in Redis) by the first test.
    await cluster.redis.kill();
    await until('every replica reports degraded', async () =>
      (await Promise.all([0, 1, 2].map((index) => healthStatus(url(index))))).every((status) => status === 'degraded'),
    );

    const cachedHere = await gql(url(0), TEAM_AND_NEWS);
    expect(cachedHere.errors).toBeUndefined();
    expect(costOf(cachedHere)).toMatchObject({ upstreamRequests: 0 });
    expect((await requestCounts(sandboxUrl())).total).toBe(0);

    // Never asked for before: each replica, alone now, loads it for itself.
    const variables = { game: String(hockeyV1Ids.firstGameId + 11), athlete: String(hockeyV1Ids.firstAthleteId + 11) };
    const alone = await gql(url(1), LINES_AND_ATHLETE, variables);
    expect(alone.errors).toBeUndefined();
    expect(costOf(alone)).toMatchObject({ upstreamRequests: 2 });
    expect((await requestCounts(sandboxUrl())).total).toBe(2);

    await cluster.redis.restart();
    await until('every replica reports ok', async () =>
      (await Promise.all([0, 1, 2].map((index) => healthStatus(url(index))))).every((status) => status === 'ok'),
    );
    await resetCounts(sandboxUrl());
    const rejoined = { game: String(hockeyV1Ids.firstGameId + 12), athlete: String(hockeyV1Ids.firstAthleteId + 12) };
    expect((await gql(url(2), LINES_AND_ATHLETE, rejoined)).errors).toBeUndefined();
    expect(costOf(await gql(url(0), LINES_AND_ATHLETE, rejoined))).toMatchObject({ upstreamRequests: 0 });
    expect((await requestCounts(sandboxUrl())).total).toBe(2);
  });
});
