/**
 * V2 cycling (spec 4.9): an entity feed (search, countries; riders are teams
 * on the generic team route). The schedule routes are 200 with empty arrays
 * on every date. Search and country payloads assumed as in
 * src/upstream/routes/v2-cycling.ts.
 */
import type { Fixtures } from '../fixtures/build.js';
import { errorResult, json, type RouteContext, type RouteResult, type Router } from '../router.js';

export function register(router: Router, fixtures: Fixtures): void {
  const { cycling } = fixtures.otherSports;
  const add = (template: string, handler: (ctx: RouteContext) => RouteResult) =>
    router.add({ method: 'GET', template, auth: true, counted: true, handler });

  // Cycling
  add('/v2/cycling/api/search', ({ query }) => {
    const q = (query.get('q') ?? '').toLowerCase();
    if (q.length < 2) return errorResult(400, 'Query parameter "q" is required');
    const hits = [...cycling.riders, ...cycling.teams].filter((t) => t.name.toLowerCase().includes(q));
    return json(200, { results: hits.map((entity) => ({ type: 'team', entity })) });
  });
  add('/v2/cycling/api/countries', () => json(200, { countries: cycling.countries }));
  add('/v2/cycling/api/countries/all', () => json(200, { countries: cycling.allCountries }));
  add('/v2/cycling/api/live', () => json(200, { events: [] }));
  add('/v2/cycling/api/today', () => json(200, { events: [] }));
  add('/v2/cycling/api/schedule/:date', () => json(200, { events: [] }));
  add('/v2/cycling/api/live-tournaments', () => json(200, { tournaments: [] }));
  add('/v2/cycling/api/scheduled-tournaments/:date', () => json(200, { tournaments: [] }));
}
