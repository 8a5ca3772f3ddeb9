/**
 * V3: day windows per sport with V3's own slugs, the sport-less globals, and
 * the cycling feed turned into classifications of rider placings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface Classification {
  kind: string;
  stage: number | null;
  race: string;
  name: string;
  placings: Array<{ position: number; rider: string; riderNativeId: string }>;
}

describe('V3', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('serves the four day windows with V3 spellings (water-polo)', async () => {
    const result = await gql<{
      v3: Record<
        string,
        {
          slug: string;
          window: string;
          leagues: Array<{ name: string }>;
          events: Array<{
            ref: { version: string; sport: string };
            status: { live: boolean; finished: boolean };
            homeTeam: { name: string };
          }>;
        }
      >;
    }>(
      stack.gateway.url,
      `{ v3 {
        today: window(sport: WATER_POLO, window: TODAY) { slug window leagues { name } events { ref { version sport } status { live finished } homeTeam { name } } }
        live: window(sport: WATER_POLO, window: LIVE) { slug window leagues { name } events { ref { version sport } status { live finished } homeTeam { name } } }
        yesterday: window(sport: WATER_POLO, window: YESTERDAY) { slug window leagues { name } events { ref { version sport } status { live finished } homeTeam { name } } }
        tomorrow: window(sport: ICE_HOCKEY, window: TOMORROW) { slug window leagues { name } events { ref { version sport } status { live finished } homeTeam { name } } }
      } }`,
    );
    expect(result.errors).toBeUndefined();
    const v3 = result.data?.v3;
    expect(v3?.['today']?.slug).toBe('water-polo');
    expect(v3?.['today']?.events[0]?.ref).toEqual({ version: 'V3', sport: 'water-polo' });
    expect(v3?.['live']?.events.every((e) => e.status.live)).toBe(true);
    expect(v3?.['yesterday']?.events.every((e) => e.status.finished)).toBe(true);
    expect(v3?.['tomorrow']?.slug).toBe('hockey');
    const counts = await requestCounts(stack.sandbox.url);
    for (const path of [
      '/v3/water-polo/today',
      '/v3/water-polo/live',
      '/v3/water-polo/yesterday',
      '/v3/hockey/tomorrow',
    ]) {
      expect(counts.byRoute[`GET ${path}`]).toBe(1);
    }
    expect(counts.byRoute['GET /v3/waterpolo/today']).toBeUndefined();
  });

  it('serves the sport-less globals: sports, match, search', async () => {
    const matchId = [...stack.sandbox.fixtures.otherSports.v3.matches.keys()][3];
    const result = await gql<{
      v3: {
        sports: Array<{ slug: string }>;
        match: { ref: { nativeId: string; sport: string }; league: string };
        search: Array<{ name: string; sport: string }>;
      };
    }>(
      stack.gateway.url,
      `query($id: ID!) { v3 { sports { slug name } match(id: $id) { id ref { nativeId sport } league homeTeam { name } } search(query: "Water polo Club A") { type nativeId name sport } } }`,
      { id: String(matchId) },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.v3.sports.map((s) => s.slug)).toContain('water-polo');
    expect(result.data?.v3.sports.map((s) => s.slug)).not.toContain('waterpolo');
    expect(result.data?.v3.match.ref.nativeId).toBe(String(matchId));
    expect(result.data?.v3.search[0]).toMatchObject({ name: 'Water polo Club A', sport: 'water-polo' });
    const counts = await requestCounts(stack.sandbox.url);
    expect(Object.keys(counts.byRoute).sort()).toEqual([
      `GET /v3/match/${matchId}`,
      'GET /v3/search',
      'GET /v3/sports',
    ]);
  });

  it('turns the cycling feed into general and stage classifications of rider placings', async () => {
    const result = await gql<{
      v3: { cycling: { classifications: Classification[]; general: Classification; stages: Classification[] } };
    }>(
      stack.gateway.url,
      `{ v3 { cycling(window: TODAY) {
        classifications { kind stage race name }
        general { kind race placings { position rider riderNativeId } }
        stages { kind stage race placings { position rider } }
      } } }`,
    );
    expect(result.errors).toBeUndefined();
    const feed = result.data?.v3.cycling;
    const fixture = stack.sandbox.fixtures.otherSports.v3;
    expect(feed?.classifications.map((c) => [c.kind, c.stage])).toEqual([
      ['STAGE', 5],
      ['GENERAL', null],
    ]);
    expect(feed?.general.race).toBe(fixture.race);
    expect(feed?.stages[0]?.stage).toBe(5);
    // rider = homeTeam.name, position = homeTeam.shortName; awayTeam and score are gone
    const league = fixture.cycling.get('today')?.[0];
    const winner = league?.events.find((e) => e.homeTeam.shortName === '1');
    expect(feed?.stages[0]?.placings[0]).toEqual({ position: 1, rider: winner?.homeTeam.name });
    expect(feed?.stages[0]?.placings.map((p) => p.position)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(JSON.stringify(feed)).not.toContain('N/A');
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute['GET /api/v1/cycling/today']).toBe(1);
    expect(counts.total).toBe(1);
  });

  it('answers an empty cycling window with no classifications', async () => {
    const result = await gql<{ v3: { cycling: { classifications: unknown[]; general: unknown } } }>(
      stack.gateway.url,
      `{ v3 { cycling(window: TOMORROW) { classifications { kind } general { kind } } } }`,
    );
    expect(result.data?.v3.cycling).toEqual({ classifications: [], general: null });
  });
});
