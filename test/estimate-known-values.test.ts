/**
 * The estimate walks over what is already known (issue 13, item 7):
 * resolvers run dry over cached answers, a cheap list whose items cost is
 * loaded first, a resource several fields need counts once, and a field
 * refused on its arguments costs nothing. Each query here was refused or
 * estimated far above its real cost before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { motorsportIds } from '../sandbox/fixtures/motorsport.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface Cost {
  estimated: number;
  upstreamRequests: number;
}

const costOf = (extensions: Record<string, unknown> | undefined): Cost => extensions?.['cost'] as Cost;

describe('estimates over known values', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // The default per-operation limit (50), nothing cached.
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('World Cup teams with their logos: the team list, then one image per team; stored logos cost nothing the second time', async () => {
    const query = '{ v2(sport: FOOTBALL) { football { worldCup2026 { teams { name logo { url version } } } } } }';
    await resetCounts(stack.sandbox.url);
    const first = await gql<{ v2: { football: { worldCup2026: { teams: unknown[] } } } }>(stack.gateway.url, query);
    expect(first.errors).toBeUndefined();
    const teams = first.data!.v2.football.worldCup2026.teams.length;
    const counts = await requestCounts(stack.sandbox.url);
    // The sport catalogue (free), the team list, one image per team.
    expect(counts.byRoute['GET /reference/sports']).toBe(1);
    expect(counts.total).toBe(2 + teams);
    expect(costOf(first.extensions)).toMatchObject({ estimated: 1 + teams, upstreamRequests: 2 + teams });

    await resetCounts(stack.sandbox.url);
    const again = await gql(stack.gateway.url, query);
    expect(again.data).toEqual(first.data);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    expect(costOf(again.extensions)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
  });

  it('nested sub-stages are estimated from the real stage and sub-stage lists, not 50 per level', async () => {
    const query = `{ v2(sport: MOTORSPORT) { motorsport { stage(id: "${motorsportIds.firstStage}") { name substages { name substages { name } } } } } }`;
    await resetCounts(stack.sandbox.url);
    const result = await gql<{
      v2: { motorsport: { stage: { substages: Array<{ substages: unknown[] | null }> | null } } };
    }>(stack.gateway.url, query);
    expect(result.errors).toBeUndefined();
    const substages = result.data!.v2.motorsport.stage.substages ?? [];
    const counts = await requestCounts(stack.sandbox.url);
    // The stage, its sub-stage list, and one sub-stage list per sub-stage.
    expect(counts.total).toBe(2 + substages.length);
    expect(costOf(result.extensions)).toMatchObject({ estimated: counts.total, upstreamRequests: counts.total });

    await resetCounts(stack.sandbox.url);
    const again = await gql(stack.gateway.url, query);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    expect(costOf(again.extensions)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
  });

  it('two coaches of one game share the matches list and the lineups they read: estimated as sent', async () => {
    const listed = await gql<{ v1: { worldCup: { matches: Array<{ ref: { nativeId: string } }> } } }>(
      stack.gateway.url,
      '{ v1 { worldCup { matches(live: true) { ref { nativeId } } } } }',
    );
    const gameId = listed.data!.v1.worldCup.matches[0]!.ref.nativeId;
    await resetCounts(stack.sandbox.url);
    const result = await gql(
      stack.gateway.url,
      `{ v1 { worldCup { game(id: "${gameId}") { match { homeTeam { coach { name } } awayTeam { coach { name } } } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const counts = await requestCounts(stack.sandbox.url);
    // The game, and the lineups of each team's latest game (the matches list is cached): at most three.
    expect(counts.total).toBeGreaterThanOrEqual(2);
    expect(counts.total).toBeLessThanOrEqual(3);
    expect(costOf(result.extensions)).toMatchObject({ estimated: counts.total, upstreamRequests: counts.total });
  });

  it('paged lists count their real pages, not an assumed page size', async () => {
    await resetCounts(stack.sandbox.url);
    const result = await gql<{ v2: { hockey: { team: { recentResults: { nodes: unknown[] } } } } }>(
      stack.gateway.url,
      `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${hockeyV2Ids.firstTeam}") { recentResults(first: 95) { nodes { id } pageInfo { hasNextPage } } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const counts = await requestCounts(stack.sandbox.url);
    const pages = Object.entries(counts.byRoute)
      .filter(([route]) => route.includes('/events/last/'))
      .reduce((sum, [, n]) => sum + n, 0);
    const counted = counts.total - (counts.byRoute['GET /reference/sports'] ?? 0);
    // Fewer pages than 95 items at an assumed 10 a page (10 pages): the estimate is what was really read.
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(pages).toBeLessThan(10);
    expect(costOf(result.extensions)).toMatchObject({ estimated: counted });
  });

  it('a field refused on its arguments is estimated at nothing, as it sends nothing', async () => {
    await resetCounts(stack.sandbox.url);
    const result = await gql(stack.gateway.url, '{ v1 { hockey { athlete(id: "not-a-number") { name } } } }');
    expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    expect(costOf(result.extensions)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
  });
});
