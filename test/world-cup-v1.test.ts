/**
 * World Cup V1 (spec 4.6, 2.6, 2.7) end to end against the sandbox.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface Match {
  ref: { nativeId: string };
  startTime: string;
  statusGroup: number;
  status: { live: boolean };
  homeTeam: { ref: { nativeId: string }; name: string; placeholder: boolean };
  homeScore: number | null;
}

describe('World Cup V1', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('lists 104 matches with ISO start times, and filters games in progress (statusGroup 3) from the same request', async () => {
    const result = await gql<{ v1: { worldCup: { all: Match[]; live: Match[] } } }>(
      stack.gateway.url,
      `{ v1 { worldCup {
          all: matches { ref { nativeId } startTime statusGroup status { live } homeTeam { ref { nativeId } name placeholder } homeScore }
          live: matches(live: true) { ref { nativeId } statusGroup status { live } }
      } } }`,
    );
    expect(result.errors).toBeUndefined();
    const { all, live } = result.data!.v1.worldCup;
    expect(all).toHaveLength(104);
    for (const match of all)
      expect(match.startTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((m) => m.statusGroup === 3 && m.status.live)).toBe(true);
    expect(live.length).toBe(all.filter((m) => m.statusGroup === 3).length);
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute['GET /api/v1/world-cup/matches']).toBe(1);
  });

  it('returns the hub with an error for the part the upstream left out', async () => {
    await fetch(`${stack.sandbox.url}/__sandbox/world-cup/hub-outage?part=standings&times=1`, { method: 'POST' });
    const result = await gql<{
      v1: {
        worldCup: {
          hub: {
            matches: unknown[] | null;
            standings: unknown[] | null;
            bracket: unknown[] | null;
            unavailable: string[];
          };
        };
      };
    }>(
      stack.gateway.url,
      '{ v1 { worldCup { hub { matches { ref { nativeId } } standings { name } bracket { round } unavailable } } } }',
    );
    const hub = result.data!.v1.worldCup.hub;
    expect(hub.matches).toHaveLength(104);
    expect(hub.bracket).toHaveLength(32);
    expect(hub.standings).toBeNull();
    expect(hub.unavailable).toEqual(['standings']);
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]!.path).toEqual(['v1', 'worldCup', 'hub', 'standings']);
    expect(result.errors![0]!.extensions).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      alternative: 'v1 { worldCup { standings } }',
    });
  });

  it('gives one standings entry per group with rows sorted by position', async () => {
    const result = await gql<{
      v1: {
        worldCup: {
          standings: Array<{ name: string; rows: Array<{ position: number; points: number; team: { name: string } }> }>;
        };
      };
    }>(stack.gateway.url, '{ v1 { worldCup { standings { name rows { position points team { name } } } } } }');
    const groups = result.data!.v1.worldCup.standings;
    expect(groups).toHaveLength(12);
    for (const group of groups) {
      expect(group.rows.map((r) => r.position)).toEqual([1, 2, 3, 4]);
      expect([...group.rows].sort((a, b) => b.points - a.points).map((r) => r.points)).toEqual(
        group.rows.map((r) => r.points),
      );
    }
  });

  it('splits the coach out of the lineups (not a player), with its athlete ID and no name', async () => {
    const matches = await gql<{ v1: { worldCup: { matches: Match[] } } }>(
      stack.gateway.url,
      '{ v1 { worldCup { matches(live: true) { ref { nativeId } } } } }',
    );
    const gameId = matches.data!.v1.worldCup.matches[0]!.ref.nativeId;
    const result = await gql<{
      v1: {
        worldCup: {
          game: {
            venue: { name: string; capacity: number; attendance: number | null };
            lineups: Array<{
              players: Array<{ athleteId: string; position: string }>;
              coach: { athleteId: string; name: string | null; statusText: string };
            }>;
            events: unknown[];
            commentary: unknown[];
          };
        };
      };
    }>(
      stack.gateway.url,
      `query ($id: ID!) { v1 { worldCup { game(id: $id) {
        venue { name capacity attendance }
        lineups { players { athleteId position } coach { athleteId name statusText } }
        events { minute type } commentary { minute text }
      } } } }`,
      { id: gameId },
    );
    expect(result.errors).toBeUndefined();
    const game = result.data!.v1.worldCup.game;
    expect(game.venue.attendance).toBeGreaterThan(0);
    expect(game.venue.attendance).toBeLessThanOrEqual(game.venue.capacity);
    expect(game.commentary.length).toBeGreaterThan(0);
    expect(game.lineups).toHaveLength(2);
    for (const lineup of game.lineups) {
      expect(lineup.players).toHaveLength(18);
      expect(lineup.players.some((p) => p.position === 'Coach')).toBe(false);
      expect(lineup.coach).toEqual({ athleteId: expect.stringMatching(/^\d+$/), name: null, statusText: 'Management' });
      expect(lineup.players.map((p) => p.athleteId)).not.toContain(lineup.coach.athleteId);
    }
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute['GET /api/v1/world-cup/game/' + gameId]).toBe(1);
  });

  it("takes a competitor's coach from its latest lineup, since /api/v1/competitor/{id} has none", async () => {
    const matches = await gql<{ v1: { worldCup: { matches: Match[] } } }>(
      stack.gateway.url,
      '{ v1 { worldCup { matches(live: true) { homeTeam { ref { nativeId } } } } } }',
    );
    const teamId = matches.data!.v1.worldCup.matches[0]!.homeTeam.ref.nativeId;
    const result = await gql<{
      v1: { worldCup: { competitor: { name: string; raw: Record<string, unknown>; coach: { athleteId: string } } } };
    }>(
      stack.gateway.url,
      'query ($id: ID!) { v1 { worldCup { competitor(id: $id) { name raw coach { athleteId } } } } }',
      { id: teamId },
    );
    expect(result.errors).toBeUndefined();
    const competitor = result.data!.v1.worldCup.competitor;
    expect(competitor.raw).not.toHaveProperty('coach');
    expect(competitor.coach.athleteId).toMatch(/^\d+$/);
  });

  it('serves the generic /api/v1/competition/5930/... equivalents, the groups and the prediction poll', async () => {
    const result = await gql<{
      v1: {
        worldCup: {
          competition: { competitors: unknown[]; standings: unknown[]; matches: unknown[] };
          groups: Array<{ teams: unknown[] }>;
          predictions: Array<{ home: number; draw: number; away: number }>;
        };
      };
    }>(
      stack.gateway.url,
      '{ v1 { worldCup { competition { competitors { name } standings { name } matches(round: 1) { startTime } } groups { teams { name } } predictions { home draw away } } } }',
    );
    expect(result.errors).toBeUndefined();
    const wc = result.data!.v1.worldCup;
    expect(wc.competition.competitors).toHaveLength(48);
    expect(wc.competition.standings).toHaveLength(12);
    expect(wc.competition.matches).toHaveLength(24);
    expect(wc.groups.every((g) => g.teams.length === 4)).toBe(true);
    for (const poll of wc.predictions) expect(poll.home + poll.draw + poll.away).toBeCloseTo(100, 0);
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute['GET /api/v1/competition/5930/competitors']).toBe(1);
  });
  it('reads a game through /api/v1/game/{id} (venue with attendance) and its lineups through /lineups: two requests; node(id:) refetches a match', async () => {
    const listed = await gql<{ v1: { worldCup: { matches: Array<{ id: string; ref: { nativeId: string } }> } } }>(
      stack.gateway.url,
      '{ v1 { worldCup { matches(round: 1) { id ref { nativeId } } } } }',
    );
    const match = listed.data!.v1.worldCup.matches[0]!;
    await resetCounts(stack.sandbox.url);
    const result = await gql<{
      v1: {
        worldCup: {
          gameDetail: {
            venue: { attendance: number | null; capacity: number; coordinates: { latitude: number } };
            lineups: Array<{ players: unknown[]; coach: { athleteId: string } }>;
          };
          lineups: Array<{ teamId: string }>;
        };
      };
      node: { ref: { nativeId: string }; statusGroup: number };
    }>(
      stack.gateway.url,
      `query ($id: ID!, $node: ID!) {
        v1 { worldCup {
          gameDetail(id: $id) { venue { attendance capacity coordinates { latitude } } lineups { players { athleteId } coach { athleteId } } }
          lineups(gameId: $id) { teamId }
        } }
        node(id: $node) { ... on V1WorldCupMatch { ref { nativeId } statusGroup } }
      }`,
      { id: match.ref.nativeId, node: match.id },
    );
    expect(result.errors).toBeUndefined();
    const detail = result.data!.v1.worldCup.gameDetail;
    expect(detail.venue.attendance).toBeGreaterThan(0);
    expect(detail.venue.coordinates.latitude).not.toBe(0);
    expect(detail.lineups.every((l) => l.players.length === 18 && /^\d+$/.test(l.coach.athleteId))).toBe(true);
    expect(result.data!.node).toEqual({ ref: { nativeId: match.ref.nativeId }, statusGroup: 4 });
    const counts = await requestCounts(stack.sandbox.url);
    // The detail and node(id:) share one game request; both lineups fields share one lineups request.
    expect(counts.byRoute[`GET /api/v1/game/${match.ref.nativeId}`]).toBe(1);
    expect(counts.byRoute[`GET /api/v1/game/${match.ref.nativeId}/lineups`]).toBe(1);
    expect(counts.total).toBe(2);
  });
});
