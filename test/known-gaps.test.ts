/**
 * Every route the spec documents as missing (404), unimplemented (501),
 * always empty, or not carried is answered by the gateway itself: one case
 * per statement, named after its spec section. Each case may first load
 * what the answer depends on (the entity whose field it is, the free
 * catalogue); the counters are reset after that, and the gap itself must
 * then cost exactly 0 upstream requests of any kind.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toGlobalId } from '../src/model/global-id.js';
import { baseballIds } from '../sandbox/fixtures/baseball.js';
import { cyclingIds } from '../sandbox/fixtures/cycling.js';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { motorsportIds } from '../sandbox/fixtures/motorsport.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface GapCase {
  /** The spec section and the statement, as the test is named. */
  readonly name: string;
  /** Run first, uncounted: what the field hangs on (its parent entity, the catalogue). */
  readonly warm?: (stack: TestStack) => string;
  readonly query: (stack: TestStack) => string;
  /** Every error `extensions.code`, in order; `[]` for an answer without errors. */
  readonly codes: readonly string[];
  /** Each error's `alternative` contains this. */
  readonly alternative?: string;
  /** The `data` expected, where the answer is data (always empty routes). */
  readonly data?: unknown;
}

const hockeyTeam = hockeyV2Ids.firstTeam + 2;
const rider = cyclingIds.firstRider + 3;
const baseballGameOf = (stack: TestStack, league: number): number => {
  const game = stack.sandbox.fixtures.otherSports.baseball.games.find((g) => g.league.id === league);
  if (game === undefined) throw new Error(`no sandbox game in league ${league}`);
  return game.id;
};
const hockeyManager = (stack: TestStack): number => {
  const id = [...stack.sandbox.fixtures.v2.sport('hockey').managers.keys()][0];
  if (id === undefined) throw new Error('no sandbox hockey manager');
  return id;
};
const catalogue = (): string => '{ sports { sport } }';

