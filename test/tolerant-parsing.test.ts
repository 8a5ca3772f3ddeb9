/**
 * Issue 13, item 3: tolerant parsing, strict identity. Each finding of the
 * issue is served by the sandbox as a 200 body (a real fixture payload with
 * one odd optional part): the rest of the answer is what the clean payload
 * gives, and the odd part is null at its own path with UPSTREAM_INVALID_RESPONSE
 * naming the route and the part's JSON path. On main each of these payloads
 * failed its whole route.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

type Json = Record<string, unknown>;
type Path = Array<string | number>;

interface LogEntry {
  method: string;
  path: string;
  query: string;
}

/** A copy of `data` with the value at `path` replaced. */
function withValueAt(data: unknown, path: Path, value: unknown): unknown {
  const copy: unknown = structuredClone(data);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = value;
  return copy;
}

describe('one odd optional part costs that part only', () => {
  let stack: TestStack;

  beforeAll(async () => {
    // RESULT_CACHE off: the clean answer would otherwise be answered again for the same operation.
    stack = await startStack({ env: { RESULT_CACHE: 'false' } });
  });
  afterAll(() => stack.close());
  beforeEach(async () => {
    await clearFaults(stack.sandbox.url);
    stack.gateway.services.fetcher.cache.clear();
    await resetCounts(stack.sandbox.url);
  });

  /** The clean answer of `query`, and the real payload of the one upstream route it reads under `routePath`. */
  async function baselineAndPayload(
    query: string,
    routePath: string,
  ): Promise<{ baseline: GraphQLResponse<Json>; payload: Json }> {
    const baseline = await gql<Json>(stack.gateway.url, query);
    expect(baseline.errors).toBeUndefined();
    const log = (await (await fetch(`${stack.sandbox.url}/__sandbox/requests/log`)).json()) as LogEntry[];
    const entry = log.find((e) => e.path === routePath);
    if (entry === undefined) throw new Error(`${routePath} was not requested: ${JSON.stringify(log)}`);
    const response = await fetch(`${stack.sandbox.url}${entry.path}${entry.query === '' ? '' : `?${entry.query}`}`, {
      headers: { 'x-api-key': stack.apiKey },
    });
    stack.gateway.services.fetcher.cache.clear();
    await resetCounts(stack.sandbox.url);
    return { baseline, payload: (await response.json()) as Json };
  }

  async function answerWith(query: string, routePath: string, body: unknown): Promise<GraphQLResponse<Json>> {
    await injectFault(stack.sandbox.url, { route: `GET ${routePath}`, kind: 'status', status: 200, body });
    return gql<Json>(stack.gateway.url, query);
  }

  it('a World Cup 2026 matches page whose seasons lack `name` answers whole; a season with a malformed ID nulls that seasonId only', async () => {
    const route = '/v2/football/api/world-cup-2026/matches';
    const query =
      '{ v2(sport: FOOTBALL) { football { worldCup2026 { matches(first: 5) { nodes { ref { nativeId } startTime seasonId homeTeam { name } awayScore } } } } } }';
    const { baseline, payload } = await baselineAndPayload(query, route);
    const events = payload['events'] as Array<{ season: Json }>;
    for (const event of events) delete event.season['name'];
    events[2]!.season['id'] = 'fifty-eight thousand';

    const answer = await answerWith(query, route, payload);
    const nodesPath = ['v2', 'football', 'worldCup2026', 'matches', 'nodes'];
    expect(answer.data).toEqual(withValueAt(baseline.data, [...nodesPath, 2, 'seasonId'], null));
    expect(answer.errors).toEqual([
      expect.objectContaining({
        path: [...nodesPath, 2, 'seasonId'],
        extensions: { code: 'UPSTREAM_INVALID_RESPONSE', version: 'v2', route, jsonPath: 'events[2].season' },
      }),
    ]);
    expect((await requestCounts(stack.sandbox.url)).byRoute[`GET ${route}`]).toBe(1);
  });

  it('a team venue whose `city` is an object: city null with its error, the team and the rest of its venue answered', async () => {
    const id = hockeyV2Ids.firstTeam + 2;
    const route = `/v2/hockey/api/teams/${id}`;
    const query = `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${id}") { detail { name manager { name } venue { name city capacity coordinates { latitude } } } } } } }`;
    const { baseline, payload } = await baselineAndPayload(query, route);
    const venue = (payload['team'] as { venue: Json }).venue;
    expect(typeof venue['city']).toBe('string');
    venue['city'] = { name: venue['city'], region: 'somewhere' };

    const answer = await answerWith(query, route, payload);
    const cityPath = ['v2', 'hockey', 'team', 'detail', 'venue', 'city'];
    expect(answer.data).toEqual(withValueAt(baseline.data, cityPath, null));
    expect(answer.errors).toEqual([
      expect.objectContaining({
        path: cityPath,
        extensions: {
          code: 'UPSTREAM_INVALID_RESPONSE',
          version: 'v2',
          route: '/v2/{sport}/api/teams/{id}',
          jsonPath: 'team.venue.city',
        },
      }),
    ]);
  });

  it('baseball lineup players without `role` or `substitute`, one with a malformed `substitute`: the lineup answers, every batter in it', async () => {
    const game = stack.sandbox.fixtures.otherSports.baseball.games.find((g) => g.confirmsOnPoll === 0);
    if (game === undefined) throw new Error('no confirmed game');
    const route = `/v2/baseball/api/match/${game.id}/lineups`;
    const query = `{ v2(sport: BASEBALL) { baseball { lineups(matchId: "${game.id}") {
      confirmed
      home { battingOrder { player { name } battingOrder substitute } pitchers { player { name } } substitutes { player { name } } }
      away { battingOrder { player { name } substitute } } } } } }`;
    const { baseline, payload } = await baselineAndPayload(query, route);
    const players = (payload['data'] as { home: { players: Json[] } }).home.players;
    const batters = players.filter((p) => p['role'] === 'batter' && p['substitute'] === false);
    expect(batters.length).toBeGreaterThanOrEqual(3);
    // The first batter says nothing of `substitute`, the second says it wrongly, the third has no `role`.
    delete batters[0]!['substitute'];
    batters[1]!['substitute'] = 'no';
    delete batters[2]!['role'];
    const malformedAt = players.indexOf(batters[1]!);

    const answer = await answerWith(query, route, payload);
    type Lineups = {
      v2: {
        baseball: {
          lineups: { home: { battingOrder: Array<{ player: { name: string }; substitute: boolean | null }> } };
        };
      };
    };
    const expected = structuredClone(baseline.data) as Lineups;
    const order = expected.v2.baseball.lineups.home.battingOrder;
    order[0]!.substitute = null;
    order[1]!.substitute = null;
    // The third, without `role`, keeps its place: its batting order makes it a starting batter (issue 32: it was dropped).
    expect(answer.data).toEqual(expected);
    expect(answer.errors).toEqual([
      expect.objectContaining({
        path: ['v2', 'baseball', 'lineups', 'home', 'battingOrder', 1, 'substitute'],
        extensions: {
          code: 'UPSTREAM_INVALID_RESPONSE',
          version: 'v2',
          route: '/v2/baseball/api/match/{matchId}/lineups',
          jsonPath: `data.home.players[${malformedAt}].substitute`,
        },
      }),
    ]);
  });

  it('one malformed hub part: the hub answers its other parts, the bad one null with its own error', async () => {
    const route = '/api/v1/world-cup';
    const query =
      '{ v1 { worldCup { hub { matches { ref { nativeId } } standings { name rows { position } } bracket { round } unavailable } } } }';
    const { baseline, payload } = await baselineAndPayload(query, route);
    (payload['games'] as Json[])[3]!['id'] = 'not an id';

    const answer = await answerWith(query, route, payload);
    expect(answer.data).toEqual(withValueAt(baseline.data, ['v1', 'worldCup', 'hub', 'matches'], null));
    expect(answer.errors).toEqual([
      expect.objectContaining({
        path: ['v1', 'worldCup', 'hub', 'matches'],
        extensions: { code: 'UPSTREAM_INVALID_RESPONSE', version: 'v1', route, jsonPath: 'games' },
      }),
    ]);
  });

  it('identity stays strict: an event without its ID still fails the whole page', async () => {
    const route = '/v2/football/api/world-cup-2026/matches';
    const query =
      '{ v2(sport: FOOTBALL) { football { worldCup2026 { matches(first: 5) { nodes { ref { nativeId } } } } } } }';
    const { payload } = await baselineAndPayload(query, route);
    delete (payload['events'] as Json[])[1]!['id'];

    const answer = await answerWith(query, route, payload);
    expect(answer.errors?.map((e) => [e.extensions?.['code'], e.extensions?.['jsonPath']])).toEqual([
      ['UPSTREAM_INVALID_RESPONSE', undefined],
    ]);
  });
});
