/**
 * The client recipes of examples/ (README, Clients), each run against a
 * live sandbox and gateway exactly as a user would run it, and held to the
 * data the sandbox serves: Apollo Client with the gateway's possibleTypes,
 * urql with its defaults (GET), graphql-request, a Relay-style `node`
 * refetch, graphql-ws, graphql-sse and EventSource.
 */
import { format } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createApolloClient,
  possibleTypesOf,
  run as apollo,
  STANDINGS_WITH_TEAM_CARDS,
} from '../examples/apollo-client.js';
import { run as eventSource } from '../examples/event-source.js';
import { run as graphqlRequest } from '../examples/graphql-request.js';
import { run as graphqlSse } from '../examples/graphql-sse.js';
import { run as graphqlWs } from '../examples/graphql-ws.js';
import { run as relayRefetch } from '../examples/relay-node-refetch.js';
import { run as urql } from '../examples/urql.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

describe('client recipes (examples/)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  /** The sandbox's odds book for a match, as its next frame will show it. */
  async function bookOf(match: string): Promise<Array<{ id: string }>> {
    return (
      (await (await fetch(`${stack.sandbox.url}/__sandbox/odds/${match}`)).json()) as { markets: Array<{ id: string }> }
    ).markets;
  }

  it('serves /possible-types.json: every interface with the types that implement it', async () => {
    const possibleTypes = await possibleTypesOf(stack.gateway.url);
    expect(Object.keys(possibleTypes).sort()).toEqual(['Competition', 'Event', 'Node', 'Person', 'Team', 'Venue']);
    expect(possibleTypes['Team']).toContain('V1HockeyCompetitor');
    expect(possibleTypes['Person']).toContain('V1HockeyAthlete');
    expect(possibleTypes['Node']).toEqual(expect.arrayContaining(['V1HockeyCompetitor', 'V2Team', 'V2Event']));
  });

  it('Apollo Client with possibleTypes reads fragments on interfaces from its cache', async () => {
    const league = stack.sandbox.fixtures.hockeyV1.leagueByStandingsId.get(hockeyV1Ids.topLeague.standingsId)!;
    const rows = await apollo(stack.gateway.url);
    expect(rows).toHaveLength(32);
    expect(rows.map((row) => row.position)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(rows.map((row) => row.team.name).sort()).toEqual(league.teams.map((team) => team.name).sort());
    for (const { team } of rows)
      expect(team).toMatchObject({
        id: expect.any(String),
        ref: { version: 'V1', nativeId: expect.stringMatching(/^\d+$/) },
      });
  });

  it('Apollo Client without possibleTypes drops those fields, with only a console warning: why the gateway serves the map', async () => {
    const client = createApolloClient(stack.gateway.url, undefined);
    // Caught rather than printed: the warning is the point of this test, and a passing run stays quiet.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const result = await client.query<{
        v1: { hockey: { standings: { entries: Array<{ competitor: Record<string, unknown> }> } } };
      }>({
        query: STANDINGS_WITH_TEAM_CARDS,
        variables: { competition: String(hockeyV1Ids.topLeague.standingsId) },
      });
      expect(result.data?.v1.hockey.standings.entries[0]?.competitor['name']).toBeUndefined();
      // console.warn's format string, with its arguments.
      expect(warn.mock.calls.map((call) => format(...(call as [unknown, ...unknown[]]))).join('\n')).toContain(
        'Cannot match fragment `TeamCard` on `Team` against `V1HockeyCompetitor`',
      );
    } finally {
      warn.mockRestore();
      client.stop();
    }
  });

  it('urql with its defaults sends queries as GET and needs no header', async () => {
    const getsBefore = await operationsByMethod('GET');
    const sports = await urql(stack.gateway.url);
    expect(sports.length).toBeGreaterThanOrEqual(25);
    expect(sports.find((sport) => sport.sport === 'ICE_HOCKEY')?.slugs).toMatchObject({
      v1: 'hockey',
      v2: 'hockey',
      v4: 'ice-hockey',
    });
    expect(await operationsByMethod('GET')).toBe(getsBefore + 1);
  });

  it("graphql-request reads a game's lines, and an unknown game as its error code", async () => {
    const game = stack.sandbox.fixtures.hockeyV1.gameById.get(hockeyV1Ids.firstGameId)!;
    const answer = await graphqlRequest(stack.gateway.url, String(game.id));
    expect(answer).toEqual({ lines: expect.objectContaining({ moneyline: game.lines.lines.markets.moneyline }) });
    expect(await graphqlRequest(stack.gateway.url, '1')).toEqual({ code: 'NOT_FOUND' });
  });

  it('a Relay-style refetch through node(id:) returns the same entity, from the cache', async () => {
    const athlete = stack.sandbox.fixtures.hockeyV1.athleteById.get(hockeyV1Ids.firstAthleteId + 3)!;
    await resetCounts(stack.sandbox.url);
    const { first, refetched } = await relayRefetch(stack.gateway.url, String(athlete.id));
    expect(first.name).toBe(athlete.name);
    expect(refetched).toEqual({ __typename: 'V1HockeyAthlete', ...first });
    // One counted request: the refetch was answered by the gateway's cache.
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({ 'GET /v1/hockey/athletes': 1 });
  });

  it("graphql-ws delivers a match's odds snapshot as soon as it subscribes", async () => {
    const [snapshot] = await graphqlWs(stack.gateway.url, '920001');
    expect(snapshot).toMatchObject({ matchId: '920001', feed: 'LIVE' });
    expect(snapshot!.markets.map((market) => market.marketId)).toEqual(
      (await bookOf('920001')).map((market) => market.id),
    );
  });

  it('graphql-sse delivers the allowance over Server-Sent Events', async () => {
    expect(await graphqlSse(stack.gateway.url)).toEqual({
      plan: 'PRO',
      limit: 7_500,
      used: expect.any(Number),
      remaining: expect.any(Number),
    });
  });

  it('an EventSource with no header of ours gets a subscription over GET', async () => {
    const headline = await eventSource(stack.gateway.url, '920002');
    expect(headline).toMatchObject({ matchId: '920002', feed: 'LIVE' });
    expect(headline.markets.map((market) => market.marketId)).toEqual(
      (await bookOf('920002')).map((market) => market.id),
    );
  });

  /** Operations the gateway answered over `method`, from yoga's HTTP metrics. */
  async function operationsByMethod(method: string): Promise<number> {
    const text = await (await fetch(`${stack.gateway.url}/metrics`)).text();
    return text
      .split('\n')
      .filter(
        (line) =>
          line.startsWith('graphql_yoga_http_duration_count{') &&
          line.includes(`method="${method}"`) &&
          line.includes('statusCode="200"'),
      )
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  }
});
