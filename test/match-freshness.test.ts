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
      // Another text than the first query's: not a stored result, which reports no per-resource ages.
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
