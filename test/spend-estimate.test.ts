/**
 * An estimate a client can trust, and every counted request reported
 * (issue 13, items 7 and 8): fan-out fields load their cheap list first
 * when that makes the estimate exact, so a first natural query whose real
 * cost is under the limit runs; a counted request whose answer then fails
 * (404, a payload that fails validation) is reported and charged.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { estimateWithinBound } from '../src/spend/estimate/estimate-bound.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { motorsportIds } from '../sandbox/fixtures/motorsport.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface Cost {
  estimated: number;
  upstreamRequests: number;
  budgetRemaining?: number;
}

const costOf = (extensions: Record<string, unknown> | undefined): Cost => extensions?.['cost'] as Cost;
const KEYS = 'budgeted:budgeted-client-key-01:50';
const as = { authorization: 'Bearer budgeted-client-key-01' };

describe('fan-out estimates from what the upstream really holds', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // The default per-operation limit (50), on a fresh gateway: nothing is cached.
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('a first seasonAggregates query alone is not refused, and its estimate is exact', async () => {
    await resetCounts(stack.sandbox.url);
    const args = `tournamentId: "${hockeyV2Ids.uniqueTournament}", seasonId: "${hockeyV2Ids.season}"`;
    const result = await gql(
      stack.gateway.url,
      `{ v2(sport: ICE_HOCKEY) { hockey { team(id: "${hockeyV2Ids.firstTeam + 2}") { seasonAggregates(${args}) { matches wins } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const counts = await requestCounts(stack.sandbox.url);
    const cost = costOf(result.extensions);
    // The season's event list, then two statistics routes per finished match (20).
    expect(cost.upstreamRequests).toBe(counts.total);
    expect(counts.total).toBeGreaterThan(20);
    expect(cost.estimated).toBe(counts.total);
    expect(estimateWithinBound(cost.estimated, counts.total)).toBe(true);
  });

  it('seasonStages { substages { winner } } is estimated from the real number of stages and runs', async () => {
    await resetCounts(stack.sandbox.url);
    const result = await gql<{ v2: { motorsport: { seasonStages: Array<{ substages: unknown[] | null }> } } }>(
      stack.gateway.url,
      `{ v2(sport: MOTORSPORT) { motorsport { seasonStages(seasonId: "${motorsportIds.season}") { substages { winner { name } } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const stages = result.data!.v2.motorsport.seasonStages;
    const counts = await requestCounts(stack.sandbox.url);
    // One stage list plus one sub-stage list per stage, each once.
    expect(counts.total).toBe(1 + stages.length);
    expect(costOf(result.extensions)).toMatchObject({
      estimated: 1 + stages.length,
      upstreamRequests: 1 + stages.length,
    });
  });
});

describe('every counted request is reported and charged, whatever its answer', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { GATEWAY_CLIENT_KEYS: KEYS } });
  });
  afterAll(() => stack.close());
  afterEach(() => clearFaults(stack.sandbox.url));

  for (const [name, fault, code] of [
    ['404', { status: 404, body: { error: 'not found' } }, 'NOT_FOUND'],
    ['a payload that fails validation', { status: 200, body: { unexpected: true } }, 'UPSTREAM_INVALID_RESPONSE'],
  ] as const) {
    it(`a counted request answered with ${name} shows upstreamRequests 1 and is charged to the budget`, async () => {
      const before = costOf((await gql(stack.gateway.url, `{ sports { sport } }`, undefined, as)).extensions)
        .budgetRemaining!;
      await injectFault(stack.sandbox.url, { route: 'GET /v1/hockey/athletes', ...fault });
      await resetCounts(stack.sandbox.url);
      const id = hockeyV1Ids.firstAthleteId + (name === '404' ? 50 : 51);
      const result = await gql(stack.gateway.url, `{ v1 { hockey { athlete(id: "${id}") { name } } } }`, undefined, as);
      expect(result.errors?.[0]?.extensions?.['code']).toBe(code);
      expect((await requestCounts(stack.sandbox.url)).total).toBe(1);
      expect(costOf(result.extensions)).toMatchObject({
        estimated: 1,
        upstreamRequests: 1,
        budgetRemaining: before - 1,
      });
    });
  }
});
