/**
 * V4 multi-bookmaker odds (spec 1): `GET /v4/{sport}/odds?eventId=` (path
 * assumed, as in src/upstream/routes/v4.ts), by V4's slugs (`ice-hockey`:
 * `hockey` is V2's spelling and 404s here).
 */
import type { Fixtures } from '../fixtures/build.js';
import { requiredInteger } from './params.js';
import { errorResult, json, type Router } from '../router.js';

export function register(router: Router, fixtures: Fixtures): void {
  const v4 = fixtures.otherSports.v4;
  router.add({
    method: 'GET',
    template: '/v4/:sport/odds',
    auth: true,
    counted: true,
    handler: ({ params, query }) => {
      const sport = params['sport'] ?? '';
      if (!v4.events.has(sport)) return errorResult(404, 'Sport not found');
      const odds = v4.odds.get(`${sport}/${requiredInteger(query, 'eventId')}`);
      return odds === undefined ? errorResult(404, 'Event not found') : json(200, odds);
    },
  });
}
