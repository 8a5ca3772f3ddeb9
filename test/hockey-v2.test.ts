/**
 * Hockey V2 teams end to end, and the season aggregates the gateway computes
 * because the upstream 404s its team-statistics routes for ice hockey.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const TEAM = hockeyV2Ids.firstTeam + 2;
const STATS = /^GET \/v2\/hockey\/api\/match\/\d+\/statistics$/;
const PLAYER_STATS = /^GET \/v2\/hockey\/api\/match\/\d+\/player-statistics$/;

interface Stat {
  name: string;
  value: number;
}
interface EventNode {
  status: { finished: boolean };
}
interface TeamRoutes {
  detail: {
    name: string;
    manager: { name: string };
    venue: { name: string; capacity: number; coordinates: { latitude: number; longitude: number } };
  };
  logo: { url: string; version: string };
  roster: Array<{ position: string }>;
  recentResults: { nodes: EventNode[]; pageInfo: { hasNextPage: boolean } };
  upcomingGames: { nodes: EventNode[] };
  closestGame: { previous: EventNode; next: EventNode };
  competitions: Array<{ ref: { nativeId: string } }>;
  form: { played: number; wins: number; losses: number; overtimeLosses: number };
  playerStatisticsSeasons: Array<{ seasons: Array<{ nativeId: string }> }>;
}
interface Aggregates {
  matches: number;
  goalsFor: number;
  team: Stat[];
  players: Array<{ player: { nativeId: string }; statistics: Stat[] }>;
}

describe('hockey V2 teams', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  /** Requests whose `METHOD /path` matches. */
  const routeCount = async (pattern: RegExp): Promise<number> => {
    const counts = await requestCounts(stack.sandbox.url);
    return Object.entries(counts.byRoute)
      .filter(([route]) => pattern.test(route))
      .reduce((sum, [, n]) => sum + n, 0);
  };

  it('serves every team route: detail, logo, roster, results, upcoming, closest, competitions, form, featured, seasons', async () => {
    const result = await gql<{ v2: { hockey: { team: TeamRoutes } } }>(
      stack.gateway.url,
      `query($id: ID!) { v2(sport: ICE_HOCKEY) { hockey { team(id: $id) {
        nativeId
        detail { name manager { name } venue { name capacity coordinates { latitude longitude } } }
        logo { url version }
        roster { position player { name ref { version sport } } }
        recentResults(first: 3) { nodes { ref { nativeId } status { finished } homeTeam { name } awayTeam { name } homeScore awayScore startTimestamp }
          pageInfo { hasNextPage endCursor } }
        upcomingGames(first: 2) { nodes { status { finished } } }
        closestGame { previous { status { finished } } next { status { finished } } }
        competitions { name ref { nativeId } }
        form { form played wins losses overtimeLosses }
        featuredEvent { ref { nativeId } }
        playerStatisticsSeasons { tournament { name } seasons { nativeId name } }
        standingsSeasons { seasons { nativeId } }
      } } } }`,
      { id: String(TEAM) },
    );
    expect(result.errors).toBeUndefined();
    const team = result.data?.v2.hockey.team as TeamRoutes;
    const fixture = stack.sandbox.fixtures.otherSports.hockeyV2.teams.find((t) => t.id === TEAM);
    expect(team.detail.manager.name).toBe(fixture?.manager?.name);
    expect(team.detail.venue.capacity).toBe(fixture?.venue?.capacity);
    expect(team.detail.venue.coordinates.latitude).toBeCloseTo(fixture?.venue?.coordinates?.latitude ?? 0);
    expect(team.logo).toEqual({ url: `/images/v2/hockey/teams/${TEAM}`, version: 'V2' });
    expect(new Set(team.roster.map((p) => p.position))).toEqual(new Set(['G', 'D', 'LW', 'RW', 'C']));
    expect(team.recentResults.nodes).toHaveLength(3);
    expect(team.recentResults.nodes.every((e) => e.status.finished)).toBe(true);
    expect(team.recentResults.pageInfo.hasNextPage).toBe(true);
    expect(team.upcomingGames.nodes.every((e) => !e.status.finished)).toBe(true);
    expect(team.closestGame.previous.status.finished).toBe(true);
    expect(team.closestGame.next.status.finished).toBe(false);
    expect(team.competitions[0]?.ref.nativeId).toBe(String(hockeyV2Ids.uniqueTournament));
    expect(team.form.played).toBe(10);
    expect(team.form.wins + team.form.losses + team.form.overtimeLosses).toBe(10);
    expect(team.playerStatisticsSeasons[0]?.seasons[0]?.nativeId).toBe(String(hockeyV2Ids.season));
    // recent results: page 0 only (first: 3 fits in one page of 10)
    expect(await routeCount(/\/events\/last\/\d+$/)).toBe(1);
  });

  it('pages recent results from page 0, fetching only the pages asked for', async () => {
    const first = await gql<{
      v2: { hockey: { team: { recentResults: { nodes: unknown[]; pageInfo: { endCursor: string } } } } };
    }>(
      stack.gateway.url,
      `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${TEAM + 1}") { recentResults(first: 9) { nodes { ref { nativeId } } pageInfo { endCursor hasNextPage } } } } } }`,
    );
    const cursor = first.data?.v2.hockey.team.recentResults.pageInfo.endCursor;
    const second = await gql<{
      v2: { hockey: { team: { recentResults: { nodes: unknown[]; pageInfo: { hasNextPage: boolean } } } } };
    }>(
      stack.gateway.url,
      `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${TEAM + 1}") { recentResults(first: 5, after: "${cursor}") { nodes { ref { nativeId } } pageInfo { hasNextPage } } } } } }`,
    );
    // 10 finished games: 9 on page 0, then 1 left on page 0; nothing on page 1.
    expect(second.data?.v2.hockey.team.recentResults.nodes).toHaveLength(1);
    expect(second.data?.v2.hockey.team.recentResults.pageInfo.hasNextPage).toBe(false);
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute[`GET /v2/hockey/api/teams/${TEAM + 1}/events/last/0`]).toBe(1);
    expect(counts.total).toBe(1); // page 0 once; the second query is answered from the cache
  });

  it('answers the team-statistics routes NOT_SUPPORTED without an upstream request', async () => {
    const result = await gql(
      stack.gateway.url,
      `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${TEAM}") {
        teamStatisticsSeasons { seasons { nativeId } }
        seasonStatistics(tournamentId: "${hockeyV2Ids.uniqueTournament}", seasonId: "${hockeyV2Ids.season}") { name }
      } } } }`,
    );
    expect(result.errors?.map((e) => e.extensions?.['code'])).toEqual(['NOT_SUPPORTED', 'NOT_SUPPORTED']);
    expect(result.errors?.every((e) => String(e.extensions?.['alternative']).includes('seasonAggregates'))).toBe(true);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('refuses hockey team routes on another sport without a request', async () => {
    const result = await gql(stack.gateway.url, `{ v2(sport: BASEBALL) { hockey { team(id: "1") { nativeId } } } }`);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('NOT_SUPPORTED');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('computes season aggregates equal to the sum over the match statistics, one request per match and route, none the second time', async () => {
    const args = `tournamentId: "${hockeyV2Ids.uniqueTournament}", seasonId: "${hockeyV2Ids.season}"`;
    const cost = await gql<{
      v2: {
        hockey: {
          team: {
            seasonAggregatesCost: { finishedMatches: number; upstreamRequestsNeeded: number; cachedRequests: number };
          };
        };
      };
    }>(
      stack.gateway.url,
      `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${TEAM}") { seasonAggregatesCost(${args}) { finishedMatches upstreamRequestsNeeded cachedRequests } } } } }`,
    );
    expect(cost.errors).toBeUndefined();
    expect(cost.data?.v2.hockey.team.seasonAggregatesCost).toEqual({
      finishedMatches: 10,
      upstreamRequestsNeeded: 20,
      cachedRequests: 0,
    });
    // The cost read the season's event list only.
    expect(await routeCount(/statistics$/)).toBe(0);
    await resetCounts(stack.sandbox.url);

    const query = `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${TEAM}") { seasonAggregates(${args}) {
      matches matchIds wins losses draws goalsFor goalsAgainst team { name value } opponents { name value }
      players { player { nativeId name } position matches statistics { name value } }
    } } } } }`;
    const first = await gql<{ v2: { hockey: { team: { seasonAggregates: Aggregates } } } }>(stack.gateway.url, query);
    expect(first.errors).toBeUndefined();
    const aggregates = first.data?.v2.hockey.team.seasonAggregates;
    expect(await routeCount(STATS)).toBe(10);
    expect(await routeCount(PLAYER_STATS)).toBe(10);
    expect(Object.values((await requestCounts(stack.sandbox.url)).byRoute).every((n) => n === 1)).toBe(true);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(20); // the season list came from the cache

    // The expected sums, straight from the sandbox's own match statistics.
    const hockey = stack.sandbox.fixtures.otherSports.hockeyV2;
    const played = hockey.events.filter(
      (e) => e.status.type === 'finished' && (e.homeTeam.id === TEAM || e.awayTeam.id === TEAM),
    );
    expect(aggregates?.matches).toBe(played.length);
    const expectedTeam = new Map<string, number>();
    const expectedPlayerGoals = new Map<number, number>();
    let goalsFor = 0;
    for (const event of played) {
      const home = event.homeTeam.id === TEAM;
      goalsFor += (home ? event.homeScore?.current : event.awayScore?.current) ?? 0;
      for (const item of hockey.matchStatistics
        .get(event.id)
        ?.statistics[0]?.groups.flatMap((g) => g.statisticsItems) ?? []) {
        expectedTeam.set(item.key, (expectedTeam.get(item.key) ?? 0) + (home ? item.homeValue : item.awayValue));
      }
      const lines = hockey.playerStatistics.get(event.id);
      for (const line of (home ? lines?.home : lines?.away) ?? []) {
        expectedPlayerGoals.set(
          line.player.id,
          (expectedPlayerGoals.get(line.player.id) ?? 0) + (line.statistics['goals'] ?? 0),
        );
      }
    }
    expect(Object.fromEntries((aggregates?.team ?? []).map((s) => [s.name, s.value]))).toEqual(
      Object.fromEntries(expectedTeam),
    );
    expect(aggregates?.goalsFor).toBe(goalsFor);
    expect(expectedTeam.get('goals')).toBe(goalsFor);
    for (const line of aggregates?.players ?? []) {
      const goals = line.statistics.find((s) => s.name === 'goals')?.value;
      if (goals !== undefined) expect(goals).toBe(expectedPlayerGoals.get(Number(line.player.nativeId)));
    }

    await resetCounts(stack.sandbox.url);
    const second = await gql<{ v2: { hockey: { team: { seasonAggregates: unknown } } } }>(stack.gateway.url, query);
    expect(second.data?.v2.hockey.team.seasonAggregates).toEqual(aggregates);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);

    const after = await gql<{
      v2: { hockey: { team: { seasonAggregatesCost: { upstreamRequestsNeeded: number; cachedRequests: number } } } };
    }>(
      stack.gateway.url,
      `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${TEAM}") { seasonAggregatesCost(${args}) { upstreamRequestsNeeded cachedRequests } } } } }`,
    );
    expect(after.data?.v2.hockey.team.seasonAggregatesCost).toEqual({ upstreamRequestsNeeded: 0, cachedRequests: 20 });
  });
});
