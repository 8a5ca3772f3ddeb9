/**
 * Hockey V1 end to end: every field against the sandbox over real HTTP, and
 * the exact number of upstream requests an operation costs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { fromGlobalId } from '../src/model/global-id.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const FULL_QUERY = /* GraphQL */ `
  query Full($game: ID!, $athlete: ID!) {
    v1 {
      hockey {
        standings(competition: 11, season: 2025) {
          competitionId
          season
          entries {
            position points played wins losses overtimeLosses goalsFor goalsAgainst goalDifference raw
            competitor { id ref { version nativeId sport } name score imageVersion image { url version placeholder } raw }
          }
          raw
        }
        lines(gameId: $game) {
          gameId
          moneyline { home away draw }
          puckLine { line home away }
          totalGoals { line over under }
          raw
        }
        news(competitionId: 303, limit: 10) {
          articles { id ref { version nativeId sport } title publishedAt url imageUrl isMagazine source { nativeId name imageVersion } raw }
          sources { nativeId name imageVersion }
        }
        athlete(id: $athlete) {
          id ref { version nativeId sport } name position jerseyNumber birthDate nationality heightCm weightKg shoots bio
          image { url version }
          team { nativeId name image { url } }
          statistics { name value }
          currentSeason { season gamesPlayed goals assists points plusMinus penaltyMinutes }
          raw
        }
      }
    }
  }
`;

interface Entry {
  position: number;
  points: number;
  played: number;
  wins: number;
  losses: number;
  overtimeLosses: number;
  goalsFor: number;
  goalsAgainst: number;
  goalDifference: number;
  competitor: {
    id: string;
    ref: { version: string; nativeId: string; sport: string };
    name: string;
    score: number;
    imageVersion: number;
    image: { url: string; version: string };
  };
}

