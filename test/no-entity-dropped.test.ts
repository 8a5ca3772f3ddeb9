/**
 * Issue 32, item 4: no entity dropped. Each case serves, through the
 * sandbox, a real payload with an optional field left out (one the spec
 * does not show), as a 200 body. Where the spec lets the gateway infer what
 * the field would have said, the entity is where the inference puts it;
 * where nothing can be inferred, it is listed unclassified with an
 * UPSTREAM_INVALID_RESPONSE error at its path. It never disappears.
 *
 * The finding that opened the item: baseball lineups whose players lack
 * `role` came back `probablePitcher: null, battingOrder: []`, although an
 * unconfirmed lineup holds only the announced probable starting pitcher
 * (spec 2.8).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearFaults, gql, injectFault, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';

type Json = Record<string, unknown>;

interface LineupPlayer {
  player: { name: string };
  role: string | null;
  roleInferred: boolean;
  battingOrder: number | null;
}

interface Side {
  probablePitcher: LineupPlayer | null;
  battingOrder: LineupPlayer[];
  pitchers: LineupPlayer[];
  substitutes: LineupPlayer[];
  unclassified: LineupPlayer[];
}

interface Lineups {
  v2: { baseball: { lineups: { confirmed: boolean; home: Side; away: Side } } };
}

const PLAYER = 'player { name } role roleInferred battingOrder';
const SIDE = `probablePitcher { ${PLAYER} } battingOrder { ${PLAYER} } pitchers { ${PLAYER} } substitutes { ${PLAYER} } unclassified { ${PLAYER} }`;
const lineupsQuery = (matchId: number) =>
  `{ v2(sport: BASEBALL) { baseball { lineups(matchId: "${matchId}") { confirmed home { ${SIDE} } away { ${SIDE} } } } } }`;
const LINEUPS_ROUTE = '/v2/baseball/api/match/{matchId}/lineups';

/** Every player name a side lists, in any list. */
function namesListed(side: Side): Set<string> {
  return new Set(
    [side.probablePitcher, ...side.battingOrder, ...side.pitchers, ...side.substitutes, ...side.unclassified]
      .filter((p): p is LineupPlayer => p !== null)
      .map((p) => p.player.name),
  );
}

