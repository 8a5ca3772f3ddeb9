/**
 * End to end through a real router (issue 17): Hive Gateway (from npm, run
 * here on loopback) serves the supergraph of sports-graph's `/subgraph` and
 * a small fan-profile subgraph (test/support/fan-subgraph.ts). A query that
 * starts in the fan subgraph crosses into our entities by both keys; the
 * sandbox counts exactly the upstream requests those entities needed, and
 * none when they are cached. Subscriptions reach the odds feed through the
 * router, router to subgraph over SSE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../src/model/global-id.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { oddsControl } from '../sandbox/ws/control-client.js';
import { gql, gqlAt, requestCounts, resetCounts } from './support/client.js';
import { startFanSubgraph, type Fan, type FanSubgraph } from './support/fan-subgraph.js';
import { startRouter, type Router } from './support/router.js';
import { startStack, type TestStack } from './support/servers.js';

type Json = Record<string, unknown>;

const ROUTER_KEY = 'router-client-key-0001';
const asRouter = { authorization: `Bearer ${ROUTER_KEY}` };

const TEAM = String(hockeyV1Ids.firstTopLeagueTeamId);
const OTHER_TEAM = String(hockeyV1Ids.firstTopLeagueTeamId + 1);
const athlete = (offset: number): string => String(hockeyV1Ids.firstAthleteId + offset);
/** The V1 hockey competitor TEAM as listed in the top league's current table. */
const v1CompetitorId = toGlobalId({
  version: 'v1',
  sport: 'hockey',
  typeName: 'V1HockeyCompetitor',
  nativeId: TEAM,
  via: { competition: String(hockeyV1Ids.topLeague.standingsId), season: String(hockeyV1Ids.currentSeason) },
});
/** The V2 hockey team with the same native ID: another entity. */
const v2TeamId = toGlobalId({ version: 'v2', sport: 'hockey', typeName: 'V2Team', nativeId: TEAM });

const v1Athlete = (nativeId: string) => ({ version: 'V1', nativeId, sport: 'hockey' }) as const;
const v2Team = (nativeId: string) => ({ version: 'V2', nativeId, sport: 'hockey' }) as const;

const FANS: readonly Fan[] = [
  {
    id: 'fan-1',
    name: 'Ada',
    favouriteTeamId: v1CompetitorId,
    followedAthletes: [v1Athlete(athlete(0)), v1Athlete(athlete(1))],
    followedTeams: [v2Team(TEAM)],
  },
  {
    id: 'fan-2',
    name: 'Bo',
    favouriteTeamId: v2TeamId,
    followedAthletes: [v1Athlete(athlete(1)), v1Athlete(athlete(2))],
    followedTeams: [v2Team(OTHER_TEAM)],
  },
  { id: 'fan-3', name: 'Cy', favouriteTeamId: null, followedAthletes: [], followedTeams: [] },
];

const FAN_QUERY = `{ fans {
  id name
  favouriteTeam { __typename id name ref { version nativeId sport } }
  followedAthletes { id name position ref { version nativeId } }
  followedTeams { id name venue { name } ref { version nativeId sport } }
} }`;

/** The first `count` `next` events of an SSE subscription (a JSON POST, as graphql-sse's distinct connections mode sends it). */
async function firstEvents(url: string, query: string, count: number): Promise<Json[]> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query }),
    signal: abort.signal,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: Json[] = [];
  let buffer = '';
  try {
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done)
        throw new Error(`the SSE stream ended after ${events.length} events: ${JSON.stringify(events)} ${buffer}`);
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(event)?.[1];
        if (/^event: next$/m.test(event) && data !== undefined) events.push(JSON.parse(data) as Json);
      }
    }
    return events.slice(0, count);
  } finally {
    abort.abort();
  }
}