const cases: readonly GapCase[] = [
  {
    name: '4.4 hockey /api/teams/{id}/team-statistics/seasons answers 404',
    query: () =>
      `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${hockeyTeam}") { teamStatisticsSeasons { seasons { nativeId } } } } } }`,
    codes: ['NOT_SUPPORTED'],
    alternative: 'seasonAggregates',
  },
  {
    name: '4.4 hockey /api/teams/{id}/tournament/{tid}/season/{sid}/statistics answers 404',
    query: () =>
      `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${hockeyTeam}") { seasonStatistics(tournamentId: "${hockeyV2Ids.uniqueTournament}", seasonId: "${hockeyV2Ids.season}") { name } } } } }`,
    codes: ['NOT_SUPPORTED'],
    alternative: 'seasonAggregates',
  },
  {
    name: '4.8 manager /career and /career-history answer 404 on hockey (and the other non-football sports)',
    warm: (stack) => `{ v2(sport: ICE_HOCKEY) { manager(id: "${hockeyManager(stack)}") { name } } }`,
    query: (stack) => `{ v2(sport: ICE_HOCKEY) { manager(id: "${hockeyManager(stack)}") { career { start } } } }`,
    codes: ['NOT_SUPPORTED'],
    alternative: 'FOOTBALL',
  },
  {
    name: '2.13, 4.9 motorsport stage /results, /classification, /standings, /laps, /startgrid answer 404',
    warm: () => `{ v2(sport: MOTORSPORT) { motorsport { stage(id: "${motorsportIds.firstStage}") { name } } } }`,
    query: () =>
      `{ v2(sport: MOTORSPORT) { motorsport { stage(id: "${motorsportIds.firstStage}") { results classification standings laps startGrid } } } }`,
    codes: ['NOT_SUPPORTED', 'NOT_SUPPORTED', 'NOT_SUPPORTED', 'NOT_SUPPORTED', 'NOT_SUPPORTED'],
    alternative: 'winner',
  },
  {
    name: '4.9 V6 baseball /lineups, /stats, /incidents, /h2h, /commentary, /tables answer 501',
    query: () =>
      '{ v6 { baseball { lineups(matchId: "bm_x") stats(matchId: "bm_x") incidents(matchId: "bm_x") h2h(matchId: "bm_x") commentary(matchId: "bm_x") tables(matchId: "bm_x") } } }',
    codes: ['NOT_SUPPORTED', 'NOT_SUPPORTED', 'NOT_SUPPORTED', 'NOT_SUPPORTED', 'NOT_SUPPORTED', 'NOT_SUPPORTED'],
    alternative: 'v2(sport: BASEBALL)',
  },
  {
    name: '4.9 V2 cycling /api/live, /api/today, /api/schedule/{date}, /api/live-tournaments, /api/scheduled-tournaments/{date} are always empty',
    query: () =>
      '{ v2(sport: CYCLING) { cycling { live { id } today { id } schedule(date: "2026-06-14") { id } liveTournaments { id } scheduledTournaments(date: "2026-06-15") { id } } } }',
    codes: [],
    data: { v2: { cycling: { live: [], today: [], schedule: [], liveTournaments: [], scheduledTournaments: [] } } },
  },
  {
    name: '4.9 V2 cycling has no /api/players/{id} (riders are teams): player(id:)',
    query: () => `{ v2(sport: CYCLING) { player(id: "${rider}") { name } } }`,
    codes: ['NOT_SUPPORTED'],
    alternative: 'rider(id:)',
  },
  {
    name: '4.9 V2 cycling has no /api/players/{id} (riders are teams): node(id:) of a cycling V2Player',
    query: () =>
      `{ node(id: "${toGlobalId({ version: 'v2', sport: 'cycling', typeName: 'V2Player', nativeId: String(rider) })}") { id } }`,
    codes: ['NOT_SUPPORTED'],
    alternative: 'rider(id:)',
  },
  ...baseballIds.lineups404Leagues.map(
    (league): GapCase => ({
      name: `4.9 baseball /lineups answers 404 for two leagues: league ${league}`,
      warm: (stack) => `{ v2(sport: BASEBALL) { event(id: "${baseballGameOf(stack, league)}") { id } } }`,
      query: (stack) =>
        `{ v2(sport: BASEBALL) { baseball { lineups(matchId: "${baseballGameOf(stack, league)}") { confirmed } } } }`,
      codes: ['NOT_SUPPORTED'],
      alternative: 'event(id:)',
    }),
  ),
  {
    name: '4.9 baseball: a fourth league is not carried for /lineups',
    warm: (stack) =>
      `{ v2(sport: BASEBALL) { event(id: "${baseballGameOf(stack, baseballIds.notCarriedLeague)}") { id } } }`,
    query: (stack) =>
      `{ v2(sport: BASEBALL) { baseball { lineups(matchId: "${baseballGameOf(stack, baseballIds.notCarriedLeague)}") { confirmed } } } }`,
    codes: ['NOT_SUPPORTED'],
    alternative: 'event(id:)',
  },
  {
    name: '4.9 cycling odds are not available; V4 does not carry cycling',
    warm: catalogue,
    query: () => '{ v4 { odds(sport: CYCLING, eventId: "1") { eventId } } }',
    codes: ['NOT_SUPPORTED'],
  },
  {
    name: '4.9 V6 does not carry cycling: a cycling V6 logo',
    warm: catalogue,
    query: () => '{ logo(sources: { v6Logo: "rider.png", v6Sport: CYCLING }) { url } }',
    codes: ['NOT_SUPPORTED'],
  },
];

describe('every documented gap is answered locally, with 0 upstream requests', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  for (const gap of cases) {
    it(gap.name, async () => {
      if (gap.warm !== undefined) {
        const warm = await gql(stack.gateway.url, gap.warm(stack));
        expect(warm.errors).toBeUndefined();
        await resetCounts(stack.sandbox.url);
      }
      const result = await gql(stack.gateway.url, gap.query(stack));
      expect(result.errors?.map((e) => e.extensions?.['code']) ?? []).toEqual(gap.codes);
      if (gap.alternative !== undefined) {
        for (const error of result.errors ?? [])
          expect(String(error.extensions?.['alternative'])).toContain(gap.alternative);
      }
      if (gap.data !== undefined) expect(result.data).toEqual(gap.data);
      expect(await requestCounts(stack.sandbox.url)).toEqual({ total: 0, byRoute: {} });
    });
  }
});
