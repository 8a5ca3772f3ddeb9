/**
 * World Cup 2026 on V2 (spec 4.7) and the cross-version `worldCup` field.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const MATCHES = 'GET /v2/football/api/world-cup-2026/matches';

interface Connection {
  edges: Array<{ cursor: string; node: { ref: { nativeId: string } } }>;
  pageInfo: { hasNextPage: boolean; endCursor: string };
}

describe('World Cup 2026 on V2', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  const matches = (first: number, after?: string) =>
    gql<{ v2: { football: { worldCup2026: { matches: Connection } } } }>(
      stack.gateway.url,
      `query ($first: Int, $after: String) { v2(sport: FOOTBALL) { football { worldCup2026 {
        matches(first: $first, after: $after) { edges { cursor node { ref { nativeId } } } pageInfo { hasNextPage endCursor } }
      } } } }`,
      { first, after },
    );

  it('fetches one 30-event page for the first 10 matches', async () => {
    const result = await matches(10);
    expect(result.errors).toBeUndefined();
    expect(result.data!.v2.football.worldCup2026.matches.edges).toHaveLength(10);
    expect((await requestCounts(stack.sandbox.url)).byRoute[MATCHES]).toBe(1);
  });

  it('fetches two pages for 45 matches, and only the third for the next 30', async () => {
    // A fresh gateway cache is not needed: pages 0 and 1 may be cached from the test above, so count from a new stack.
    const fresh = await startStack();
    try {
      const first45 = await gql<{ v2: { football: { worldCup2026: { matches: Connection } } } }>(
        fresh.gateway.url,
        '{ v2(sport: FOOTBALL) { football { worldCup2026 { matches(first: 45) { edges { cursor node { ref { nativeId } } } pageInfo { hasNextPage endCursor } } } } } }',
      );
      const connection = first45.data!.v2.football.worldCup2026.matches;
      expect(connection.edges).toHaveLength(45);
      expect(connection.pageInfo.hasNextPage).toBe(true);
      let log = (await (await fetch(`${fresh.sandbox.url}/__sandbox/requests/log`)).json()) as Array<{
        path: string;
        query: string;
      }>;
      expect(log.filter((e) => e.path === '/v2/football/api/world-cup-2026/matches').map((e) => e.query)).toEqual([
        'page=0',
        'page=1',
      ]);

      const next = await gql<{ v2: { football: { worldCup2026: { matches: Connection } } } }>(
        fresh.gateway.url,
        'query ($after: String) { v2(sport: FOOTBALL) { football { worldCup2026 { matches(first: 30, after: $after) { edges { node { ref { nativeId } } } pageInfo { hasNextPage } } } } } }',
        { after: connection.pageInfo.endCursor },
      );
      const rest = next.data!.v2.football.worldCup2026.matches;
      // 80 matches are not finished: 45 + 30 = 75, 5 left.
      expect(rest.edges).toHaveLength(30);
      expect(rest.pageInfo.hasNextPage).toBe(true);
      const seen = new Set([...connection.edges, ...rest.edges].map((e) => e.node.ref.nativeId));
      expect(seen.size).toBe(75);
      log = (await (await fetch(`${fresh.sandbox.url}/__sandbox/requests/log`)).json()) as Array<{
        path: string;
        query: string;
      }>;
      expect(log.filter((e) => e.path === '/v2/football/api/world-cup-2026/matches').map((e) => e.query)).toEqual([
        'page=0',
        'page=1',
        'page=2',
      ]);
    } finally {
      await fresh.close();
    }
  });

  it('serves the tournament, season info, 48 teams, 12 groups, rounds, a round, the bracket and season teams', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the assertions below are what check this wide answer's shape
    const result = await gql<{ v2: { football: Record<string, any> } }>(
      stack.gateway.url,
      `{ v2(sport: FOOTBALL) { football {
        worldCup2026 {
          tournament { ref { nativeId } name }
          season { nativeId year }
          info { numberOfTeams numberOfGroups numberOfMatches hostCountries { name alpha2 } }
          teams { ref { nativeId } name manager { name } }
          groups { name rows { position points team { name } } }
          rounds { current { round } rounds { round name events } }
          round(round: 1) { ref { nativeId } status { finished } homeScore }
          knockout { round name matches { homeSlot awaySlot homeTeam { name } } }
          nextEvents(first: 5) { edges { node { status { finished live } } } }
        }
        seasonTeams(tournamentId: 16, seasonId: 58210) { name }
      } } }`,
    );
    expect(result.errors).toBeUndefined();
    const wc = result.data!.v2.football['worldCup2026'];
    expect(wc.tournament.ref.nativeId).toBe('16');
    expect(wc.season.nativeId).toBe('58210');
    expect(wc.info).toMatchObject({ numberOfTeams: 48, numberOfGroups: 12, numberOfMatches: 104 });
    expect(wc.info.hostCountries.map((h: { alpha2: string }) => h.alpha2).sort()).toEqual(['CA', 'MX', 'US']);
    expect(wc.teams).toHaveLength(48);
    expect(wc.teams.every((t: { manager: { name: string } }) => t.manager.name.length > 0)).toBe(true);
    expect(wc.groups).toHaveLength(12);
    for (const group of wc.groups)
      expect(group.rows.map((r: { position: number }) => r.position)).toEqual([1, 2, 3, 4]);
    expect(wc.rounds.rounds.reduce((sum: number, r: { events: number }) => sum + r.events, 0)).toBe(104);
    expect(wc.round).toHaveLength(24);
    expect(wc.round.every((e: { status: { finished: boolean } }) => e.status.finished)).toBe(true);
    expect(wc.knockout.map((r: { matches: unknown[] }) => r.matches.length)).toEqual([16, 8, 4, 2, 1, 1]);
    expect(wc.knockout[0].matches[0].homeTeam).toBeNull();
    expect(wc.nextEvents.edges.length).toBe(5);
    expect(
      wc.nextEvents.edges.every(
        (e: { node: { status: { finished: boolean; live: boolean } } }) =>
          !e.node.status.finished && !e.node.status.live,
      ),
    ).toBe(true);
    expect(result.data!.v2.football['seasonTeams']).toHaveLength(48);
  });

  it('answers football-only fields NOT_SUPPORTED on another sport, with no request', async () => {
    const result = await gql(
      stack.gateway.url,
      '{ v2(sport: BASKETBALL) { football { worldCup2026 { teams { name } } } } }',
    );
    expect(result.errors?.[0]?.extensions?.['code']).toBe('NOT_SUPPORTED');
    const counts = await requestCounts(stack.sandbox.url);
    expect(Object.keys(counts.byRoute).filter((route) => route.includes('/v2/'))).toEqual([]);
  });

  it('offers one World Cup: V1 lineups and the V2 bracket in one query, with different IDs per version', async () => {
    const live = await gql<{
      v1: {
        worldCup: {
          matches: Array<{ ref: { nativeId: string }; homeTeam: { name: string; ref: { nativeId: string } } }>;
        };
      };
    }>(
      stack.gateway.url,
      '{ v1 { worldCup { matches(live: true) { ref { nativeId } homeTeam { name ref { nativeId } } } } } }',
    );
    const v1Match = live.data!.v1.worldCup.matches[0]!;
    const result = await gql<{
      worldCup: {
        v1CompetitionId: string;
        v2TournamentId: string;
        v2SeasonId: string;
        v1: { game: { lineups: Array<{ coach: { athleteId: string } }> } };
        v2: { knockout: unknown[]; teams: Array<{ name: string; ref: { nativeId: string } }> };
      };
    }>(
      stack.gateway.url,
      `query ($game: ID!) { worldCup {
        v1CompetitionId v2TournamentId v2SeasonId
        v1 { game(id: $game) { lineups { coach { athleteId } } } }
        v2 { knockout { round } teams { name ref { nativeId } } }
      } }`,
      { game: v1Match.ref.nativeId },
    );
    expect(result.errors).toBeUndefined();
    const wc = result.data!.worldCup;
    expect([wc.v1CompetitionId, wc.v2TournamentId, wc.v2SeasonId]).toEqual(['5930', '16', '58210']);
    expect(wc.v1.game.lineups).toHaveLength(2);
    expect(wc.v2.knockout).toHaveLength(6);
    const v2Team = wc.v2.teams.find((t) => t.name === v1Match.homeTeam.name)!;
    expect(v2Team.ref.nativeId).not.toBe(v1Match.homeTeam.ref.nativeId);
  });
});

describe('World Cup sandbox fixtures', () => {
  it('are deterministic and realistic: 48 teams, 12 groups of 4, 104 matches in rounds, different V1 and V2 IDs', async () => {
    const { buildFixtures } = await import('../sandbox/fixtures/build.js');
    const a = buildFixtures({ seed: 1, baseUrl: 'http://127.0.0.1:1' });
    const b = buildFixtures({ seed: 1, baseUrl: 'http://127.0.0.1:1' });
    const view = (f: typeof a) =>
      JSON.stringify({
        matches: f.worldCup.matches.map((m) => ({ ...m, home: m.home?.v1Id, away: m.away?.v1Id })),
        catalogue: f.football.catalogue.tournaments,
        v6: [...f.football.v6.statsByMatchId.keys()],
      });
    expect(view(a)).toBe(view(b));

    const wc = a.worldCup;
    expect(wc.teams).toHaveLength(48);
    const groups = new Map<number, number>();
    for (const team of wc.teams) groups.set(team.group, (groups.get(team.group) ?? 0) + 1);
    expect([...groups.values()]).toEqual(Array(12).fill(4));
    const perRound = new Map<number, number>();
    for (const match of wc.matches) perRound.set(match.round, (perRound.get(match.round) ?? 0) + 1);
    expect([...perRound.entries()]).toEqual([
      [1, 24],
      [2, 24],
      [3, 24],
      [4, 16],
      [5, 8],
      [6, 4],
      [7, 2],
      [8, 1],
      [9, 1],
    ]);
    for (const team of wc.teams) expect(team.v1Id).not.toBe(team.v2Id);
    expect(new Set(wc.teams.map((t) => t.v1Id)).size).toBe(48);
    expect(a.football.catalogue.tournaments.some((t) => /hoofdklasse/i.test(t.name))).toBe(false);
  });
});