describe('through Hive Gateway: the supergraph of sports-graph and a fan subgraph', () => {
  let stack: TestStack;
  let fans: FanSubgraph;
  let router: Router;

  beforeAll(async () => {
    // As in production: the router is a client of the gateway, with a key of its own (which also passes the CSRF rule:
    // the router asks for subscriptions with GET).
    stack = await startStack({
      sandbox: { oddsCadence: 'fast' },
      env: { GATEWAY_CLIENT_KEYS: `router:${ROUTER_KEY}` },
    });
    fans = await startFanSubgraph(FANS);
    router = await startRouter([
      { name: 'sports', url: `${stack.gateway.url}/subgraph`, headers: { authorization: `Bearer ${ROUTER_KEY}` } },
      { name: 'fans', url: fans.url },
    ]);
  });
  afterAll(async () => {
    await router?.close();
    await fans?.close();
    await stack?.close();
  });

  it('answers a query that starts in the fan subgraph and crosses into our entities, with exactly the upstream requests they need', async () => {
    await resetCounts(stack.sandbox.url);
    const result = await gqlAt<{ fans: Json[] }>(router.url, FAN_QUERY);
    expect(result.errors).toBeUndefined();
    // One standings table for the V1 competitor, one detail per V2 team, one per distinct athlete (athlete 1 is followed twice).
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({
      'GET /v1/hockey/standings': 1,
      [`GET /v2/hockey/api/teams/${TEAM}`]: 1,
      [`GET /v2/hockey/api/teams/${OTHER_TEAM}`]: 1,
      'GET /v1/hockey/athletes': 3,
    });

    // The right data: what /graphql answers for the same entities (now cached, so this costs nothing).
    const [ada, bo, cy] = result.data!.fans as [Json, Json, Json];
    const byId = async (ids: string[]): Promise<Json[]> => {
      const nodes = await gql<{ nodes: Json[] }>(
        stack.gateway.url,
        `query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id
          ... on Team { name ref { version nativeId sport } }
          ... on V1HockeyAthlete { name position ref { version nativeId } }
          ... on V2Team { venue { name } } } }`,
        { ids },
        asRouter,
      );
      expect(nodes.errors).toBeUndefined();
      return nodes.data!.nodes;
    };
    await resetCounts(stack.sandbox.url);
    const [v1Competitor, v2TeamNode] = await byId([v1CompetitorId, v2TeamId]);
    expect(ada['favouriteTeam']).toEqual({
      __typename: 'V1HockeyCompetitor',
      id: v1CompetitorId,
      name: v1Competitor!['name'],
      ref: { version: 'V1', nativeId: TEAM, sport: 'hockey' },
    });
    expect(bo['favouriteTeam']).toEqual({
      __typename: 'V2Team',
      id: v2TeamId,
      name: v2TeamNode!['name'],
      ref: { version: 'V2', nativeId: TEAM, sport: 'hockey' },
    });
    // One native ID on two versions: two different entities.
    expect(v1Competitor!['name']).not.toBe(v2TeamNode!['name']);
    expect(cy).toEqual({ id: 'fan-3', name: 'Cy', favouriteTeam: null, followedAthletes: [], followedTeams: [] });

    const athleteIds = [0, 1, 2].map((offset) =>
      toGlobalId({ version: 'v1', sport: 'hockey', typeName: 'V1HockeyAthlete', nativeId: athlete(offset) }),
    );
    const [a0, a1, a2] = (await byId(athleteIds)).map(({ __typename: _, ...rest }) => rest);
    expect(ada['followedAthletes']).toEqual([a0, a1]);
    expect(bo['followedAthletes']).toEqual([a1, a2]);
    const otherTeam = toGlobalId({ version: 'v2', sport: 'hockey', typeName: 'V2Team', nativeId: OTHER_TEAM });
    const [t0, t1] = (await byId([v2TeamId, otherTeam])).map(({ __typename: _, ...rest }) => rest);
    expect(ada['followedTeams']).toEqual([t0]);
    expect(bo['followedTeams']).toEqual([t1]);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('sends 0 upstream requests when the same entities are asked again through the router: every representation is cached', async () => {
    await resetCounts(stack.sandbox.url);
    const again = await gqlAt<{ fans: Json[] }>(router.url, FAN_QUERY);
    expect(again.errors).toBeUndefined();
    expect(again.data!.fans.map((fan) => (fan['favouriteTeam'] as Json | null)?.['__typename'] ?? null)).toEqual([
      'V1HockeyCompetitor',
      'V2Team',
      null,
    ]);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('keeps the operational fields out of the supergraph: quota is not a field of the router', async () => {
    const refused = await gqlAt(router.url, '{ quota { remaining } }');
    expect(refused.errors?.[0]?.message).toContain('quota');
    expect(refused.data ?? null).toBeNull();
  });

  it('relays an odds subscription through the router (router to subgraph over SSE) from one upstream odds feed', async () => {
    const match = '900100';
    const channel = `match:${match}:odds`;
    const events = await firstEvents(
      router.url,
      `subscription { oddsSnapshots(matchId: "${match}") { matchId feed markets { marketId } } }`,
      2,
    );
    for (const event of events) {
      expect(event['errors']).toBeUndefined();
      expect((event['data'] as { oddsSnapshots: Json }).oddsSnapshots).toMatchObject({ matchId: match, feed: 'LIVE' });
    }
    expect(
      (events[0]!['data'] as { oddsSnapshots: { markets: unknown[] } }).oddsSnapshots.markets.length,
    ).toBeGreaterThan(0);
    expect((await oddsControl.stats(stack.sandbox.url)).subscribesByChannel[channel]).toBe(1);
  });
});
