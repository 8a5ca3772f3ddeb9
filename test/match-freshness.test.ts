/**
 * Freshness follows the match (issue 33, src/upstream/match-freshness.ts),
 * over the World Cup V1 routes, whose games the sandbox moves on command
 * (`POST /__sandbox/matches/{id}/events`: kick-off, full time). Time moves
 * on the gateway's cache clock (the `cacheClock` seam), never by sleeping:
 * the upstream counts are exact.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultMatchStateTtls } from '../src/upstream/cache-ttls.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface Listed {
  ref: { nativeId: string };
  statusGroup: number;
  homeTeam: { placeholder: boolean };
  awayTeam: { placeholder: boolean };
}

const LIST =
  '{ v1 { worldCup { matches { ref { nativeId } statusGroup homeTeam { placeholder } awayTeam { placeholder } } } } }';
const GAME = 'query ($id: ID!) { v1 { worldCup { game(id: $id) { commentary { minute text } } } } }';
const IN_PLAY_MS = defaultMatchStateTtls.inPlay * 1000;

describe('freshness by match state', () => {
  let stack: TestStack;
  let clock = Date.now();
  const advance = (ms: number): void => {
    clock += ms;
  };

  beforeEach(async () => {
    clock = Date.now();
    stack = await startStack({ seams: { cacheClock: () => clock } });
  });
  afterEach(() => stack.close());

  const list = async (): Promise<Listed[]> => {
    const result = await gql<{ v1: { worldCup: { matches: Listed[] } } }>(stack.gateway.url, LIST);
    expect(result.errors).toBeUndefined();
    return result.data!.v1.worldCup.matches;
  };
  const game = async (id: string): Promise<void> => {
    const result = await gql(stack.gateway.url, GAME, { id });
    expect(result.errors).toBeUndefined();
  };
  /** Upstream requests since the last call, for the list and for one game's detail. */
  const spent = async (id?: string): Promise<{ list: number; game: number }> => {
    const { byRoute } = await requestCounts(stack.sandbox.url);
    await resetCounts(stack.sandbox.url);
    return {
      list: byRoute['GET /api/v1/world-cup/matches'] ?? 0,
      game: id === undefined ? 0 : (byRoute[`GET /api/v1/world-cup/game/${id}`] ?? 0),
    };
  };
  const script = async (id: string, type: 'period' | 'end'): Promise<void> => {
    const response = await fetch(`${stack.sandbox.url}/__sandbox/matches/${id}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type }),
    });
    expect(response.status).toBe(200);
  };

  it("spends nothing on an ended match's answers after the first fetch: past any old TTL, and after a restart", async () => {
    const ended = (await list()).find((m) => m.statusGroup === 4)!.ref.nativeId;
    await spent();
    await game(ended);
    expect(await spent(ended)).toEqual({ list: 0, game: 1 });
    advance(40 * 24 * 3600 * 1000); // past every class TTL, `finishedMatch`'s 30 days included
    await game(ended);
    expect(await spent(ended)).toEqual({ list: 0, game: 0 });
    await stack.stopGateway();
    await stack.restartGateway();
    await game(ended);
    expect(await spent(ended)).toEqual({ list: 0, game: 0 });
  });

  it("never answers an in-play match's detail older than the in-play freshness", async () => {
    const live = (await list()).find((m) => m.statusGroup === 3)!.ref.nativeId;
    await spent();
    await game(live);
    expect((await spent(live)).game).toBe(1);
    advance(IN_PLAY_MS - 1_000);
    await game(live);
    expect((await spent(live)).game).toBe(0);
    advance(2_000);
    await game(live);
    expect((await spent(live)).game).toBe(1);
  });

  it('re-classifies cached answers when their match changes state: scheduled -> in play -> ended', async () => {
    const scheduled = (await list()).find(
      (m) => m.statusGroup === 2 && !m.homeTeam.placeholder && !m.awayTeam.placeholder,
    )!.ref.nativeId;
    await game(scheduled);
    await spent();
    // Past its kick-off by months in the sandbox's frozen calendar, and shown scheduled: taken as postponed (an hour).
    advance(IN_PLAY_MS + 1_000);
    await game(scheduled);
    expect(await spent(scheduled)).toEqual({ list: 0, game: 0 });

    await script(scheduled, 'period'); // kick-off
    // The list (short: it holds games in play) is asked again and shows the game in play ...
    expect((await list()).find((m) => m.ref.nativeId === scheduled)!.statusGroup).toBe(3);
    // ... so the detail fetched while it was scheduled is stale at once, long before its hour.
    await game(scheduled);
    expect(await spent(scheduled)).toEqual({ list: 1, game: 1 });
    await game(scheduled);
    expect(await spent(scheduled)).toEqual({ list: 0, game: 0 });

    await script(scheduled, 'end');
    advance(IN_PLAY_MS + 1_000);
    expect((await list()).find((m) => m.ref.nativeId === scheduled)!.statusGroup).toBe(4);
    await game(scheduled);
    expect(await spent(scheduled)).toEqual({ list: 1, game: 1 });
    // Ended: immutable from now on.
    advance(7 * 24 * 3600 * 1000);
    await game(scheduled);
    expect((await spent(scheduled)).game).toBe(0);
  });

  it('refreshes a list and its standings while one of its matches is in play, and not once none is', async () => {
    const standings = async (): Promise<number> => {
      const result = await gql(stack.gateway.url, '{ v1 { worldCup { standings { name } } } }');
      expect(result.errors).toBeUndefined();
      const { byRoute } = await requestCounts(stack.sandbox.url);
      return byRoute['GET /api/v1/world-cup/standings'] ?? 0;
    };
    const live = (await list()).filter((m) => m.statusGroup === 3).map((m) => m.ref.nativeId);
    expect(live.length).toBeGreaterThan(0);
    expect(await standings()).toBe(1);
    expect((await spent()).list).toBe(1);
    advance(IN_PLAY_MS + 1_000);
    await list();
    expect(await standings()).toBe(1);
    expect((await spent()).list).toBe(1);

    for (const id of live) await script(id, 'end');
    advance(IN_PLAY_MS + 1_000);
    expect((await list()).some((m) => m.statusGroup === 3)).toBe(false);
    expect(await standings()).toBe(1);
    expect((await spent()).list).toBe(1);
    // Ten minutes: twenty times the World Cup class's old 30 s, and nothing in play or about to start.
    advance(10 * 60 * 1000);
    await list();
    expect(await standings()).toBe(0);
    expect((await spent()).list).toBe(0);
  });

  describe('an answer served whole from the result cache', () => {
    const BOTH =
      'query ($id: ID!) { v1 { worldCup { game(id: $id) { commentary { minute } } matches { ref { nativeId } } } } }';
    interface Reported {
      cost: { upstreamRequests: number; cacheHits: number };
      resources?: Array<{ route: string; source: string; ageSeconds: number }>;
    }
    const post = async (query: string, id: string): Promise<Reported> => {
      const result = await gql(stack.gateway.url, query, { id });
      expect(result.errors).toBeUndefined();
      return result.extensions as unknown as Reported;
    };
    /** Over GET: not the HTTP fast path but the result cache's yoga stage. */
    const get = async (query: string, id: string): Promise<Reported> => {
      const url = new URL(`${stack.gateway.url}/graphql`);
      url.searchParams.set('query', query);
      url.searchParams.set('variables', JSON.stringify({ id }));
      const response = await fetch(url, { headers: { accept: 'application/json' } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { errors?: unknown; extensions: Reported };
      expect(body.errors).toBeUndefined();
      return body.extensions;
    };
    const sorted = (reported: Reported): Reported['resources'] =>
      [...(reported.resources ?? [])].sort((a, b) => a.route.localeCompare(b.route));

    it("reports each counted resource's source and age as an executed answer does, ages moving with time", async () => {
      const ended = (await list()).find((m) => m.statusGroup === 4)!.ref.nativeId;
      await spent();
      const first = await post(BOTH, ended);
      expect(first.cost).toMatchObject({ upstreamRequests: 1 });
      advance(5_000);
      // A stored result (the fast path for a POST): nothing executed, nothing sent.
      const hit = await post(BOTH, ended);
      expect(hit.cost).toMatchObject({ upstreamRequests: 0, cacheHits: 2 });
      expect(await spent(ended)).toEqual({ list: 0, game: 1 });
      // The same as executing another text over the same cache reports.
      const executed = await post(BOTH.replace('commentary { minute }', 'commentary { minute text }'), ended);
      expect(executed.cost).toMatchObject({ upstreamRequests: 0, cacheHits: 2 });
      expect(sorted(hit)).toEqual(sorted(executed));
      expect(sorted(hit)).toEqual([
        { route: '/api/v1/world-cup/game/{id}', source: 'cache', ageSeconds: 5 },
        { route: '/api/v1/world-cup/matches', source: 'cache', ageSeconds: 5 },
      ]);
      // The list is short-lived while games are in play; the ended game's detail is immutable.
      advance(3 * 24 * 3600 * 1000);
      const gameOnly = 'query ($id: ID!) { v1 { worldCup { game(id: $id) { commentary { minute } } } } }';
      await post(gameOnly, ended);
      const later = await get(gameOnly, ended);
      expect(later.cost).toMatchObject({ upstreamRequests: 0, cacheHits: 1 });
      expect(later.resources).toEqual([
        { route: '/api/v1/world-cup/game/{id}', source: 'cache', ageSeconds: 3 * 24 * 3600 + 5 },
      ]);
      advance(60_000);
      expect((await get(gameOnly, ended)).resources).toEqual([
        { route: '/api/v1/world-cup/game/{id}', source: 'cache', ageSeconds: 3 * 24 * 3600 + 65 },
      ]);
      expect((await post(gameOnly, ended)).resources).toEqual([
        { route: '/api/v1/world-cup/game/{id}', source: 'cache', ageSeconds: 3 * 24 * 3600 + 65 },
      ]);
      expect(await spent(ended)).toEqual({ list: 0, game: 0 });
    });
  });

  it("evicts an ended match's answers last from memory alone (CACHE_STORE=memory)", async () => {
    const { matches } = stack.sandbox.fixtures.worldCup;
    const ended = String(matches.find((m) => m.state === 'finished')!.v1Id);
    const [s1, s2, s3] = matches
      .filter((m) => m.state === 'scheduled' && m.home !== undefined && m.away !== undefined)
      .map((m) => String(m.v1Id));
    // What each answer weighs in the cache: its body's bytes.
    const size = async (id: string): Promise<number> => {
      const response = await fetch(`${stack.sandbox.url}/api/v1/world-cup/game/${id}`, {
        headers: { 'x-api-key': stack.apiKey },
      });
      return (await response.arrayBuffer()).byteLength;
    };
    const [e, a, b, c] = [await size(ended), await size(s1!), await size(s2!), await size(s3!)];
    // Room for the ended game and two others, never three: the third evicts one.
    const bound = e + b + Math.max(a, c);
    expect(e).toBeLessThanOrEqual(0.75 * bound); // within the ended answers' share of memory
    expect(e).toBeGreaterThanOrEqual(Math.min(a, c)); // a plain LRU would evict it alone
    await stack.stopGateway();
    // No result cache: a stored result would answer without asking the upstream cache what it still holds.
    await stack.restartGateway({ CACHE_STORE: 'memory', CACHE_MAX_BYTES: String(bound), RESULT_CACHE: 'false' });
    await resetCounts(stack.sandbox.url);
    const games = async (ids: string[]): Promise<number> => {
      for (const id of ids) await game(id);
      const { byRoute } = await requestCounts(stack.sandbox.url);
      await resetCounts(stack.sandbox.url);
      return Object.entries(byRoute)
        .filter(([route]) => route.startsWith('GET /api/v1/world-cup/game/'))
        .reduce((sum, [, n]) => sum + n, 0);
    };
    expect(await games([ended, s1!, s2!])).toBe(3);
    expect(await games([ended, s1!, s2!])).toBe(0);
    // The third scheduled game is over the bound: the least recently used of the others goes, not the ended one.
    expect(await games([s3!])).toBe(1);
    expect(await games([ended, s2!, s3!])).toBe(0);
    expect(await games([s1!])).toBe(1);
  });

  describe('odds over REST', () => {
    const LINES = 'query ($g: ID!) { v1 { hockey { lines(gameId: $g) { gameId } } } }';
    const DETAIL = 'query ($id: ID!) { v1 { worldCup { gameDetail(id: $id) { match { statusGroup } } } } }';
    const counted = async (route: string): Promise<number> => {
      const { byRoute } = await requestCounts(stack.sandbox.url);
      await resetCounts(stack.sandbox.url);
      return byRoute[route] ?? 0;
    };
    const lines = async (gameId: number): Promise<number> => {
      const result = await gql(stack.gateway.url, LINES, { g: String(gameId) });
      expect(result.errors).toBeUndefined();
      return counted('GET /v1/hockey/bets/lines');
    };

    it("binds a hockey game's betting lines to the game's state once its V1 detail shows it", async () => {
      const [held, unseen] = stack.sandbox.fixtures.hockeyV1.games;
      const detail = await gql<{ v1: { worldCup: { gameDetail: { match: { statusGroup: number } } } } }>(
        stack.gateway.url,
        DETAIL,
        { id: String(held!.id) },
      );
      expect(detail.errors).toBeUndefined();
      expect(detail.data!.v1.worldCup.gameDetail.match.statusGroup).toBe(2);
      await resetCounts(stack.sandbox.url);
      expect(await lines(held!.id)).toBe(1);
      expect(await lines(unseen!.id)).toBe(1);
      // Past the `lines` class's 30 s: the game whose detail is held is shown scheduled months ago
      // (postponed, an hour); the other's state is unknown, so its lines keep the class TTL.
      advance(31_000);
      expect(await lines(held!.id)).toBe(0);
      expect(await lines(unseen!.id)).toBe(1);
      advance(defaultMatchStateTtls.postponed * 1000);
      expect(await lines(held!.id)).toBe(1);
    });

    it('keeps V4 odds on their class TTL: no V4 payload the spec shows gives a match state', async () => {
      const [eventId] = stack.sandbox.fixtures.otherSports.v4.events.get('ice-hockey')!;
      const odds = async (): Promise<number> => {
        const result = await gql(
          stack.gateway.url,
          `{ v4 { odds(sport: ICE_HOCKEY, eventId: "${eventId}") { eventId } } }`,
        );
        expect(result.errors).toBeUndefined();
        return counted('GET /v4/ice-hockey/odds');
      };
      await resetCounts(stack.sandbox.url);
      expect(await odds()).toBe(1);
      advance(29_000);
      expect(await odds()).toBe(0);
      advance(2_000);
      expect(await odds()).toBe(1);
    });
  });

  describe("a client's @maxAge", () => {
    const GAME_AGED = (seconds: number): string =>
      `query ($id: ID!) @maxAge(seconds: ${seconds}) { v1 { worldCup { game(id: $id) { commentary { minute } } } } }`;
    interface Reported {
      cost: { estimated: number; upstreamRequests: number };
      resources: Array<{ route: string; source: string; ageSeconds: number }>;
    }
    const aged = async (seconds: number, id: string): Promise<Reported> => {
      const result = await gql(stack.gateway.url, GAME_AGED(seconds), { id });
      expect(result.errors).toBeUndefined();
      return result.extensions as unknown as Reported;
    };
    const ROUTE = '/api/v1/world-cup/game/{id}';

    it('accepts an older copy than the in-play freshness, and spends nothing for it', async () => {
      const live = (await list()).find((m) => m.statusGroup === 3)!.ref.nativeId;
      await game(live);
      await spent();
      advance(60_000); // four times the in-play freshness
      const reported = await aged(120, live);
      expect(await spent(live)).toEqual({ list: 0, game: 0 });
      expect(reported.cost).toMatchObject({ estimated: 0, upstreamRequests: 0 });
      expect(reported.resources).toEqual([{ route: ROUTE, source: 'cache', ageSeconds: 60 }]);
      // Without it, the same copy is too old: fetched again, and reported so.
      const plain = await gql(stack.gateway.url, GAME, { id: live });
      expect(await spent(live)).toEqual({ list: 0, game: 1 });
      expect((plain.extensions as unknown as Reported).resources).toEqual([
        { route: ROUTE, source: 'upstream', ageSeconds: 0 },
      ]);
    });

    it('demands a fresher copy than an immutable one, and the estimate counts it', async () => {
      const ended = (await list()).find((m) => m.statusGroup === 4)!.ref.nativeId;
      await game(ended);
      await spent();
      advance(30_000);
      // Another text than the first query's: executed over the cache, not a stored result.
      const plain = await gql(stack.gateway.url, GAME_AGED(0).replace(' @maxAge(seconds: 0)', ''), { id: ended });
      expect((plain.extensions as unknown as Reported).resources).toEqual([
        { route: ROUTE, source: 'cache', ageSeconds: 30 },
      ]);
      expect(await spent(ended)).toEqual({ list: 0, game: 0 });
      const reported = await aged(10, ended);
      expect(await spent(ended)).toEqual({ list: 0, game: 1 });
      expect(reported.cost).toMatchObject({ estimated: 1, upstreamRequests: 1 });
      expect(reported.resources).toEqual([{ route: ROUTE, source: 'upstream', ageSeconds: 0 }]);
    });
  });
});
