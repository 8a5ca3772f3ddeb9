/**
 * Freshness follows the match across a cluster (issue 33): a state change
 * one replica learns re-classifies the answers the others cached
 * (src/upstream/shared-match-states.ts, one message on the state's bus), and
 * the shared tier never hands a replica a copy fetched before the change
 * (`notBefore`). Two gateway processes on their own redis-server
 * (test/support/cluster.ts); every count is read from the sandbox. The
 * result cache is off so that every read reaches the upstream cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startCluster, type Cluster } from './support/cluster.js';

const GAME = 'query ($id: ID!) { v1 { worldCup { game(id: $id) { match { statusGroup } } } } }';
const LIST = '{ v1 { worldCup { matches { ref { nativeId } statusGroup } } } }';
const GAME_ROUTE = (id: string): string => `GET /api/v1/world-cup/game/${id}`;
const LIST_ROUTE = 'GET /api/v1/world-cup/matches';

/** Resolves once `condition` holds, checking every 50 ms; fails after `boundMs`. */
async function until(what: string, condition: () => Promise<boolean>, boundMs = 15_000): Promise<void> {
  const giveUpAt = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(`not within ${boundMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('cluster: a match state learnt by one replica', () => {
  let cluster: Cluster;
  const url = (index: number): string => cluster.replicas[index]!.url;

  beforeAll(async () => {
    cluster = await startCluster({ replicas: 2, env: { RESULT_CACHE: 'false', LOG_LEVEL: 'warn' } });
  }, 60_000);
  afterAll(() => cluster?.close());

  const statusOf = async (replica: number, id: string): Promise<number> => {
    const result = await gql<{ v1: { worldCup: { game: { match: { statusGroup: number } } } } }>(url(replica), GAME, {
      id,
    });
    expect(result.errors).toBeUndefined();
    return result.data!.v1.worldCup.game.match.statusGroup;
  };
  const spent = async (id: string): Promise<{ list: number; game: number }> => {
    const { byRoute } = await requestCounts(cluster.sandbox.url);
    await resetCounts(cluster.sandbox.url);
    return { list: byRoute[LIST_ROUTE] ?? 0, game: byRoute[GAME_ROUTE(id)] ?? 0 };
  };

  it("re-classifies the other replica's cached answers, and the shared tier hands out no copy older than the change", async () => {
    const scheduled = String(
      cluster.sandbox.fixtures.worldCup.matches.find(
        (m) => m.state === 'scheduled' && m.home !== undefined && m.away !== undefined,
      )!.v1Id,
    );
    await resetCounts(cluster.sandbox.url);
    // r2 fetches the detail while the game is scheduled (months past its kick-off: an hour's freshness).
    expect(await statusOf(1, scheduled)).toBe(2);
    expect(await statusOf(1, scheduled)).toBe(2);
    expect(await statusOf(0, scheduled)).toBe(2); // from the shared tier
    expect(await spent(scheduled)).toEqual({ list: 0, game: 1 });

    const kickOff = await fetch(`${cluster.sandbox.url}/__sandbox/matches/${scheduled}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'period' }),
    });
    expect(kickOff.status).toBe(200);

    // Only r1 reads the list that shows the kick-off.
    const list = await gql<{
      v1: { worldCup: { matches: Array<{ ref: { nativeId: string }; statusGroup: number }> } };
    }>(url(0), LIST);
    expect(list.data!.v1.worldCup.matches.find((m) => m.ref.nativeId === scheduled)!.statusGroup).toBe(3);
    // r2 hears it: its detail, fetched while scheduled, is stale long before its hour, and is fetched again.
    await until('r2 shows the game in play', async () => (await statusOf(1, scheduled)) === 3);
    // r1 knows it from the list: the shared tier's copy from before the kick-off is not fresh for it either.
    expect(await statusOf(0, scheduled)).toBe(3);
    // Once for the whole cluster: r2's new copy is r1's too.
    expect(await spent(scheduled)).toEqual({ list: 1, game: 1 });
    expect(await statusOf(1, scheduled)).toBe(3);
    expect(await statusOf(0, scheduled)).toBe(3);
    expect(await spent(scheduled)).toEqual({ list: 0, game: 0 });
  }, 60_000);
});
