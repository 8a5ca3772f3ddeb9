/**
 * The gateway against the sandbox's `alt` data set (issue 13): the same spec
 * with data the gateway was not written with (sandbox/fixtures/alt-dataset.ts):
 * integer IDs past 2^31, 2^32 and up to near 2^53, V6 IDs with dots, spaces,
 * slashes, `%`, CJK, right-to-left text and emoji, Unicode names, ISO dates
 * with a `+05:30` offset, other counts and page counts, unknown fields on
 * every object and optional parts left out.
 *
 * One representative query per version and route family, each asserting
 * the values the fixtures hold and the upstream requests it costs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isOddsMatchId } from '../src/upstream/routes/odds-socket.js';
import { fromGlobalId } from '../src/model/global-id.js';
import { ALT_ID_OFFSET, ALT_UTC_OFFSET_MINUTES } from '../sandbox/fixtures/alt-dataset.js';
import { sandboxDatasetFromEnv } from '../sandbox/dataset-env.js';
import { startSandbox } from '../sandbox/server.js';
import { baseballIds } from '../sandbox/fixtures/baseball.js';
import { V2_EVENTS_PAGE_SIZE } from '../sandbox/fixtures/v2-events.js';
import { gql, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

type Json = Record<string, unknown>;

/**
 * The instant an ISO 8601 text with a `±hh:mm` offset names, worked out by
 * hand rather than by `Date.parse` (which the gateway's scalar relies on).
 */
function instantOf(text: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.\d+)?([+-])(\d\d):(\d\d)$/.exec(text);
  if (m === null) throw new Error(`not an ISO date with an offset: ${text}`);
  const [y, mo, d, h, mi, s, sign, oh, om] = m
    .slice(1)
    .map((part) => (part === '+' || part === '-' ? part : Number(part)));
  const local = Date.UTC(y as number, (mo as number) - 1, d as number, h as number, mi as number, s as number);
  const offsetMs = (sign === '+' ? 1 : -1) * ((oh as number) * 60 + (om as number)) * 60_000;
  return new Date(local - offsetMs).toISOString();
}

const ALT_OFFSET_TEXT = '+05:30';

function ok<T>(response: GraphQLResponse<T>): T {
  expect(response.errors).toBeUndefined();
  expect(response.data).toBeTruthy();
  return response.data as T;
}

