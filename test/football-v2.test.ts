/**
 * V2 football discovery (spec 4.8) and V2 managers on every sport.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const CATALOGUE = 'GET /v2/football/api/tournaments';

interface CompetitionPage {
  totalCount: number;
  nodes: Array<{ name: string; ref: { nativeId: string }; categoryInfo: { nativeId: string; amateur: boolean } }>;
  pageInfo: { hasNextPage: boolean; endCursor: string };
}

describe('V2 football discovery', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  const competitions = (filter: Record<string, unknown>, first = 20, after?: string) =>
    gql<{ v2: { football: { competitions: CompetitionPage } } }>(
      stack.gateway.url,
      `query ($filter: V2CompetitionFilter, $first: Int, $after: String) { v2(sport: FOOTBALL) { football {
        competitions(filter: $filter, first: $first, after: $after) {
          totalCount nodes { name ref { nativeId } categoryInfo { nativeId amateur } } pageInfo { hasNextPage endCursor }
        }
      } } }`,
      { filter, first, after },
    );

  it('fetches the ~6,400-competition catalogue once, then filters and pages it in the gateway', async () => {
    const all = await competitions({});
    expect(all.errors).toBeUndefined();
    expect(all.data!.v2.football.competitions.totalCount).toBe(6_400);

    const dutch = await competitions({ categoryId: '1587' }, 30);
    expect(dutch.data!.v2.football.competitions.totalCount).toBe(38);
    const rest = await competitions(
      { categoryId: '1587' },
      30,
      dutch.data!.v2.football.competitions.pageInfo.endCursor,
    );
    expect(rest.data!.v2.football.competitions.nodes).toHaveLength(8);
    expect(rest.data!.v2.football.competitions.pageInfo.hasNextPage).toBe(false);

    const german = await competitions({ categoryId: '122' });
    expect(german.data!.v2.football.competitions.totalCount).toBe(367);
    expect(german.data!.v2.football.competitions.nodes.every((n) => n.categoryInfo.amateur)).toBe(true);

    const amateur = await competitions({ amateur: true, alpha2: 'DE' });
    expect(amateur.data!.v2.football.competitions.totalCount).toBe(367);
    const germanyMain = await competitions({ categoryId: '30' });
    expect(germanyMain.data!.v2.football.competitions.nodes.some((n) => n.categoryInfo.amateur)).toBe(false);

    const hoofdklasse = await competitions({ nameContains: 'Hoofdklasse' });
    expect(hoofdklasse.data!.v2.football.competitions.totalCount).toBe(0);

    expect((await requestCounts(stack.sandbox.url)).byRoute[CATALOGUE]).toBe(1);
  });

  it('lists categories with the separate amateur ones, from the same cached catalogue', async () => {
    const result = await gql<{
      v2: { football: { categories: Array<{ nativeId: string; amateur: boolean; competitionCount: number }> } };
    }>(stack.gateway.url, '{ v2(sport: FOOTBALL) { football { categories { nativeId amateur competitionCount } } } }');
    const categories = result.data!.v2.football.categories;
    expect(categories).toHaveLength(272);
    expect(categories.find((c) => c.nativeId === '1587')).toEqual({
      nativeId: '1587',
      amateur: true,
      competitionCount: 38,
    });
    expect(categories.find((c) => c.nativeId === '122')).toEqual({
      nativeId: '122',
      amateur: true,
      competitionCount: 367,
    });
    expect(categories.find((c) => c.nativeId === '35')!.amateur).toBe(false);
    expect((await requestCounts(stack.sandbox.url)).byRoute[CATALOGUE]).toBeUndefined();
  });

  it('serves seasons by tier, countries, category competitions, leagues, live and scheduled competitions, lineups', async () => {
    const amateurLowest = await competitions({ categoryId: '122', nameContains: 'Kreisklasse' }, 1);
    const lowId = amateurLowest.data!.v2.football.competitions.nodes[0]!.ref.nativeId;
    // biome-ignore lint/suspicious/noExplicitAny: the assertions below are what check this wide answer's shape
    const result = await gql<{ v2: { football: Record<string, any> } }>(
      stack.gateway.url,
      `query ($low: ID!) { v2(sport: FOOTBALL) { football {
        top: seasons(competitionId: 7) { year }
        low: seasons(competitionId: $low) { year }
        countries { slug }
        allCountries: countries(all: true) { slug }
        categoryCompetitions(categoryId: 1587) { name }
        leagues(country: "germany") { name tier }
        liveCompetitions { ref { nativeId } }
        scheduledCompetitions(date: "2026-06-20") { name }
        lineups(matchId: ${stack.sandbox.fixtures.worldCup.matches[0]!.v2Id}) { confirmed home { formation players { substitute } manager { name } } }
      } } }`,
      { low: lowId },
    );
    expect(result.errors).toBeUndefined();
    const football = result.data!.v2.football;
    expect(football['top']).toHaveLength(31);
    expect(football['low']).toHaveLength(1);
    expect(football['allCountries'].length).toBeGreaterThan(football['countries'].length);
    expect(football['categoryCompetitions']).toHaveLength(38);
    expect(football['leagues'].some((l: { name: string }) => l.name === 'Bundesliga')).toBe(true);
    expect(football['leagues'].some((l: { name: string }) => l.name.startsWith('Kreisliga'))).toBe(false);
    expect(football['liveCompetitions'].map((c: { ref: { nativeId: string } }) => c.ref.nativeId)).toContain('16');
    expect(football['scheduledCompetitions'].length).toBeGreaterThan(0);
    expect(football['lineups'].confirmed).toBe(true);
    expect(football['lineups'].home.players).toHaveLength(18);
    expect(football['lineups'].home.manager.name.length).toBeGreaterThan(0);
  });
});

describe('V2 managers on every sport', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('gives a football manager details, last events and career (teams, dates, record per club)', async () => {
    const team = stack.sandbox.fixtures.worldCup.teams[0]!;
    const result = await gql<{
      v2: {
        manager: {
          name: string;
          lastEvents: { nodes: Array<{ status: { finished: boolean } }> };
          career: Array<{
            team: { name: string };
            start: string;
            end: string | null;
            current: boolean;
            matches: number;
            wins: number;
            draws: number;
            losses: number;
          }>;
        };
      };
    }>(
      stack.gateway.url,
      `query ($id: ID!) { v2(sport: FOOTBALL) { manager(id: $id) {
        name lastEvents(first: 5) { nodes { status { finished } } }
        career { team { name } start end current matches wins draws losses }
      } } }`,
      { id: String(team.coach.v2ManagerId) },
    );
    expect(result.errors).toBeUndefined();
    const manager = result.data!.v2.manager;
    expect(manager.name).toBe(team.coach.name);
    expect(manager.lastEvents.nodes.length).toBeGreaterThan(0);
    expect(manager.lastEvents.nodes.every((e) => e.status.finished)).toBe(true);
    expect(manager.career.length).toBeGreaterThan(1);
    expect(manager.career[0]).toMatchObject({ team: { name: team.name }, end: null, current: true });
    for (const stint of manager.career) expect(stint.wins + stint.draws + stint.losses).toBe(stint.matches);
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute[`GET /v2/football/api/manager/${team.coach.v2ManagerId}/career`]).toBe(1);
  });

  it('never requests /career or /career-history on the sports where the spec says they 404', async () => {
    const hockey = stack.sandbox.fixtures.v2.sport('hockey');
    const managerId = [...hockey.managers.keys()][0]!;
    const result = await gql<{
      v2: { manager: { name: string; lastEvents: { nodes: unknown[] } | null; career: unknown } };
    }>(
      stack.gateway.url,
      'query ($id: ID!) { v2(sport: ICE_HOCKEY) { manager(id: $id) { name lastEvents(first: 3) { nodes { id } } career { start } } } }',
      { id: String(managerId) },
    );
    expect(result.data!.v2.manager.name.length).toBeGreaterThan(0);
    expect(result.data!.v2.manager.lastEvents).not.toBeNull();
    expect(result.data!.v2.manager.career).toBeNull();
    const error = result.errors!.find((e) => e.path?.includes('career'))!;
    expect(error.extensions).toMatchObject({ code: 'NOT_SUPPORTED' });
    const counts = await requestCounts(stack.sandbox.url);
    expect(Object.keys(counts.byRoute).filter((route) => /career/.test(route))).toEqual([]);
    expect(counts.byRoute[`GET /v2/hockey/api/manager/${managerId}/events/last/0`]).toBe(1);
  });

  it('serves manager images on every sport through the gateway, and checks an unknown manager against its data route', async () => {
    const hockey = stack.sandbox.fixtures.v2.sport('hockey');
    const hockeyManager = [...hockey.managers.keys()][0]!;
    const footballManager = stack.sandbox.fixtures.worldCup.teams[1]!.coach.v2ManagerId;
    for (const [sport, enumValue, id] of [
      ['hockey', 'ICE_HOCKEY', hockeyManager],
      ['football', 'FOOTBALL', footballManager],
    ] as const) {
      const result = await gql<{ v2: { manager: { image: { url: string } } } }>(
        stack.gateway.url,
        `query ($id: ID!) { v2(sport: ${enumValue}) { manager(id: $id) { image { url } } } }`,
        { id: String(id) },
      );
      const url = result.data!.v2.manager.image.url;
      expect(url).toBe(`/images/v2/${sport}/managers/${id}`);
      const image = await fetch(`${stack.gateway.url}${url}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const unknown = await fetch(`${stack.gateway.url}/images/v2/hockey/managers/987654321`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: { code: 'NOT_FOUND', message: expect.stringContaining('Invalid V2 ID') },
    });
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute[`GET /v2/hockey/api/manager/${hockeyManager}/image`]).toBe(1);
    expect(counts.byRoute[`GET /v2/football/api/manager/${footballManager}/image`]).toBe(1);
    expect(counts.byRoute['GET /v2/hockey/api/manager/987654321/image']).toBe(1);
    expect(counts.byRoute['GET /v2/hockey/api/managers/987654321']).toBe(1);
  });
});