describe('no entity dropped for a missing optional field', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack({ env: { RESULT_CACHE: 'false' } });
  });
  afterAll(() => stack.close());
  beforeEach(async () => {
    await clearFaults(stack.sandbox.url);
    stack.gateway.services.fetcher.cache.clear();
    await resetCounts(stack.sandbox.url);
  });

  /** The real payload of a sandbox route, read with the key (not counted against the gateway's requests). */
  async function upstream(path: string): Promise<Json> {
    const response = await fetch(`${stack.sandbox.url}${path}`, { headers: { 'x-api-key': stack.apiKey } });
    const body = (await response.json()) as Json;
    await resetCounts(stack.sandbox.url);
    return body;
  }

  async function answerWith<T>(query: string, route: string, body: unknown): Promise<GraphQLResponse<T>> {
    await injectFault(stack.sandbox.url, { route: `GET ${route}`, kind: 'status', status: 200, body });
    return gql<T>(stack.gateway.url, query);
  }

  const majorLeagueGame = (confirmed: boolean) => {
    const game = stack.sandbox.fixtures.otherSports.baseball.games.find(
      (g) => g.league.id === 11_205 && (confirmed ? g.confirmsOnPoll === 0 : g.confirmsOnPoll > 1),
    );
    if (game === undefined) throw new Error(`no ${confirmed ? 'confirmed' : 'unconfirmed'} major-league game`);
    return game;
  };

  it('the finding: an unconfirmed lineup whose players lack `role` names its probable pitchers (spec 2.8), with no error', async () => {
    const game = majorLeagueGame(false);
    const path = `/v2/baseball/api/match/${game.id}/lineups`;
    const payload = await upstream(path);
    const data = payload['data'] as { confirmed: boolean; home: { players: Json[] }; away: { players: Json[] } };
    expect(data.confirmed).toBe(false);
    expect(data.home.players).toHaveLength(1);
    for (const side of [data.home, data.away]) for (const player of side.players) delete player['role'];

    const answer = await answerWith<Lineups>(lineupsQuery(game.id), path, payload);
    expect(answer.errors).toBeUndefined();
    const { home, away } = answer.data!.v2.baseball.lineups;
    expect(home.probablePitcher).toEqual({
      player: { name: game.lineups.home.probablePitcher.player.name },
      role: 'probablePitcher',
      roleInferred: true,
      battingOrder: null,
    });
    expect(away.probablePitcher?.player.name).toBe(game.lineups.away.probablePitcher.player.name);
    expect(home.battingOrder).toEqual([]);
    expect(home.unclassified).toEqual([]);
    // One request for the match (the league check), one for the lineups.
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({
      [`GET /v2/baseball/api/match/${game.id}`]: 1,
      [`GET ${path}`]: 1,
    });
  });

  it("V1 /search: a hit without `version` is V1's, one without `type` is listed with an error at its type; other types and versions stay out", async () => {
    const results = [
      { type: 'athlete', id: 9101, name: 'Ava Left-Version', sport: 'hockey' },
      { id: 9102, name: 'Ben No-Type', sport: 'hockey', version: 'v1' },
      { type: 'team', id: 9103, name: 'Anaheim Team', sport: 'hockey', version: 'v1' },
      { type: 'athlete', id: 9104, name: 'Cal Other-Version', sport: 'hockey', version: 'v2' },
      { type: 'athlete', id: 9105, name: 'Dee Whole', sport: 'hockey', version: 'v1' },
    ];
    const answer = await answerWith<{ v1: { hockey: { searchAthletes: Json[] } } }>(
      '{ v1 { hockey { searchAthletes(name: "An") { nativeId name type } } } }',
      '/search',
      { results },
    );
    expect(answer.data?.v1.hockey.searchAthletes).toEqual([
      { nativeId: '9101', name: 'Ava Left-Version', type: 'athlete' },
      { nativeId: '9102', name: 'Ben No-Type', type: null },
      { nativeId: '9105', name: 'Dee Whole', type: 'athlete' },
    ]);
    expect(answer.errors).toEqual([
      expect.objectContaining({
        path: ['v1', 'hockey', 'searchAthletes', 1, 'type'],
        extensions: { code: 'UPSTREAM_INVALID_RESPONSE', version: 'v1', route: '/search', jsonPath: 'results[1].type' },
      }),
    ]);
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({ 'GET /search': 1 });
  });

  /**
   * Confirmed lineups, one player changed per case: where it must be
   * listed, and whether an error stands at its `role`.
   */
  const confirmedCases: ReadonlyArray<{
    name: string;
    /** Which home player to change. */
    pick: (player: Json) => boolean;
    change: (player: Json) => void;
    /** The list it must be in, and what its role reads there. */
    listedIn: keyof Omit<Side, 'probablePitcher'>;
    role: string | null;
    roleInferred: boolean;
  }> = [
    {
      name: 'a starting batter without `role`: still in the batting order (its batting order makes it one)',
      pick: (p) => p['role'] === 'batter' && p['substitute'] === false,
      change: (p) => delete p['role'],
      listedIn: 'battingOrder',
      role: 'batter',
      roleInferred: true,
    },
    {
      name: 'a substitute without `role`: still a substitute',
      pick: (p) => p['substitute'] === true,
      change: (p) => delete p['role'],
      listedIn: 'substitutes',
      role: null,
      roleInferred: false,
    },
    {
      name: 'a pitcher without `role` and without a batting order: unclassified, with an error at its role',
      pick: (p) => p['role'] === 'pitcher' && p['substitute'] !== true && p['battingOrder'] === undefined,
      change: (p) => delete p['role'],
      listedIn: 'unclassified',
      role: null,
      roleInferred: false,
    },
    {
      name: 'a player with a role the gateway does not know and no batting order: unclassified, with an error',
      pick: (p) => p['role'] === 'pitcher' && p['substitute'] !== true && p['battingOrder'] === undefined,
      change: (p) => {
        p['role'] = 'closer';
      },
      listedIn: 'unclassified',
      role: null,
      roleInferred: false,
    },
    {
      name: 'a batter without a batting order nor a substitute flag: unclassified, with an error',
      pick: (p) => p['role'] === 'batter' && p['substitute'] === false,
      change: (p) => {
        delete p['battingOrder'];
        delete p['substitute'];
      },
      listedIn: 'unclassified',
      role: null,
      roleInferred: false,
    },
  ];

  for (const c of confirmedCases) {
    it(`confirmed lineup, ${c.name}`, async () => {
      const game = majorLeagueGame(true);
      const path = `/v2/baseball/api/match/${game.id}/lineups`;
      const payload = await upstream(path);
      const players = (payload['data'] as { home: { players: Json[] } }).home.players;
      const index = players.findIndex(c.pick);
      expect(index, 'a player to change').toBeGreaterThanOrEqual(0);
      const name = (players[index]!['player'] as { name: string }).name;
      c.change(players[index]!);

      const answer = await answerWith<Lineups>(lineupsQuery(game.id), path, payload);
      const { home } = answer.data!.v2.baseball.lineups;
      // Never dropped: every player of the payload is in some list.
      expect([...namesListed(home)].sort()).toEqual(
        [...new Set(players.map((p) => (p['player'] as { name: string }).name))].sort(),
      );
      const listed = home[c.listedIn];
      const at = listed.findIndex((p) => p.player.name === name);
      expect(at, `${name} in ${c.listedIn}`).toBeGreaterThanOrEqual(0);
      expect(listed[at]).toMatchObject({ role: c.role, roleInferred: c.roleInferred });
      if (c.listedIn === 'unclassified') {
        expect(answer.errors).toEqual([
          expect.objectContaining({
            path: ['v2', 'baseball', 'lineups', 'home', 'unclassified', at, 'role'],
            extensions: {
              code: 'UPSTREAM_INVALID_RESPONSE',
              version: 'v2',
              route: LINEUPS_ROUTE,
              jsonPath: `data.home.players[${index}].role`,
            },
          }),
        ]);
      } else {
        expect(answer.errors).toBeUndefined();
        expect(home.unclassified).toEqual([]);
      }
      expect((await requestCounts(stack.sandbox.url)).byRoute[`GET ${path}`]).toBe(1);
    });
  }

  it('a period score left out is null in its place: later periods keep their own slots', async () => {
    const id = hockeyV2Ids.firstEvent;
    const path = `/v2/hockey/api/match/${id}`;
    const payload = await upstream(path);
    const event = payload['event'] as { homeScore: Json; awayScore: Json };
    event.homeScore = { ...event.homeScore, period1: undefined, period2: 2, period3: 1 };
    event.awayScore = { ...event.awayScore, period1: 1, period2: 0, period3: undefined };
    const answer = await answerWith<{
      v2: { event: { homePeriodScores: Array<number | null>; awayPeriodScores: Array<number | null> } };
    }>(`{ v2(sport: ICE_HOCKEY) { event(id: "${id}") { homePeriodScores awayPeriodScores } } }`, path, payload);
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.v2.event).toEqual({ homePeriodScores: [null, 2, 1], awayPeriodScores: [1, 0] });
    expect((await requestCounts(stack.sandbox.url)).byRoute[`GET ${path}`]).toBe(1);
  });
});