describe('the alt data set through the gateway', () => {
  let stack: TestStack;
  const counted = async (): Promise<Record<string, number>> => (await requestCounts(stack.sandbox.url)).byRoute;
  const query = <T = Json>(text: string, variables?: Json): Promise<GraphQLResponse<T>> =>
    gql<T>(stack.gateway.url, text, variables);

  beforeAll(async () => {
    stack = await startStack({ sandbox: { dataset: 'alt' } });
    // The free sport catalogue, once, so that every count below is the test's own routes.
    const sports = ok(
      await query<{ sports: Array<{ sport: string; slugs: Record<string, string | null> }> }>(
        '{ sports { sport slugs { v1 v2 v3 v4 v6 } } }',
      ),
    );
    // Unknown fields beside each entry and inside `slugs` are not read as versions.
    expect(sports.sports.find((s) => s.sport === 'ICE_HOCKEY')?.slugs).toEqual({
      v1: 'hockey',
      v2: 'hockey',
      v3: 'hockey',
      v4: 'ice-hockey',
      v6: null,
    });
    expect(sports.sports).toHaveLength(stack.sandbox.fixtures.sports.length);
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('is the alt data: IDs offset past 2^42, dates written at +05:30', () => {
    const fx = stack.sandbox.fixtures;
    expect(fx.dataset.name).toBe('alt');
    expect(ALT_UTC_OFFSET_MINUTES).toBe(330);
    expect(fx.otherSports.hockeyV2.teams[0]?.id).toBeGreaterThan(ALT_ID_OFFSET);
    expect(fx.worldCup.matches[0]?.startTime.endsWith(ALT_OFFSET_TEXT)).toBe(true);
  });

  describe('v1 hockey', () => {
    it('standings: a competition ID past 2^31, competitor IDs past 2^40, Unicode names, optional columns absent, unknown fields only in raw', async () => {
      const { ids } = stack.sandbox.fixtures.hockeyV1;
      expect(ids.topLeague.standingsId).toBeGreaterThan(2 ** 31);
      const table = stack.sandbox.fixtures.hockeyV1.leagueByStandingsId
        .get(ids.topLeague.standingsId)
        ?.standings.get(ids.currentSeason);
      const data = ok(
        await query<{
          v1: {
            hockey: { standings: { entries: Array<Json & { competitor: Json & { ref: { nativeId: string } } }> } };
          };
        }>(
          `query($c: ID) { v1 { hockey { standings(competition: $c) { entries {
            position points played overtimeLosses goalsFor goalsAgainst goalDifference
            competitor { id name imageVersion ref { nativeId } }
            raw
          } } } } }`,
          { c: String(ids.topLeague.standingsId) },
        ),
      );
      const entries = data.v1.hockey.standings.entries;
      expect(
        entries.map((e) => [e['position'], e.competitor['name'], e.competitor.ref.nativeId, e['points'], e['played']]),
      ).toEqual(
        (table?.standings ?? []).map((row) => [
          row.position,
          row.competitor.name,
          String(row.competitor.id),
          row.points,
          row.played,
        ]),
      );
      expect(entries).toHaveLength(10);
      expect(entries.map((e) => e.competitor['name'])).toEqual(
        expect.arrayContaining(['東京アイスバックス', 'הפועל תל אביב', 'نمور القاهرة', 'São Paulo Pinguins 🐧']),
      );
      for (const entry of entries) {
        expect([
          entry['overtimeLosses'],
          entry['goalsFor'],
          entry['goalsAgainst'],
          entry['goalDifference'],
          entry.competitor['imageVersion'],
        ]).toEqual([null, null, null, null, null]);
        // The unknown fields arrived, and changed nothing else.
        expect(entry['raw']).toMatchObject({ providerRef: 'alt/7f3a-β', _meta: { feed: 'alt' } });
      }
      expect(await counted()).toEqual({ 'GET /v1/hockey/standings': 1 });
    });

    it('athlete: an ID 16 digits long (near 2^53) resolves by argument and by node(id:), its absent parts null', async () => {
      const athlete = stack.sandbox.fixtures.hockeyV1.athletes.at(-1);
      if (athlete === undefined) throw new Error('no athletes');
      expect(String(athlete.id)).toHaveLength(16);
      expect(athlete.id).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
      const fields =
        'id name position jerseyNumber bio heightCm birthDate shoots statistics { name } team { nativeId name } currentSeason { season }';
      const data = ok(
        await query<{ v1: { hockey: { athlete: Json & { id: string } } } }>(
          `query($id: ID!) { v1 { hockey { athlete(id: $id) { ${fields} } } } }`,
          { id: String(athlete.id) },
        ),
      );
      expect(data.v1.hockey.athlete).toEqual({
        id: data.v1.hockey.athlete.id,
        name: athlete.name,
        position: athlete.position,
        jerseyNumber: athlete.jerseyNumber,
        bio: null,
        heightCm: null,
        birthDate: null,
        shoots: null,
        statistics: [],
        team: { nativeId: String(athlete.team.id), name: athlete.team.name },
        currentSeason: { season: 2026 },
      });
      expect(fromGlobalId(data.v1.hockey.athlete.id).nativeId).toBe(String(athlete.id));
      expect(await counted()).toEqual({ 'GET /v1/hockey/athletes': 1 });

      const again = ok(
        await query<{ node: Json }>(`query($id: ID!) { node(id: $id) { ... on V1HockeyAthlete { ${fields} } } }`, {
          id: data.v1.hockey.athlete.id,
        }),
      );
      expect(again.node).toEqual(data.v1.hockey.athlete);
      expect(await counted()).toEqual({ 'GET /v1/hockey/athletes': 1 });
    });

    it('refuses an integer ID past Number.MAX_SAFE_INTEGER before any request, naming the bound', async () => {
      const past = '9007199254740993';
      const response = await query('query($id: ID!) { v1 { hockey { athlete(id: $id) { name } } } }', { id: past });
      expect(response.errors?.map((e) => [e.extensions?.['code'], e.message])).toEqual([
        ['BAD_USER_INPUT', `athlete id must be a non-negative integer of at most ${Number.MAX_SAFE_INTEGER}.`],
      ]);
      expect(await counted()).toEqual({});
    });

    it('news: dates at +05:30, +09:00, -05:00 and +03:00 come out as the instants they name; article and source IDs past 2^32', async () => {
      const { ids, news } = stack.sandbox.fixtures.hockeyV1;
      const data = ok(
        await query<{
          v1: {
            hockey: {
              news: {
                articles: Array<{
                  title: string;
                  publishedAt: string;
                  ref: { nativeId: string };
                  source: { nativeId: string; name: string };
                }>;
              };
            };
          };
        }>(
          `query($c: ID) { v1 { hockey { news(competitionId: $c, limit: 50) { articles { title publishedAt ref { nativeId } source { nativeId name } } } } } }`,
          { c: String(ids.topLeague.newsId) },
        ),
      );
      const expected = news.filter((item) => item.competitionId === ids.topLeague.newsId).map((item) => item.article);
      const articles = data.v1.hockey.news.articles;
      expect(articles.map((a) => [a.ref.nativeId, a.title, a.publishedAt, a.source.nativeId])).toEqual(
        expected.map((a) => [String(a.id), a.title, instantOf(a.publishDate), String(a.sourceId)]),
      );
      const india = expected.find((a) => a.publishDate.endsWith(ALT_OFFSET_TEXT));
      expect(india).toBeDefined();
      const shown = articles.find((a) => a.ref.nativeId === String(india?.id));
      // 5 h 30 min earlier than the local time written: the instant, not the wall clock.
      expect(Date.parse(`${india?.publishDate.slice(0, 19)}Z`) - Date.parse(shown?.publishedAt ?? '')).toBe(
        330 * 60_000,
      );
      expect(shown?.source.name).toBe('The Hindu — Sport');
      expect(new Set(articles.map((a) => a.source.name))).toEqual(
        new Set(['The Hindu — Sport', 'スポーツ報知', 'ESPN Deportes']),
      );
      expect(await counted()).toEqual({ 'GET /v1/hockey/news': 1 });
    });

    it('search: names in Vietnamese, CJK, Hangul, Arabic or Hebrew find their athlete', async () => {
      const athletes = stack.sandbox.fixtures.hockeyV1.athletes;
      const nonLatin = athletes.find((a) => /[\u0590-\u06ff]/.test(a.name));
      const cjk = athletes.find((a) => /[\u3040-\u9fff\uac00-\ud7af]/.test(a.name));
      for (const athlete of [nonLatin, cjk]) {
        if (athlete === undefined) throw new Error('the alt rosters should hold right-to-left and CJK names');
        await resetCounts(stack.sandbox.url);
        const data = ok(
          await query<{
            v1: { hockey: { searchAthletes: Array<{ nativeId: string; name: string; athlete: { name: string } }> } };
          }>(
            'query($n: String!) { v1 { hockey { searchAthletes(name: $n, first: 1) { nativeId name athlete { name } } } } }',
            { n: athlete.name },
          ),
        );
        expect(data.v1.hockey.searchAthletes).toEqual([
          { nativeId: String(athlete.id), name: athlete.name, athlete: { name: athlete.name } },
        ]);
        expect(await counted()).toEqual({ 'GET /search': 1, 'GET /v1/hockey/athletes': 1 });
      }
    });

    it('lines: a game ID past 2^33; unknown fields beside the markets change no price', async () => {
      const game = stack.sandbox.fixtures.hockeyV1.games[0];
      if (game === undefined) throw new Error('no games');
      expect(game.id).toBeGreaterThan(2 ** 33);
      const data = ok(
        await query<{ v1: { hockey: { lines: Json } } }>(
          'query($g: ID!) { v1 { hockey { lines(gameId: $g) { gameId moneyline { home away draw } puckLine { line home away } totalGoals { line over under } } } } }',
          { g: String(game.id) },
        ),
      );
      const { moneyline, puckLine, totalGoals } = game.lines.lines.markets;
      expect(data.v1.hockey.lines).toEqual({
        gameId: String(game.id),
        moneyline,
        puckLine: puckLine ?? null,
        totalGoals,
      });
      expect(await counted()).toEqual({ 'GET /v1/hockey/bets/lines': 1 });
    });

    it('images: the 13-digit competitor and 16-digit athlete IDs the gateway hands out are served; a 17-digit one is refused', async () => {
      const { leagues, athletes } = stack.sandbox.fixtures.hockeyV1;
      const team = leagues[0]?.teams[0];
      const athlete = athletes[0];
      const data = ok(
        await query<{
          v1: {
            hockey: {
              standings: { entries: Array<{ competitor: { ref: { nativeId: string }; image: { url: string } } }> };
              athlete: { image: { url: string } };
            };
          };
        }>(
          `query($c: ID, $a: ID!) { v1 { hockey {
            standings(competition: $c) { entries { competitor { ref { nativeId } image { url } } } }
            athlete(id: $a) { image { url } }
          } } }`,
          { c: String(stack.sandbox.fixtures.hockeyV1.ids.topLeague.standingsId), a: String(athlete?.id) },
        ),
      );
      const competitorUrl = data.v1.hockey.standings.entries.find((e) => e.competitor.ref.nativeId === String(team?.id))
        ?.competitor.image.url;
      expect(competitorUrl).toBe(`/images/v1/competitors/${team?.id}`);
      const athleteUrl = data.v1.hockey.athlete.image.url;
      expect(athleteUrl).toBe(`/images/v1/athletes/${athlete?.id}?imageVersion=${athlete?.imageVersion}`);
      await resetCounts(stack.sandbox.url);
      for (const url of [competitorUrl, athleteUrl]) {
        const image = await fetch(`${stack.gateway.url}${url ?? ''}`);
        expect(image.status).toBe(200);
        expect(image.headers.get('content-type')).toMatch(/^image\//);
        await image.arrayBuffer();
      }
      expect(await counted()).toEqual({
        [`GET /v1/football/images/competitors/${team?.id}`]: 1,
        [`GET /v1/football/images/athletes/${athlete?.id}`]: 1,
      });

      const tooBig = await fetch(`${stack.gateway.url}/images/v1/competitors/90071992547409930`);
      expect(tooBig.status).toBe(400);
      expect(await tooBig.json()).toEqual({ error: { code: 'BAD_USER_INPUT', message: 'Invalid V1 ID.' } });
      expect(await counted()).toEqual({
        [`GET /v1/football/images/competitors/${team?.id}`]: 1,
        [`GET /v1/football/images/athletes/${athlete?.id}`]: 1,
      });
    });
  });

  describe('v1 world cup', () => {
    it('matches: each +05:30 start time is the instant V2 gives as startTimestamp; Unicode team names; absent parts null', async () => {
      const wc = stack.sandbox.fixtures.worldCup;
      const data = ok(
        await query<{
          v1: {
            worldCup: {
              matches: Array<{
                ref: { nativeId: string };
                startTime: string;
                groupName: string | null;
                venueName: string | null;
                homeTeam: { name: string } | null;
              }>;
            };
          };
        }>('{ v1 { worldCup { matches { ref { nativeId } startTime groupName venueName homeTeam { name } } } } }'),
      );
      const matches = data.v1.worldCup.matches;
      expect(matches).toHaveLength(104);
      expect(matches.map((m) => [m.ref.nativeId, m.startTime, m.groupName, m.venueName])).toEqual(
        wc.matches.map((m) => [String(m.v1Id), instantOf(m.startTime), null, null]),
      );
      expect(matches.map((m) => m.homeTeam?.name)).toEqual(
        expect.arrayContaining(['México', '日本', 'المغرب', 'Cabo Verde 🇨🇻']),
      );
      expect(await counted()).toEqual({ 'GET /api/v1/world-cup/matches': 1 });

      const first = wc.matches[0];
      await resetCounts(stack.sandbox.url);
      const v2 = ok(
        await query<{ v2: { event: { startTime: string; startTimestamp: number } } }>(
          'query($id: ID!) { v2(sport: FOOTBALL) { event(id: $id) { startTime startTimestamp } } }',
          { id: String(first?.v2Id) },
        ),
      );
      expect(v2.v2.event.startTime).toBe(matches[0]?.startTime);
      expect(v2.v2.event.startTimestamp * 1000).toBe(Date.parse(matches[0]?.startTime ?? ''));
      expect(await counted()).toEqual({ [`GET /v2/football/api/match/${first?.v2Id}`]: 1 });
    });

    it('game detail: venue and lineups with IDs past 2^42, coordinates absent, the coach by athlete ID', async () => {
      const match = stack.sandbox.fixtures.worldCup.matches.find((m) => m.state === 'finished');
      if (match?.home === undefined) throw new Error('no finished match');
      const data = ok(
        await query<{
          v1: {
            worldCup: {
              gameDetail: { venue: Json; match: { startTime: string } };
              lineups: Array<{
                teamId: string;
                players: Array<{ athleteId: string; name: string }>;
                coach: { athleteId: string };
              }>;
            };
          };
        }>(
          `query($g: ID!) { v1 { worldCup {
            gameDetail(id: $g) { match { startTime } venue { ref { nativeId } name city capacity attendance coordinates { latitude } } }
            lineups(gameId: $g) { teamId players { athleteId name } coach { athleteId } }
          } } }`,
          { g: String(match.v1Id) },
        ),
      );
      expect(data.v1.worldCup.gameDetail.match.startTime).toBe(instantOf(match.startTime));
      expect(data.v1.worldCup.gameDetail.venue).toEqual({
        ref: { nativeId: String(match.venue.id) },
        name: match.venue.name,
        city: match.venue.city,
        capacity: match.venue.capacity,
        attendance: match.attendance,
        coordinates: null,
      });
      const home = data.v1.worldCup.lineups[0];
      expect(home?.teamId).toBe(String(match.home.v1Id));
      expect(home?.players.map((p) => [p.athleteId, p.name])).toEqual(
        match.home.players.slice(0, 18).map((p) => [String(p.v1Id), p.name]),
      );
      expect(home?.coach.athleteId).toBe(String(match.home.coach.v1AthleteId));
      expect(await counted()).toEqual({
        [`GET /api/v1/game/${match.v1Id}`]: 1,
        [`GET /api/v1/game/${match.v1Id}/lineups`]: 1,
      });
    });
  });

  describe('v2', () => {
    it('team: team, venue and manager IDs past 2^42, Unicode names, absent parts null; node(id:) answers from the cache', async () => {
      const team = stack.sandbox.fixtures.otherSports.hockeyV2.teams[0];
      if (team?.venue === undefined || team.manager === undefined)
        throw new Error('no hockey V2 team with venue and manager');
      const fields =
        'id name shortName country venue { ref { nativeId } name city capacity coordinates { latitude } } manager { ref { nativeId } name }';
      const data = ok(
        await query<{ v2: { team: Json & { id: string } } }>(
          `query($id: ID!) { v2(sport: ICE_HOCKEY) { team(id: $id) { ${fields} } } }`,
          { id: String(team.id) },
        ),
      );
      expect(data.v2.team).toEqual({
        id: data.v2.team.id,
        name: '札幌 Kraken 🐙',
        shortName: null,
        country: null,
        venue: {
          ref: { nativeId: String(team.venue.id) },
          name: '札幌 Arena',
          city: '札幌',
          capacity: 10_000,
          coordinates: null,
        },
        manager: { ref: { nativeId: String(team.manager.id) }, name: team.manager.name },
      });
      expect(await counted()).toEqual({ [`GET /v2/hockey/api/teams/${team.id}`]: 1 });
      const again = ok(
        await query<{ node: Json }>(`query($id: ID!) { node(id: $id) { ... on V2Team { ${fields} } } }`, {
          id: data.v2.team.id,
        }),
      );
      expect(again.node).toEqual(data.v2.team);
      expect(await counted()).toEqual({ [`GET /v2/hockey/api/teams/${team.id}`]: 1 });
    });

    it('season events: a season ID past 2^42 comes out as an ID; the season fills its pages differently (6 clubs, 7 rounds played)', async () => {
      const hockey = stack.sandbox.fixtures.otherSports.hockeyV2;
      const season = hockey.seasons[0];
      const finished = hockey.events
        .filter((e) => e.status.type === 'finished')
        .sort((a, b) => b.startTimestamp - a.startTimestamp);
      expect(finished).toHaveLength(21);
      const pages = Math.ceil(finished.length / V2_EVENTS_PAGE_SIZE);
      const data = ok(
        await query<{
          v2: {
            seasonEvents: {
              nodes: Array<{
                ref: { nativeId: string };
                seasonId: string;
                round: number | null;
                homeTeam: { name: string };
              }>;
              pageInfo: { hasNextPage: boolean };
            };
          };
        }>(
          `query($t: ID!, $s: ID!) { v2(sport: ICE_HOCKEY) { seasonEvents(tournamentId: $t, seasonId: $s, direction: LAST, first: 25) {
            nodes { ref { nativeId } seasonId round homeTeam { name } } pageInfo { hasNextPage }
          } } }`,
          { t: String(hockey.uniqueTournament.id), s: String(season?.id) },
        ),
      );
      const { nodes, pageInfo } = data.v2.seasonEvents;
      expect(nodes.map((n) => [n.ref.nativeId, n.seasonId, n.round, n.homeTeam.name])).toEqual(
        finished.map((e) => [String(e.id), String(season?.id), null, e.homeTeam.name]),
      );
      expect(pageInfo.hasNextPage).toBe(false);
      const base = `GET /v2/hockey/api/tournament/${hockey.uniqueTournament.id}/season/${season?.id}/events/last`;
      expect(await counted()).toEqual(
        Object.fromEntries(Array.from({ length: pages }, (_, page) => [`${base}/${page}`, 1])),
      );
    });

    it('football: the 48 World Cup teams with Unicode names, IDs past 2^42, in one request', async () => {
      const data = ok(
        await query<{
          v2: { football: { worldCup2026: { teams: Array<{ ref: { nativeId: string }; name: string }> } } };
        }>('{ v2(sport: FOOTBALL) { football { worldCup2026 { teams { ref { nativeId } name } } } } }'),
      );
      expect(data.v2.football.worldCup2026.teams.map((t) => [t.ref.nativeId, t.name])).toEqual(
        stack.sandbox.fixtures.worldCup.teams.map((t) => [String(t.v2Id), t.name]),
      );
      expect(data.v2.football.worldCup2026.teams.map((t) => t.name)).toEqual(
        expect.arrayContaining(['대한민국', 'ایران', 'Côte d’Ivoire', 'Україна']),
      );
      expect(await counted()).toEqual({ 'GET /v2/football/api/world-cup-2026/teams': 1 });
    });

    it('v2 football: the 56 upcoming World Cup matches take two pages of 30', async () => {
      const upcoming = stack.sandbox.fixtures.worldCup.matches.filter((m) => m.state !== 'finished');
      expect(upcoming).toHaveLength(56);
      const data = ok(
        await query<{
          v2: {
            football: {
              worldCup2026: {
                matches: {
                  nodes: Array<{ ref: { nativeId: string }; startTime: string }>;
                  pageInfo: { hasNextPage: boolean };
                };
              };
            };
          };
        }>(
          '{ v2(sport: FOOTBALL) { football { worldCup2026 { matches(first: 60) { nodes { ref { nativeId } startTime } pageInfo { hasNextPage } } } } } }',
        ),
      );
      const { nodes, pageInfo } = data.v2.football.worldCup2026.matches;
      expect(nodes.map((n) => [n.ref.nativeId, n.startTime])).toEqual(
        upcoming.map((m) => [String(m.v2Id), instantOf(m.startTime)]),
      );
      expect(pageInfo.hasNextPage).toBe(false);
      expect(await counted()).toEqual({ 'GET /v2/football/api/world-cup-2026/matches': 2 });
    });

    it('v2 baseball: a confirmed lineup whose players carry no `substitute` (and one no `role`)', async () => {
      const game = stack.sandbox.fixtures.otherSports.baseball.games.find((g) => g.confirmsOnPoll === 0);
      if (game === undefined) throw new Error('no confirmed game');
      const data = ok(
        await query<{
          v2: {
            baseball: { lineups: { confirmed: boolean; away: { battingOrder: Array<{ player: { name: string } }> } } };
          };
        }>(
          'query($id: ID!) { v2(sport: BASEBALL) { baseball { lineups(matchId: $id) { confirmed away { battingOrder { player { name } } } } } } }',
          { id: String(game.id) },
        ),
      );
      expect(data.v2.baseball.lineups.confirmed).toBe(true);
      const batters = game.lineups.away.confirmed.players.filter(
        (p) => p.role === 'batter' && p.battingOrder !== undefined,
      );
      expect(data.v2.baseball.lineups.away.battingOrder.map((p) => p.player.name)).toEqual(
        batters.map((p) => p.player.name),
      );
      // The event this loaded stays out of the next test's request count (the free catalogue is loaded again, as in beforeAll).
      stack.gateway.services.fetcher.cache.clear();
      ok(await query('{ sports { sport } }'));
    });

    it('baseball: an event ID past 2^42 read by ID; a league whose lineups are not carried answers NOT_SUPPORTED after that one request', async () => {
      const { games } = stack.sandbox.fixtures.otherSports.baseball;
      const carried = games[0];
      const notCarried = games.find((g) => g.league.id === baseballIds.notCarriedLeague);
      const data = ok(
        await query<{
          v2: {
            event: {
              ref: { nativeId: string };
              homeTeam: { ref: { nativeId: string }; name: string };
              tournament: { ref: { nativeId: string } };
            };
          };
        }>(
          'query($id: ID!) { v2(sport: BASEBALL) { event(id: $id) { ref { nativeId } homeTeam { ref { nativeId } name } tournament { ref { nativeId } } } } }',
          { id: String(carried?.id) },
        ),
      );
      expect(data.v2.event).toEqual({
        ref: { nativeId: String(carried?.id) },
        homeTeam: { ref: { nativeId: String(carried?.home.id) }, name: carried?.home.name },
        // The league IDs are the gateway's own assumption (src/upstream/routes/v2-baseball.ts): the same in every data set.
        tournament: { ref: { nativeId: String(baseballIds.majorLeague) } },
      });
      expect(await counted()).toEqual({ [`GET /v2/baseball/api/match/${carried?.id}`]: 1 });

      await resetCounts(stack.sandbox.url);
      const refused = await query(
        'query($id: ID!) { v2(sport: BASEBALL) { baseball { lineups(matchId: $id) { confirmed } } } }',
        { id: String(notCarried?.id) },
      );
      expect(refused.errors?.map((e) => e.extensions?.['code'])).toEqual(['NOT_SUPPORTED']);
      expect(await counted()).toEqual({ [`GET /v2/baseball/api/match/${notCarried?.id}`]: 1 });
    });

    it('aussie rules, motorsport, cycling, water polo: IDs past 2^42 and Unicode names, one request each', async () => {
      const os = stack.sandbox.fixtures.otherSports;
      const coach = os.aussieRules.coaches[0];
      const season = os.motorsport.stages[0]?.season;
      const rider = os.cycling.riders[0];
      const data = ok(
        await query<{
          aussie: {
            aussieRules: { coach: { ref: { nativeId: string }; name: string; career: Array<{ role: string }> } };
          };
          motor: {
            motorsport: {
              seasonStages: Array<{
                ref: { nativeId: string };
                name: string;
                winner: { nativeId: string; name: string } | null;
              }>;
            };
          };
          cycling: { cycling: { rider: { ref: { nativeId: string }; name: string; isRider: boolean } } };
          water: { waterPolo: { live: Array<{ ref: { nativeId: string }; homeTeam: { name: string } }> } };
        }>(
          `query($coach: ID!, $season: ID!, $rider: ID!) {
            aussie: v2(sport: AUSSIE_RULES) { aussieRules { coach(id: $coach) { ref { nativeId } name career { role } } } }
            motor: v2(sport: MOTORSPORT) { motorsport { seasonStages(seasonId: $season) { ref { nativeId } name winner { nativeId name } } } }
            cycling: v2(sport: CYCLING) { cycling { rider(id: $rider) { ref { nativeId } name isRider } } }
            water: v2(sport: WATER_POLO) { waterPolo { live { ref { nativeId } homeTeam { name } } } }
          }`,
          { coach: String(coach?.id), season: String(season?.id), rider: String(rider?.id) },
        ),
      );
      expect(data.aussie.aussieRules.coach).toEqual({
        ref: { nativeId: String(coach?.id) },
        name: coach?.name,
        career: [{ role: 'Assistant coach' }, { role: 'Senior coach' }],
      });
      expect(data.motor.motorsport.seasonStages.map((s) => [s.ref.nativeId, s.name, s.winner])).toEqual(
        os.motorsport.stages.map((s) => [
          String(s.id),
          s.name,
          s.winner === undefined ? null : { nativeId: String(s.winner.id), name: s.winner.name },
        ]),
      );
      expect(data.cycling.cycling.rider).toEqual({
        ref: { nativeId: String(rider?.id) },
        name: rider?.name,
        isRider: true,
      });
      expect(data.water.waterPolo.live.map((e) => [e.ref.nativeId, e.homeTeam.name])).toEqual(
        os.waterPolo.live.map((e) => [String(e.id), e.homeTeam.name]),
      );
      for (const name of [
        coach?.name,
        rider?.name,
        ...os.motorsport.stages.flatMap((s) => (s.winner === undefined ? [] : [s.winner.name])),
      ]) {
        // Every alt person name has letters past ASCII (fixtures/alt-dataset.ts).
        expect(name).toMatch(/\P{ASCII}/u);
      }
      expect(await counted()).toEqual({
        [`GET /v2/aussie-rules/api/manager/${coach?.id}`]: 1,
        [`GET /v2/aussie-rules/api/manager/${coach?.id}/career`]: 1,
        [`GET /v2/motorsport/api/season/${season?.id}/stages`]: 1,
        [`GET /v2/cycling/api/teams/${rider?.id}`]: 1,
        'GET /v2/waterpolo/api/live': 1,
      });
    });
  });

  describe('v3 and v4', () => {
    it('v3 day window: +05:30 start times as instants, league and event IDs past 2^42, an event refetched by node(id:)', async () => {
      const leagues = stack.sandbox.fixtures.otherSports.v3.windows.get('hockey/today') ?? [];
      const events = leagues.flatMap((l) => l.events);
      const data = ok(
        await query<{
          v3: {
            window: {
              leagues: Array<{ nativeId: string; country: string | null }>;
              events: Array<{ id: string; ref: { nativeId: string }; startTime: string; homeTeam: { name: string } }>;
            };
          };
        }>(
          '{ v3 { window(sport: ICE_HOCKEY, window: TODAY) { leagues { nativeId country } events { id ref { nativeId } startTime homeTeam { name } } } } }',
        ),
      );
      expect(data.v3.window.leagues).toEqual(leagues.map((l) => ({ nativeId: String(l.id), country: null })));
      expect(data.v3.window.events.map((e) => [e.ref.nativeId, e.startTime, e.homeTeam.name])).toEqual(
        events.map((e) => [String(e.id), instantOf(e.startTime ?? ''), e.homeTeam.name]),
      );
      expect(events[0]?.startTime?.endsWith(ALT_OFFSET_TEXT)).toBe(true);
      expect(await counted()).toEqual({ 'GET /v3/hockey/today': 1 });

      const first = data.v3.window.events[0];
      const again = ok(
        await query<{ node: Json }>(
          'query($id: ID!) { node(id: $id) { ... on V3Event { id ref { nativeId } startTime homeTeam { name } } } }',
          { id: first?.id },
        ),
      );
      expect(again.node).toEqual(first);
      expect(await counted()).toEqual({ 'GET /v3/hockey/today': 1 });
    });

    it('v3 cycling: Unicode rider names and IDs past 2^42 in the placings', async () => {
      const [stage, overall] = stack.sandbox.fixtures.otherSports.v3.cycling.get('yesterday') ?? [];
      const data = ok(
        await query<{
          v3: {
            cycling: { general: { placings: Array<Json> }; stages: Array<{ stage: number; placings: Array<Json> }> };
          };
        }>(
          '{ v3 { cycling(window: YESTERDAY) { general { placings { position rider riderNativeId } } stages { stage placings { position rider riderNativeId } } } } }',
        ),
      );
      const placings = (league: typeof stage) =>
        (league?.events ?? []).map((e, i) => ({
          position: i + 1,
          rider: e.homeTeam.name,
          riderNativeId: String(e.homeTeam.id),
        }));
      expect(data.v3.cycling.general.placings).toEqual(placings(overall));
      expect(data.v3.cycling.stages).toEqual([{ stage: 4, placings: placings(stage) }]);
      expect(await counted()).toEqual({ 'GET /api/v1/cycling/yesterday': 1 });
    });

    it('v4 odds: an event ID past 2^42, the absent team names null, best prices across the four bookmakers', async () => {
      const eventId = stack.sandbox.fixtures.otherSports.v4.events.get('ice-hockey')?.[0];
      const odds = stack.sandbox.fixtures.otherSports.v4.odds.get(`ice-hockey/${eventId}`);
      const data = ok(
        await query<{
          v4: {
            odds: {
              eventId: string;
              homeTeam: string | null;
              awayTeam: string | null;
              bookmakers: Array<{ name: string }>;
              best: Array<{ outcome: string; price: number }>;
            };
          };
        }>(
          'query($id: ID!) { v4 { odds(sport: ICE_HOCKEY, eventId: $id) { eventId homeTeam awayTeam bookmakers { name } best(market: "moneyline") { outcome price } } } }',
          { id: String(eventId) },
        ),
      );
      const best = (name: string) =>
        Math.max(
          ...(odds?.bookmakers ?? []).flatMap((b) =>
            b.markets
              .filter((m) => m.key === 'moneyline')
              .flatMap((m) => m.outcomes.filter((o) => o.name === name).map((o) => o.price)),
          ),
        );
      expect(data.v4.odds).toEqual({
        eventId: String(eventId),
        homeTeam: null,
        awayTeam: null,
        bookmakers: (odds?.bookmakers ?? []).map((b) => ({ name: b.name })),
        best: [
          { outcome: 'home', price: best('home') },
          { outcome: 'away', price: best('away') },
        ],
      });
      expect(await counted()).toEqual({ 'GET /v4/ice-hockey/odds': 1 });
    });
  });

  describe('v6', () => {
    it('football team stats: one match per ID form (dots, spaces and a slash, %, a literal %2F, CJK, RTL, emoji), one percent-encoded request each', async () => {
      const v6 = stack.sandbox.fixtures.football.v6;
      const ids = v6.matchIds.slice(0, 7);
      expect(ids).toEqual([
        'm-2026_06.0.jp-ci',
        'wc 2026 / m 1',
        'm-2 100%',
        'm%2F3',
        '試合.m.4.東京',
        'مباراة m 5',
        '⚽ m6',
      ]);
      for (const id of ids) {
        const stats = v6.statsByMatchId.get(id);
        const response = ok(
          await query<{
            v6: {
              football: {
                teamStats: {
                  ref: { nativeId: string };
                  teams: Array<{
                    teamId: string;
                    name: string;
                    fullMatch: { stats: Array<{ statId: number; rawValue: string | null }> };
                  }>;
                };
              };
            };
          }>(
            'query($id: ID!) { v6 { football { teamStats(matchId: $id) { ref { nativeId } teams { teamId name fullMatch { stats { statId rawValue } } } } } } }',
            { id },
          ),
        );
        const teamStats = response.v6.football.teamStats;
        expect(teamStats.ref.nativeId).toBe(id);
        expect(teamStats.teams.map((t) => [t.teamId, t.name])).toEqual(
          (stats?.teams ?? []).map((t) => [t.teamId, t.name]),
        );
        // Only the statistic IDs the fixture sent (183 is shown as the 128 it duplicates, spec 2.11): the unknown fields beside `stats` are not read as statistics.
        const sent = Object.entries(stats?.teams[0]?.matchStats['0']?.stats ?? {}).map(([statId, value]) => [
          statId === '183' ? '128' : statId,
          value,
        ]);
        const shown = (teamStats.teams[0]?.fullMatch.stats ?? [])
          .filter((s) => s.rawValue !== null)
          .map((s) => [String(s.statId), s.rawValue]);
        expect(Object.fromEntries(shown)).toEqual(Object.fromEntries(sent));
      }
      const byRoute = await counted();
      expect(byRoute).toEqual({
        'GET /v6/football/reference/team-stats': 1,
        ...Object.fromEntries(
          ids.map((id) => [`GET /v6/football/api/v1/match/${encodeURIComponent(id)}/team-stats`, 1]),
        ),
      });
    });

    it('baseball: a match and its teams with opaque IDs round-trip through nodes(ids:) from the cache; absent parts null', async () => {
      const matches = stack.sandbox.fixtures.otherSports.baseballV6.matches.slice(0, 7);
      const fields =
        'id ref { nativeId } startTime inning league homeTeam { id ref { nativeId } name image { url } } awayTeam { id ref { nativeId } name }';
      type Match = {
        id: string;
        ref: { nativeId: string };
        startTime: string;
        inning: number | null;
        league: string;
        homeTeam: { id: string; ref: { nativeId: string }; name: string; image: unknown };
        awayTeam: { id: string; ref: { nativeId: string }; name: string };
      };
      const collected: Match[] = [];
      for (const match of matches) {
        const data = ok(
          await query<{ v6: { baseball: { match: Match } } }>(
            `query($id: ID!) { v6 { baseball { match(id: $id) { ${fields} } } } }`,
            { id: match.id },
          ),
        );
        const got = data.v6.baseball.match;
        expect([
          got.ref.nativeId,
          got.startTime,
          got.inning,
          got.league,
          got.homeTeam.ref.nativeId,
          got.homeTeam.name,
          got.homeTeam.image,
          got.awayTeam.ref.nativeId,
        ]).toEqual([
          match.id,
          instantOf(match.startTime),
          null,
          match.league.name,
          match.home.id,
          match.home.name,
          null,
          match.away.id,
        ]);
        collected.push(got);
      }
      expect(await counted()).toEqual(
        Object.fromEntries(matches.map((m) => [`GET /v6/baseball/api/v1/match/${encodeURIComponent(m.id)}`, 1])),
      );

      await resetCounts(stack.sandbox.url);
      const ids = collected.flatMap((m) => [m.id, m.homeTeam.id, m.awayTeam.id]);
      const again = ok(
        await query<{ nodes: Array<Json & { id: string }> }>(
          `query($ids: [ID!]!) { nodes(ids: $ids) {
            ... on V6BaseballMatch { id ref { nativeId } league }
            ... on V6BaseballTeam { id ref { nativeId } name }
          } }`,
          { ids },
        ),
      );
      expect(again.nodes.map((n) => n.id)).toEqual(ids);
      expect(again.nodes.map((n) => (n['ref'] as { nativeId: string }).nativeId)).toEqual(
        collected.flatMap((m) => [m.ref.nativeId, m.homeTeam.ref.nativeId, m.awayTeam.ref.nativeId]),
      );
      expect(await counted()).toEqual({});
    });
  });

  it('nodes(ids:): V1 and V2 entities whose global IDs hold integers past 2^42 come back, from the cache', async () => {
    const fx = stack.sandbox.fixtures;
    const team = fx.worldCup.teams[17];
    const warm = ok(
      await query<{
        v1: { worldCup: { competitor: { id: string; name: string } } };
        football: { player: { id: string; name: string }; manager: { id: string; name: string } };
      }>(
        `query($t: ID!, $p: ID!, $m: ID!) {
          v1 { worldCup { competitor(id: $t) { id name } } }
          football: v2(sport: FOOTBALL) { player(id: $p) { id name } manager(id: $m) { id name } }
        }`,
        { t: String(team?.v1Id), p: String(team?.players[3]?.v2Id), m: String(team?.coach.v2ManagerId) },
      ),
    );
    expect(warm.v1.worldCup.competitor.name).toBe('日本');
    expect(warm.football.player.name).toBe(team?.players[3]?.name);
    expect(warm.football.manager.name).toBe(team?.coach.name);
    const ids = [warm.v1.worldCup.competitor.id, warm.football.player.id, warm.football.manager.id];
    for (const id of ids) expect(Number(fromGlobalId(id).nativeId)).toBeGreaterThan(ALT_ID_OFFSET);
    await resetCounts(stack.sandbox.url);
    const again = ok(
      await query<{ nodes: Array<{ id: string; name: string }> }>(
        `query($ids: [ID!]!) { nodes(ids: $ids) {
          ... on V1FootballCompetitor { id name }
          ... on V2Player { id name }
          ... on V2Manager { id name }
        } }`,
        { ids },
      ),
    );
    expect(again.nodes).toEqual([warm.v1.worldCup.competitor, warm.football.player, warm.football.manager]);
    expect(await counted()).toEqual({});
  });
});

describe('choosing a data set', () => {
  it('SANDBOX_DATASET names it; unset is the default data; anything else is refused with the values allowed', () => {
    expect(sandboxDatasetFromEnv({})).toBe('default');
    expect(sandboxDatasetFromEnv({ SANDBOX_DATASET: 'alt' })).toBe('alt');
    expect(sandboxDatasetFromEnv({ SANDBOX_DATASET: 'other' })).toEqual({
      error: 'SANDBOX_DATASET must be one of default, alt, got "other"',
    });
  });

  it('startSandbox refuses an unknown data set', async () => {
    await expect(startSandbox({ dataset: 'nope' as 'alt' })).rejects.toThrow(
      'startSandbox: dataset must be one of default, alt, got "nope"',
    );
  });

  it('odds channels carry any safe integer match ID, as every V1/V2 ID', () => {
    expect(isOddsMatchId('9007199254740001')).toBe(true);
    expect(isOddsMatchId(String(ALT_ID_OFFSET + 4_480_011))).toBe(true);
    expect(isOddsMatchId('9007199254740993')).toBe(false);
    expect(isOddsMatchId('0123')).toBe(false);
  });
});