describe('hockey V1', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('resolves every hockey field from the sandbox', async () => {
    const game = String(hockeyV1Ids.firstGameId);
    const athlete = String(hockeyV1Ids.firstAthleteId);
    // biome-ignore lint/suspicious/noExplicitAny: the assertions below are what check this wide answer's shape
    const result = await gql<{ v1: { hockey: Record<string, any> } }>(stack.gateway.url, FULL_QUERY, { game, athlete });
    expect(result.errors).toBeUndefined();
    const hockey = result.data!.v1.hockey;

    const standings = hockey['standings'];
    expect(standings.competitionId).toBe('11');
    expect(standings.season).toBe(2025);
    const entries = standings.entries as Entry[];
    expect(entries).toHaveLength(32);
    expect(entries.map((e) => e.position)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    for (const entry of entries) {
      expect(entry.points).toBe(2 * entry.wins + entry.overtimeLosses);
      expect(entry.played).toBe(entry.wins + entry.losses + entry.overtimeLosses);
      expect(entry.goalDifference).toBe(entry.goalsFor - entry.goalsAgainst);
      expect(entry.competitor.ref).toEqual({
        version: 'V1',
        nativeId: expect.stringMatching(/^\d+$/),
        sport: 'hockey',
      });
      expect(fromGlobalId(entry.competitor.id)).toEqual({
        version: 'v1',
        sport: 'hockey',
        typeName: 'V1HockeyCompetitor',
        nativeId: entry.competitor.ref.nativeId,
        // The table it was listed in: a competitor has no route of its own (node(id:) reads it there).
        via: { competition: '11', season: '2025' },
      });
      expect(entry.competitor.image).toEqual({
        url: `/images/v1/competitors/${entry.competitor.ref.nativeId}?imageVersion=${entry.competitor.imageVersion}`,
        version: 'V1',
        placeholder: null,
      });
    }

    const lines = hockey['lines'];
    expect(lines.gameId).toBe(game);
    expect(lines.moneyline.home).toBeGreaterThan(1);
    expect(lines.moneyline.draw).toBeGreaterThan(1);
    expect(Math.abs(lines.puckLine.line)).toBe(1.5);
    expect(lines.totalGoals.line).toBeGreaterThan(4);
    expect(lines.totalGoals.over).toBeGreaterThan(1);

    const news = hockey['news'];
    expect(news.articles.length).toBeGreaterThan(0);
    expect(news.articles.length).toBeLessThanOrEqual(10);
    for (const article of news.articles) {
      expect(article.source).not.toBeNull();
      expect(article.source.nativeId).toBe(String(article.raw.sourceId));
      expect(Date.parse(article.publishedAt)).toBe(Date.parse(article.raw.publishDate));
    }
    expect(news.sources.length).toBeGreaterThan(0);

    const detail = hockey['athlete'];
    expect(detail.ref).toEqual({ version: 'V1', nativeId: athlete, sport: 'hockey' });
    for (const field of [
      'name',
      'position',
      'jerseyNumber',
      'birthDate',
      'nationality',
      'heightCm',
      'weightKg',
      'bio',
      'team',
      'currentSeason',
    ]) {
      expect(detail[field], field).not.toBeNull();
    }
    expect(['G', 'D', 'LW', 'RW', 'C']).toContain(detail.position);
    expect(detail.statistics.length).toBeGreaterThan(0);
    expect(detail.image.url).toMatch(new RegExp(`^/images/v1/athletes/${athlete}`));
  });

  it('standings + news + lines for one game cost 3 upstream requests, 0 again inside the TTLs', async () => {
    const query = /* GraphQL */ `
      query ($game: ID!) {
        v1 { hockey {
          standings { entries { position competitor { name } } }
          news(competitionId: 303) { articles { title source { name } } }
          lines(gameId: $game) { moneyline { home } }
        } }
      }
    `;
    const variables = { game: String(hockeyV1Ids.firstGameId + 1) };
    const first = await gql(stack.gateway.url, query, variables);
    expect(first.errors).toBeUndefined();
    const afterFirst = await requestCounts(stack.sandbox.url);
    expect(afterFirst.total).toBe(3);
    expect(afterFirst.byRoute).toEqual({
      'GET /v1/hockey/standings': 1,
      'GET /v1/hockey/news': 1,
      'GET /v1/hockey/bets/lines': 1,
    });
    expect(first.extensions?.['cost']).toMatchObject({ upstreamRequests: 3, cacheHits: 0 });
    const second = await gql(stack.gateway.url, query, variables);
    expect(second.data).toEqual(first.data);
    expect(second.extensions?.['cost']).toMatchObject({ upstreamRequests: 0, cacheHits: 3 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(3);
  });

  it('20 concurrent identical operations make 3 upstream requests in total', async () => {
    const query = /* GraphQL */ `
      query ($game: ID!) {
        v1 { hockey {
          standings(competition: 12, season: 2024) { entries { position } }
          news(competitionId: 304, limit: 5) { articles { title } }
          lines(gameId: $game) { totalGoals { line } }
        } }
      }
    `;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => gql(stack.gateway.url, query, { game: String(hockeyV1Ids.firstGameId + 2) })),
    );
    for (const result of results) expect(result.errors).toBeUndefined();
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.total).toBe(3);
  });

  it('one field asked twice in one operation (aliases) is one upstream request', async () => {
    const query = /* GraphQL */ `{
      v1 { hockey {
        a: athlete(id: ${hockeyV1Ids.firstAthleteId + 5}) { name }
        b: athlete(id: "${hockeyV1Ids.firstAthleteId + 5}") { position }
        c: athletes(ids: ["${hockeyV1Ids.firstAthleteId + 5}", "${hockeyV1Ids.firstAthleteId + 6}"]) { name }
      } }
    }`;
    const result = await gql(stack.gateway.url, query);
    expect(result.errors).toBeUndefined();
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({ 'GET /v1/hockey/athletes': 2 });
  });

  it('finds athletes by name through /search, and fetches the details only when asked', async () => {
    const detail = await gql<{ v1: { hockey: { athlete: { name: string } } } }>(
      stack.gateway.url,
      `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + 10}) { name } } } }`,
    );
    const name = detail.data!.v1.hockey.athlete.name;
    await resetCounts(stack.sandbox.url);
    const hitsOnly = await gql<{ v1: { hockey: { searchAthletes: Array<{ nativeId: string; name: string }> } } }>(
      stack.gateway.url,
      `query ($name: String!) { v1 { hockey { searchAthletes(name: $name) { nativeId name } } } }`,
      { name },
    );
    expect(hitsOnly.data!.v1.hockey.searchAthletes).toContainEqual({
      nativeId: String(hockeyV1Ids.firstAthleteId + 10),
      name,
    });
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({ 'GET /search': 1 });

    const withDetail = await gql<{
      v1: { hockey: { searchAthletes: Array<{ athlete: { ref: { nativeId: string } } }> } };
    }>(
      stack.gateway.url,
      `query ($name: String!) { v1 { hockey { searchAthletes(name: $name, first: 1) { athlete { ref { nativeId } team { name } } } } } }`,
      { name },
    );
    expect(withDetail.errors).toBeUndefined();
    expect(withDetail.data!.v1.hockey.searchAthletes[0]!.athlete.ref.nativeId).toBe(
      String(hockeyV1Ids.firstAthleteId + 10),
    );
  });

  it('node(id:) fetches an athlete again from its global ID, and a competitor from the fresh table it was listed in (0 requests)', async () => {
    const first = await gql<{ v1: { hockey: { athlete: { id: string; name: string } } } }>(
      stack.gateway.url,
      `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + 20}) { id name } } } }`,
    );
    const { id, name } = first.data!.v1.hockey.athlete;
    const node = await gql<{ node: { __typename: string; name: string } }>(
      stack.gateway.url,
      `query ($id: ID!) { node(id: $id) { __typename ... on Person { name } } }`,
      { id },
    );
    expect(node.errors).toBeUndefined();
    expect(node.data!.node).toEqual({ __typename: 'V1HockeyAthlete', name });

    const standings = await gql<{ v1: { hockey: { standings: { entries: Array<{ competitor: { id: string } }> } } } }>(
      stack.gateway.url,
      `{ v1 { hockey { standings { entries { competitor { id } } } } } }`,
    );
    await resetCounts(stack.sandbox.url);
    const competitorId = standings.data!.v1.hockey.standings.entries[0]!.competitor.id;
    const competitor = await gql(stack.gateway.url, `query ($id: ID!) { node(id: $id) { __typename id } }`, {
      id: competitorId,
    });
    expect(competitor.errors).toBeUndefined();
    expect(competitor.data).toEqual({ node: { __typename: 'V1HockeyCompetitor', id: competitorId } });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('lists every sport with its slug per version, from /reference/sports', async () => {
    const result = await gql<{ sports: Array<{ sport: string; slugs: Record<string, string | null> }> }>(
      stack.gateway.url,
      `{ sports { sport name slugs { v1 v2 v3 v4 v6 } } }`,
    );
    expect(result.errors).toBeUndefined();
    const bySport = new Map(result.data!.sports.map((s) => [s.sport, s.slugs]));
    expect(bySport.size).toBeGreaterThanOrEqual(25);
    expect(bySport.get('WATER_POLO')).toMatchObject({ v2: 'waterpolo', v3: 'water-polo', v6: 'waterpolo' });
    expect(bySport.get('ICE_HOCKEY')).toMatchObject({ v1: 'hockey', v2: 'hockey', v4: 'ice-hockey' });
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({ 'GET /reference/sports': 1 });
  });

  describe('bad input: a coded error and no upstream request', () => {
    it('a non-numeric V1 ID', async () => {
      const result = await gql(
        stack.gateway.url,
        `{ v1 { hockey { athlete(id: "12ab") { name } lines(gameId: "../x") { gameId } } } }`,
      );
      expect(result.errors?.map((e) => e.extensions?.['code'])).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
      expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    });

    it('an unknown sport', async () => {
      const result = await gql(stack.gateway.url, `{ sport(sport: CURLING) { name } }`);
      expect(result.errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
      const variable = await gql(stack.gateway.url, `query ($s: Sport!) { sport(sport: $s) { name } }`, {
        s: 'curling',
      });
      expect(variable.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    });

    it('a malformed query', async () => {
      const result = await gql(stack.gateway.url, `{ v1 { hockey { standings { `);
      expect(result.errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_PARSE_FAILED');
      const unknownField = await gql(stack.gateway.url, `{ v1 { hockey { standingz { x } } } }`);
      expect(unknownField.errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
      expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    });

    it('an out-of-range limit or a too-short search', async () => {
      const result = await gql(stack.gateway.url, `{ v1 { hockey { news(limit: 1000) { articles { title } } } } }`);
      expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      const search = await gql(stack.gateway.url, `{ v1 { hockey { searchAthletes(name: " ") { name } } } }`);
      expect(search.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    });
  });
});
