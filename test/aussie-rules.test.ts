/**
 * Aussie rules V2: all 13 endpoints of spec 4.5 against an 18-team league,
 * paged last/next events from page 0, and V2 events read through the shared
 * `Event` interface.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aussieRulesIds } from '../sandbox/fixtures/aussie-rules.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const COACH = aussieRulesIds.firstCoach + 7;
const UMPIRE = aussieRulesIds.firstUmpire + 3;
const GROUND = aussieRulesIds.firstGround + 9; // shared by two clubs
const SEASON = `tournamentId: "${aussieRulesIds.uniqueTournament}", seasonId: "${aussieRulesIds.season2026}"`;

const EVENT_FIELDS = `... on Event { id ref { version nativeId sport } startTime status { finished live } homeTeam { name } awayTeam { name } homeScore awayScore }`;

interface EventNode {
  id: string;
  ref: { version: string; nativeId: string; sport: string };
  status: { finished: boolean };
  homeTeam: { name: string };
  homeScore: number | null;
}
interface Conn {
  nodes: EventNode[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

describe('Aussie rules V2', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('serves the 18-team league through the generic V2 entities', async () => {
    const f = stack.sandbox.fixtures.otherSports.aussieRules;
    expect(f.teams).toHaveLength(18);
    const result = await gql<{
      v2: { team: { name: string; manager: { name: string }; venue: { capacity: number } } };
    }>(
      stack.gateway.url,
      `{ v2(sport: AUSSIE_RULES) { team(id: "${aussieRulesIds.firstTeam}") { name manager { name } venue { capacity } } } }`,
    );
    expect(result.data?.v2.team.name).toBe(f.teams[0]?.name);
    expect(result.data?.v2.team.manager.name).toBe(f.coaches[0]?.name);
  });

  it('serves the senior coach: detail, image, career, season statistics, last events (5 endpoints)', async () => {
    const result = await gql<{
      v2: {
        aussieRules: {
          coach: Record<string, unknown> & {
            lastEvents: Conn;
            seasonStatistics: Array<{ name: string; value: number }>;
            career: Array<{ role: string; games: number; wins: number; draws: number; losses: number }>;
          };
        };
      };
    }>(
      stack.gateway.url,
      `{ v2(sport: AUSSIE_RULES) { aussieRules { coach(id: "${COACH}") {
        id ref { version nativeId sport } name shortName nationality dateOfBirth team { nativeId name } image { url version }
        career { team { name } role start end games wins draws losses }
        seasonStatistics(${SEASON}) { name value }
        lastEvents(first: 4) { nodes { ${EVENT_FIELDS} } pageInfo { hasNextPage endCursor } }
      } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const coach = result.data?.v2.aussieRules.coach;
    const fixture = stack.sandbox.fixtures.otherSports.aussieRules.coaches.find((c) => c.id === COACH);
    expect(coach?.['name']).toBe(fixture?.name);
    expect(coach?.['ref']).toEqual({ version: 'V2', nativeId: String(COACH), sport: 'aussie-rules' });
    expect(coach?.['image']).toEqual({ url: `/images/v2/aussie-rules/managers/${COACH}`, version: 'V2' });
    expect(coach?.career.map((c) => c.role)).toEqual(['Assistant coach', 'Senior coach']);
    for (const c of coach?.career ?? [])
      if (c.role === 'Senior coach') expect(c.wins + c.draws + c.losses).toBe(c.games);
    const stats = Object.fromEntries(coach?.seasonStatistics.map((s) => [s.name, s.value]) ?? []);
    expect(stats['games']).toBe(10);
    expect(coach?.lastEvents.nodes).toHaveLength(4);
    expect(coach?.lastEvents.nodes.every((e) => e.status.finished && e.ref.sport === 'aussie-rules')).toBe(true);
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute[`GET /v2/aussie-rules/api/manager/${COACH}/events/last/0`]).toBe(1);
    expect(counts.total).toBe(4);

    // The coach's image URL is a gateway image route over /api/manager/{id}/image.
    const image = await fetch(`${stack.gateway.url}/images/v2/aussie-rules/managers/${COACH}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    expect((await requestCounts(stack.sandbox.url)).byRoute[`GET /v2/aussie-rules/api/manager/${COACH}/image`]).toBe(1);
  });

  it('serves the umpire: detail, image, season statistics, last and next events (5 endpoints)', async () => {
    const result = await gql<{
      v2: {
        aussieRules: {
          umpire: {
            name: string;
            games: number;
            image: { url: string };
            seasonStatistics: Array<{ name: string; value: number }>;
            lastEvents: Conn;
            nextEvents: Conn;
          };
        };
      };
    }>(
      stack.gateway.url,
      `{ v2(sport: AUSSIE_RULES) { aussieRules { umpire(id: "${UMPIRE}") {
        id name country games debut image { url }
        seasonStatistics(${SEASON}) { name value }
        lastEvents(first: 12) { nodes { ${EVENT_FIELDS} } pageInfo { hasNextPage endCursor } }
        nextEvents(first: 2) { nodes { ${EVENT_FIELDS} } pageInfo { hasNextPage } }
      } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const umpire = result.data?.v2.aussieRules.umpire;
    expect(umpire?.image.url).toBe(`/images/v2/aussie-rules/referees/${UMPIRE}`);
    expect(umpire?.seasonStatistics.find((s) => s.name === 'games')?.value).toBeGreaterThan(0);
    // 12 items over pages of 10: pages 0 and 1, nothing more.
    expect(umpire?.lastEvents.nodes).toHaveLength(12);
    expect(umpire?.nextEvents.nodes.every((e) => !e.status.finished)).toBe(true);
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute[`GET /v2/aussie-rules/api/referee/${UMPIRE}/events/last/0`]).toBe(1);
    expect(counts.byRoute[`GET /v2/aussie-rules/api/referee/${UMPIRE}/events/last/1`]).toBe(1);
    expect(counts.byRoute[`GET /v2/aussie-rules/api/referee/${UMPIRE}/events/last/2`]).toBeUndefined();
    const image = await fetch(`${stack.gateway.url}/images/v2/aussie-rules/referees/${UMPIRE}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    expect((await requestCounts(stack.sandbox.url)).byRoute[`GET /v2/aussie-rules/api/referee/${UMPIRE}/image`]).toBe(
      1,
    );
    // Referee routes exist for Aussie rules only (spec 4.5): refused before any request elsewhere.
    const before = (await requestCounts(stack.sandbox.url)).total;
    const elsewhere = await fetch(`${stack.gateway.url}/images/v2/hockey/referees/${UMPIRE}`);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toMatchObject({ error: { code: 'BAD_USER_INPUT' } });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(before);
  });

  it('serves the ground: detail, last and next events (3 endpoints)', async () => {
    const result = await gql<{
      v2: {
        aussieRules: {
          ground: {
            name: string;
            capacity: number;
            coordinates: { latitude: number };
            lastEvents: Conn;
            nextEvents: Conn;
          };
        };
      };
    }>(
      stack.gateway.url,
      `{ v2(sport: AUSSIE_RULES) { aussieRules { ground(id: "${GROUND}") {
        id name city country capacity coordinates { latitude longitude } surface opened
        lastEvents(first: 3) { nodes { ${EVENT_FIELDS} } pageInfo { endCursor } }
        nextEvents(first: 3) { nodes { ${EVENT_FIELDS} } }
      } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const ground = result.data?.v2.aussieRules.ground;
    expect(ground?.name).toBe('Melbourne Cricket Ground');
    expect(ground?.capacity).toBe(100_024);
    expect(ground?.lastEvents.nodes).toHaveLength(3);
    expect(ground?.nextEvents.nodes.length).toBeGreaterThan(0);
  });

  it('reads a V2 event through the shared Event interface, refetched by node(id:)', async () => {
    const list = await gql<{ v2: { aussieRules: { ground: { lastEvents: Conn } } } }>(
      stack.gateway.url,
      `{ v2(sport: AUSSIE_RULES) { aussieRules { ground(id: "${GROUND}") { lastEvents(first: 1) { nodes { ${EVENT_FIELDS} } } } } } }`,
    );
    const event = list.data?.v2.aussieRules.ground.lastEvents.nodes[0];
    const node = await gql<{ node: EventNode }>(
      stack.gateway.url,
      `query($id: ID!) { node(id: $id) { ${EVENT_FIELDS} } }`,
      { id: event?.id },
    );
    expect(node.errors).toBeUndefined();
    expect(node.data?.node).toEqual(event);
  });

  it('reads V1 games and V2 events with one Event fragment', async () => {
    const result = await gql<{
      v1: { worldCup: { matches: EventNode[] } };
      v2: { aussieRules: { ground: { lastEvents: Conn } } };
    }>(
      stack.gateway.url,
      `fragment E on Event { id ref { version nativeId sport } startTime status { finished live } homeTeam { name } awayTeam { name } homeScore awayScore }
      { v1 { worldCup { matches { ...E } } }
        v2(sport: AUSSIE_RULES) { aussieRules { ground(id: "${GROUND}") { lastEvents(first: 2) { nodes { ...E } } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const v1 = result.data?.v1.worldCup.matches[0];
    const v2 = result.data?.v2.aussieRules.ground.lastEvents.nodes[0];
    expect(v1?.ref.version).toBe('V1');
    expect(v2?.ref.version).toBe('V2');
    expect(Object.keys(v1 ?? {}).sort()).toEqual(Object.keys(v2 ?? {}).sort());
    expect(typeof v2?.homeTeam.name).toBe('string');
  });

  it('refuses the Aussie rules routes on another sport without a request', async () => {
    const result = await gql(
      stack.gateway.url,
      `{ v2(sport: ICE_HOCKEY) { aussieRules { coach(id: "1") { name } } } }`,
    );
    expect(result.errors?.[0]?.extensions?.['code']).toBe('NOT_SUPPORTED');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });
});
