/**
 * V2 cycling: riders are teams; search and countries are real routes; live,
 * today, schedule, live-tournaments and scheduled-tournaments are empty by
 * design and never requested.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cyclingIds } from '../sandbox/fixtures/cycling.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

describe('V2 cycling', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('serves riders as teams, search and both country routes', async () => {
    const rider = stack.sandbox.fixtures.otherSports.cycling.riders[3];
    const result = await gql<{
      v2: {
        cycling: {
          rider: { name: string; isRider: boolean; ref: { sport: string } };
          search: Array<{ name: string; isRider: boolean }>;
          countries: Array<{ name: string; riders: number }>;
          all: Array<{ name: string }>;
        };
      };
    }>(
      stack.gateway.url,
      `query($id: ID!, $q: String!) { v2(sport: CYCLING) { cycling {
        rider(id: $id) { name isRider ref { sport } country }
        search(query: $q) { name isRider }
        countries { alpha2 name riders }
        all: countries(all: true) { name }
      } } }`,
      { id: String(cyclingIds.firstRider + 3), q: rider?.name ?? '' },
    );
    expect(result.errors).toBeUndefined();
    const cycling = result.data?.v2.cycling;
    expect(cycling?.rider).toMatchObject({ name: rider?.name, isRider: true, ref: { sport: 'cycling' } });
    expect(cycling?.search[0]).toEqual({ name: rider?.name, isRider: true });
    expect(cycling?.countries.reduce((sum, c) => sum + c.riders, 0)).toBe(40);
    expect(cycling?.all.length).toBeGreaterThan(cycling?.countries.length ?? 0);
    const counts = await requestCounts(stack.sandbox.url);
    expect(Object.keys(counts.byRoute).sort()).toEqual([
      'GET /v2/cycling/api/countries',
      'GET /v2/cycling/api/countries/all',
      'GET /v2/cycling/api/search',
      `GET /v2/cycling/api/teams/${cyclingIds.firstRider + 3}`,
    ]);
  });

  it('answers live, today, schedule, live-tournaments and scheduled-tournaments empty with zero requests', async () => {
    const result = await gql<{ v2: { cycling: Record<string, unknown[]> } }>(
      stack.gateway.url,
      `{ v2(sport: CYCLING) { cycling {
        live { id } today { id } schedule(date: "2026-06-14") { id } liveTournaments { id } scheduledTournaments(date: "2026-06-15") { id }
      } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.v2.cycling).toEqual({
      live: [],
      today: [],
      schedule: [],
      liveTournaments: [],
      scheduledTournaments: [],
    });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    // What the sandbox would have said, as the spec says the upstream does: 200, empty.
    const direct = await fetch(`${stack.sandbox.url}/v2/cycling/api/schedule/2026-06-14`, {
      headers: { 'x-api-key': stack.apiKey },
    });
    expect(await direct.json()).toEqual({ events: [] });
  });

  it('refuses a malformed schedule date', async () => {
    const result = await gql(
      stack.gateway.url,
      `{ v2(sport: CYCLING) { cycling { schedule(date: "tomorrow") { id } } } }`,
    );
    expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
  });
});
