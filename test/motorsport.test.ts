/**
 * Motorsport V2: stages and sub-stages carry a winner only; their results,
 * classification, standings, laps and start grid are never requested;
 * constructor tables at season level.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { motorsportIds } from '../sandbox/fixtures/motorsport.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface Stage {
  name: string;
  type: string;
  status: { finished: boolean };
  winner: { nativeId: string; name: string } | null;
  substages?: Stage[];
}

describe('motorsport V2', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('serves the season stages with their winners and sub-stages, and the constructor table', async () => {
    const result = await gql<{
      v2: {
        motorsport: {
          seasonStages: Stage[];
          stage: Stage;
          constructorStandings: Array<{ position: number; team: { name: string }; points: number; wins: number }>;
        };
      };
    }>(
      stack.gateway.url,
      `query($season: ID!, $stage: ID!) { v2(sport: MOTORSPORT) { motorsport {
        seasonStages(seasonId: $season) { id name type status { finished } winner { nativeId name } }
        stage(id: $stage) { name circuit country winner { name } substages { name type winner { name } } }
        constructorStandings(seasonId: $season) { position team { name } points wins }
      } } }`,
      { season: String(motorsportIds.season), stage: String(motorsportIds.firstStage) },
    );
    expect(result.errors).toBeUndefined();
    const m = result.data?.v2.motorsport;
    expect(m?.seasonStages).toHaveLength(12);
    expect(m?.seasonStages.filter((s) => s.winner !== null)).toHaveLength(7);
    expect(m?.stage.substages?.map((s) => s.type)).toEqual(['practice', 'qualifying', 'race']);
    expect(m?.stage.substages?.[2]?.winner?.name).toBe(m?.stage.winner?.name);
    expect(m?.constructorStandings).toHaveLength(10);
    expect(m?.constructorStandings.map((c) => c.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(m?.constructorStandings.reduce((sum, c) => sum + c.wins, 0)).toBe(7);
    expect(m?.constructorStandings.reduce((sum, c) => sum + c.points, 0)).toBe(7 * 101);
  });

  it('answers stage results, classification, standings, laps and start grid NOT_SUPPORTED without a request', async () => {
    await gql(
      stack.gateway.url,
      `{ v2(sport: MOTORSPORT) { motorsport { stage(id: "${motorsportIds.firstStage}") { name } } } }`,
    );
    await resetCounts(stack.sandbox.url);
    const result = await gql<{ v2: { motorsport: { stage: { name: string; winner: { name: string } } } } }>(
      stack.gateway.url,
      `{ v2(sport: MOTORSPORT) { motorsport { stage(id: "${motorsportIds.firstStage}") { name winner { name } results classification standings laps startGrid } } } }`,
    );
    expect(result.errors).toHaveLength(5);
    expect(
      result.errors?.every(
        (e) => e.extensions?.['code'] === 'NOT_SUPPORTED' && String(e.extensions?.['alternative']).includes('winner'),
      ),
    ).toBe(true);
    expect(result.data?.v2.motorsport.stage.winner.name).toBeTruthy();
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0); // the stage itself came from the cache
  });
});
