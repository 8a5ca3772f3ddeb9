/**
 * No sport is lost (issue 13, item 4): every `/reference/sports` entry is
 * listed, a sport the `Sport` enum does not know is queried by `sportKey`
 * wherever routes take a sport, and a sport a version really lacks is
 * refused naming the catalogue entry that was looked for.
 *
 * The default sandbox catalogue ends with padel, which the enum does not
 * know (V3 windows and V4 odds, nothing on V2); the alt data set spells
 * ice hockey `ice-hockey` and beach volleyball `beachvolley`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALT_SPORT_KEYS } from '../sandbox/fixtures/alt-dataset.js';
import { gql, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface SportInfo {
  key: string;
  known: boolean;
  sport: string | null;
  name: string;
  slugs: Record<'v1' | 'v2' | 'v3' | 'v4' | 'v6', string | null>;
}

interface Cost {
  estimated: number;
  upstreamRequests: number;
}

const SPORTS = '{ sports { key known sport name slugs { v1 v2 v3 v4 v6 } } }';

const codes = (result: GraphQLResponse<unknown>): unknown[] =>
  (result.errors ?? []).map((error) => error.extensions?.['code']);
const costOf = (result: GraphQLResponse<unknown>): Cost => result.extensions?.['cost'] as Cost;

function stackFor(dataset: 'default' | 'alt') {
  const state: { stack?: TestStack } = {};
  beforeAll(async () => {
    state.stack = await startStack(dataset === 'alt' ? { sandbox: { dataset: 'alt' } } : {});
    // The free catalogue, once: every count below is then the test's own routes only.
    const warm = await gql(state.stack.gateway.url, '{ sports { name } }');
    expect(warm.errors).toBeUndefined();
  });
  afterAll(() => state.stack?.close());
  beforeEach(() => resetCounts((state.stack as TestStack).sandbox.url));
  return {
    stack: (): TestStack => state.stack as TestStack,
    query: <T>(text: string, variables?: Record<string, unknown>) =>
      gql<T>((state.stack as TestStack).gateway.url, text, variables),
    counted: async (): Promise<Record<string, number>> =>
      (await requestCounts((state.stack as TestStack).sandbox.url)).byRoute,
  };
}

describe('a sport the enum does not know (default data: padel)', () => {
  const { stack, query, counted } = stackFor('default');

  it('sports lists every catalogue entry, padel too, with its key and per-version slugs', async () => {
    const result = await query<{ sports: SportInfo[] }>(SPORTS);
    expect(result.errors).toBeUndefined();
    const sports = result.data?.sports ?? [];
    expect(sports.map((s) => s.key)).toEqual(stack().sandbox.fixtures.sports.map((entry) => entry.sport));
    expect(sports.find((s) => s.key === 'padel')).toEqual({
      key: 'padel',
      known: false,
      sport: null,
      name: 'Padel',
      slugs: { v1: null, v2: null, v3: 'padel', v4: 'padel', v6: null },
    });
    // The old fields keep their meaning for the sports the enum knows.
    expect(sports.find((s) => s.key === 'water_polo')).toMatchObject({
      known: true,
      sport: 'WATER_POLO',
      slugs: { v2: 'waterpolo', v3: 'water-polo' },
    });
    expect(sports.filter((s) => !s.known).map((s) => s.key)).toEqual(['padel']);
    expect(await counted()).toEqual({});
  });

  it('sport(sportKey:) looks an entry up by key; a key the catalogue does not list is null', async () => {
    const result = await query<{ padel: SportInfo | null; hockey: SportInfo | null; curling: SportInfo | null }>(
      '{ padel: sport(sportKey: "padel") { key known sport slugs { v3 } } hockey: sport(sport: ICE_HOCKEY) { key known sport } curling: sport(sportKey: "curling") { key } }',
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.padel).toEqual({ key: 'padel', known: false, sport: null, slugs: { v3: 'padel' } });
    expect(result.data?.hockey).toEqual({ key: 'ice_hockey', known: true, sport: 'ICE_HOCKEY' });
    expect(result.data?.curling).toBeNull();
    expect(await counted()).toEqual({});
  });

  it('v3.window(sportKey:) serves the unknown sport from its V3 slug, one counted request, estimated exactly', async () => {
    const leagues = stack().sandbox.fixtures.otherSports.v3.windows.get('padel/today') ?? [];
    expect(leagues.length).toBeGreaterThan(0);
    const result = await query<{
      v3: {
        window: {
          sport: string | null;
          sportKey: string;
          slug: string;
          events: Array<{ id: string; ref: { sport: string }; homeTeam: { name: string } }>;
        };
      };
    }>(
      '{ v3 { window(sportKey: "padel", window: TODAY) { sport sportKey slug events { id ref { sport } homeTeam { name } } } } }',
    );
    expect(result.errors).toBeUndefined();
    const window = result.data?.v3.window;
    expect(window).toMatchObject({ sport: null, sportKey: 'padel', slug: 'padel' });
    expect(window?.events.map((e) => e.homeTeam.name)).toEqual(
      leagues.flatMap((l) => l.events.map((e) => e.homeTeam.name)),
    );
    expect(window?.events.every((e) => e.ref.sport === 'padel')).toBe(true);
    expect(await counted()).toEqual({ 'GET /v3/padel/today': 1 });
    expect(costOf(result)).toMatchObject({ estimated: 1, upstreamRequests: 1 });

    // An ID minted under the unknown sport resolves back, from the fresh window.
    const id = window?.events[0]?.id ?? '';
    await resetCounts(stack().sandbox.url);
    const node = await query<{ node: { id: string } | null }>('query($id: ID!) { node(id: $id) { id } }', { id });
    expect(node.errors).toBeUndefined();
    expect(node.data?.node?.id).toBe(id);
    expect(await counted()).toEqual({});
  });

  it('v4.odds(sportKey:) serves the unknown sport from its V4 slug', async () => {
    const eventId = stack().sandbox.fixtures.otherSports.v4.events.get('padel')?.[0];
    expect(eventId).toBeDefined();
    const result = await query<{ v4: { odds: { eventId: string; sport: string; bookmakers: unknown[] } } }>(
      'query($id: ID!) { v4 { odds(sportKey: "padel", eventId: $id) { eventId sport bookmakers { key } } } }',
      { id: String(eventId) },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.v4.odds).toMatchObject({ eventId: String(eventId), sport: 'padel' });
    expect(result.data?.v4.odds.bookmakers).toHaveLength(4);
    expect(await counted()).toEqual({ 'GET /v4/padel/odds': 1 });
    expect(costOf(result)).toMatchObject({ estimated: 1, upstreamRequests: 1 });
  });

  it('v2(sportKey:) with a known sport reaches its sport-specific fields and documented gaps', async () => {
    const team = stack().sandbox.fixtures.otherSports.hockeyV2.teams[0];
    const result = await query<{
      hockey: { sport: string; sportKey: string; slug: string; hockey: { team: { detail: { name: string } } } };
      cycling: { sport: string; player: unknown } | null;
    }>(
      `query($team: ID!) {
        hockey: v2(sportKey: "ice_hockey") { sport sportKey slug hockey { team(id: $team) { detail { name } } } }
        cycling: v2(sportKey: "cycling") { sport player(id: "1") { id } }
      }`,
      { team: String(team?.id) },
    );
    expect(result.data?.hockey).toEqual({
      sport: 'ICE_HOCKEY',
      sportKey: 'ice_hockey',
      slug: 'hockey',
      hockey: { team: { detail: { name: team?.name } } },
    });
    // Cycling has no player route (spec 4.9): answered locally, as with v2(sport: CYCLING).
    expect(result.data?.cycling).toEqual({ sport: 'CYCLING', player: null });
    expect(codes(result)).toEqual(['NOT_SUPPORTED']);
    expect(await counted()).toEqual({ [`GET /v2/hockey/api/teams/${team?.id}`]: 1 });
  });

  it('a sport a version does not carry: NOT_SUPPORTED naming the catalogue entry and its empty slug field, no request', async () => {
    const result = await query<{ v2: { sport: string | null; sportKey: string; slug: string | null; team: unknown } }>(
      '{ v2(sportKey: "padel") { sport sportKey slug team(id: "1") { name } } v4 { odds(sport: CYCLING, eventId: "1") { eventId } } }',
    );
    expect(result.data?.v2).toEqual({ sport: null, sportKey: 'padel', slug: null, team: null });
    const byPath = new Map((result.errors ?? []).map((error) => [error.path?.join('.'), error]));
    for (const path of ['v2.slug', 'v2.team']) {
      const error = byPath.get(path);
      expect(error?.extensions).toMatchObject({
        code: 'NOT_SUPPORTED',
        version: 'v2',
        catalogueEntry: { key: 'padel', listed: true, slugField: 'slugs.v2' },
      });
      expect(error?.message).toBe('V2 does not carry Padel: catalogue entry `padel` has no slugs.v2.');
    }
    const v4 = byPath.get('v4.odds');
    expect(v4?.extensions).toMatchObject({
      code: 'NOT_SUPPORTED',
      version: 'v4',
      catalogueEntry: { key: 'cycling', listed: true, slugField: 'slugs.v4' },
    });
    expect(v4?.message).toContain('catalogue entry `cycling` has no slugs.v4');
    expect(await counted()).toEqual({});
  });

  it('logo sources take a sport key too: v6SportKey names the entry V6 lacks', async () => {
    const result = await query('{ logo(sources: { v6Logo: "court.png", v6SportKey: "padel" }) { url } }');
    expect(result.data).toEqual({ logo: null });
    expect(result.errors?.[0]?.extensions).toMatchObject({
      code: 'NOT_SUPPORTED',
      catalogueEntry: { key: 'padel', listed: true, slugField: 'slugs.v6' },
    });
    expect(await counted()).toEqual({});
  });

  it('refuses both, neither, an empty or an unlisted key with BAD_USER_INPUT, before any request, estimated at 0, keeping the rest of the answer', async () => {
    const teams = 'slug a: team(id: "1") { name } b: team(id: "2") { name } c: tournament(id: "3") { name }';
    const cases: Array<[string, RegExp]> = [
      [`v2(sport: FOOTBALL, sportKey: "football") { ${teams} }`, /Give sport or sportKey, not both/],
      [`v2 { ${teams} }`, /Give sport \(a Sport value\) or sportKey/],
      [`v2(sportKey: "") { ${teams} }`, /sportKey must not be empty/],
      [`v2(sportKey: "Padel") { ${teams} }`, /no key `Padel`.*nearest key: `padel`/],
      ['v3 { window(sportKey: "curling", window: TODAY) { slug } }', /no key `curling`/],
      ['v4 { odds(eventId: "1") { eventId } }', /Give sport \(a Sport value\) or sportKey/],
      ['sport(sport: TENNIS, sportKey: "tennis") { key }', /not both/],
      [
        'logo(sources: { v2TeamId: "1", v2Sport: FOOTBALL, v2SportKey: "football", v6Logo: "a.png" }) { url }',
        /Give v2Sport or v2SportKey, not both/,
      ],
      ['logo(sources: { v2TeamId: "1" }) { url }', /Give v2Sport \(a Sport value\) or v2SportKey/],
      [
        'logo(sources: { v6Logo: "a.png", v6Sport: FOOTBALL, v6SportKey: "football" }) { url }',
        /Give v6Sport or v6SportKey, not both/,
      ],
    ];
    for (const [field, message] of cases) {
      const result = await query<{ sports: unknown[] }>(`{ sports { key } bad: ${field} }`);
      expect(codes(result), field).toEqual(['BAD_USER_INPUT']);
      expect(result.errors?.[0]?.message, field).toMatch(message);
      expect(result.errors?.[0]?.path?.[0], field).toBe('bad');
      expect(result.data?.sports, field).toHaveLength(stack().sandbox.fixtures.sports.length);
      // Refused before any request, so the estimate counts nothing for the field or under it.
      expect(costOf(result), field).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    }
    expect(await counted()).toEqual({});
  });
});

describe('catalogue keys spelled otherwise (alt data: ice-hockey, beachvolley)', () => {
  const { stack, query, counted } = stackFor('alt');

  it('sports lists both: ice-hockey is ICE_HOCKEY (other separators), beachvolley a sport the enum does not know', async () => {
    expect(ALT_SPORT_KEYS).toEqual({ ice_hockey: 'ice-hockey', beach_volleyball: 'beachvolley' });
    const result = await query<{ sports: SportInfo[] }>(SPORTS);
    expect(result.errors).toBeUndefined();
    const sports = result.data?.sports ?? [];
    expect(sports.map((s) => s.key)).toEqual(stack().sandbox.fixtures.sports.map((entry) => entry.sport));
    expect(sports.find((s) => s.key === 'ice-hockey')).toMatchObject({
      known: true,
      sport: 'ICE_HOCKEY',
      slugs: { v2: 'hockey', v4: 'ice-hockey' },
    });
    expect(sports.find((s) => s.key === 'beachvolley')).toMatchObject({
      known: false,
      sport: null,
      name: 'Beach volleyball',
      slugs: { v3: 'beach-volley' },
    });
    expect(
      sports
        .filter((s) => !s.known)
        .map((s) => s.key)
        .sort(),
    ).toEqual(['beachvolley', 'padel']);
  });

  it('an enum value whose key is spelled with other separators still reaches its routes', async () => {
    const team = stack().sandbox.fixtures.otherSports.hockeyV2.teams[0];
    const result = await query<{
      v3: { window: { sport: string; sportKey: string; slug: string } };
      v2: { sportKey: string; team: { id: string } };
    }>(
      'query($team: ID!) { v3 { window(sport: ICE_HOCKEY, window: TODAY) { sport sportKey slug } } v2(sport: ICE_HOCKEY) { sportKey team(id: $team) { id } } }',
      { team: String(team?.id) },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.v3.window).toEqual({ sport: 'ICE_HOCKEY', sportKey: 'ice-hockey', slug: 'hockey' });
    expect(result.data?.v2.sportKey).toBe('ice-hockey');
    expect(await counted()).toEqual({ 'GET /v3/hockey/today': 1, [`GET /v2/hockey/api/teams/${team?.id}`]: 1 });
  });

  it('an enum value the catalogue spells with another word: NOT_SUPPORTED naming the key looked for and the nearest one, no request', async () => {
    const result = await query('{ v3 { window(sport: BEACH_VOLLEYBALL, window: TODAY) { slug } } }');
    expect(result.data).toEqual({ v3: { window: null } });
    const error = result.errors?.[0];
    expect(error?.extensions).toMatchObject({
      code: 'NOT_SUPPORTED',
      version: 'v3',
      catalogueEntry: { key: 'beach_volleyball', listed: false, slugField: 'slugs.v3' },
    });
    expect(error?.message).toBe(
      'The sport catalogue (/reference/sports) has no entry for BEACH_VOLLEYBALL: looked for key `beach_volleyball` (nearest key: `beachvolley`, query it with sportKey: "beachvolley").',
    );
    expect(await counted()).toEqual({});
  });

  it('the sport spelled with another word is served by its key', async () => {
    const leagues = stack().sandbox.fixtures.otherSports.v3.windows.get('beach-volley/live') ?? [];
    const result = await query<{
      v3: { window: { sport: string | null; sportKey: string; slug: string; events: Array<{ id: string }> } };
    }>('{ v3 { window(sportKey: "beachvolley", window: LIVE) { sport sportKey slug events { id } } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data?.v3.window).toMatchObject({ sport: null, sportKey: 'beachvolley', slug: 'beach-volley' });
    expect(result.data?.v3.window.events).toHaveLength(leagues.flatMap((l) => l.events).length);
    expect(await counted()).toEqual({ 'GET /v3/beach-volley/live': 1 });
    expect(costOf(result)).toMatchObject({ estimated: 1, upstreamRequests: 1 });
  });
});
