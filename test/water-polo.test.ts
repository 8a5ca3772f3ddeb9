/**
 * Water polo V2 `/live`: with or without `/api`, the same answer; V2 events
 * read through the shared Event interface.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

describe('water polo V2', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('serves /live and /api/live identically upstream', async () => {
    const headers = { 'x-api-key': stack.apiKey };
    const a = await (await fetch(`${stack.sandbox.url}/v2/waterpolo/live`, { headers })).json();
    const b = await (await fetch(`${stack.sandbox.url}/v2/waterpolo/api/live`, { headers })).json();
    expect(a).toEqual(b);
  });

  it('answers live games as V2 events with the waterpolo slug, one request', async () => {
    const result = await gql<{
      v2: {
        waterPolo: {
          live: Array<{
            ref: { sport: string };
            status: { live: boolean };
            homeTeam: { name: string };
            homeScore: number;
            tournament: { name: string };
          }>;
        };
      };
    }>(
      stack.gateway.url,
      `{ v2(sport: WATER_POLO) { waterPolo { live { ... on Event { ref { version sport } status { live finished } homeTeam { name } awayTeam { name } homeScore awayScore } tournament { name } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const live = result.data?.v2.waterPolo.live ?? [];
    expect(live).toHaveLength(4);
    expect(live.every((e) => e.status.live && e.ref.sport === 'waterpolo')).toBe(true);
    expect(live[0]?.homeTeam.name).toBe('Pro Recco');
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute['GET /v2/waterpolo/api/live']).toBe(1);
    expect(counts.byRoute['GET /v2/waterpolo/live']).toBeUndefined();
  });
});
