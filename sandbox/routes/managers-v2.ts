/**
 * V2 managers on every sport (spec 4.5, 4.8): image and last events on every
 * sport that has the manager; career on football only.
 *
 * Assumptions (paths of image and events shown for Aussie rules in 4.5, the
 * football career path not shown at all):
 * - `/v2/{sport}/api/manager/{id}/image` (PNG) and
 *   `/v2/{sport}/api/manager/{id}/events/last/{page}` on every sport;
 * - football career: `/v2/football/api/manager/{id}/career`.
 * `/api/managers/{id}/career` is not served (404 everywhere, spec 4.8), nor
 * `/career` or `/career-history` on the sports the spec lists: the router
 * answers 404 for them.
 */
import type { Fixtures } from '../fixtures/build.js';
import { V2_EVENTS_PAGE_SIZE } from '../fixtures/v2-events.js';
import { colourOf, pngImage } from '../fixtures/images-bytes.js';
import { errorResult, json, type Router } from '../router.js';

export function register(router: Router, fixtures: Fixtures): void {
  const managerOf = (sport: string, id: string | undefined) =>
    fixtures.v2.has(sport) && /^\d+$/.test(id ?? '') ? fixtures.v2.sport(sport).managers.get(Number(id)) : undefined;

  router.add({
    method: 'GET',
    template: '/v2/:sport/api/manager/:id/image',
    auth: true,
    counted: true,
    handler: ({ params }) => {
      const manager = managerOf(params['sport'] ?? '', params['id']);
      if (manager === undefined) return errorResult(404, 'Image not found upstream');
      const colour = colourOf(manager.id);
      return { status: 200, body: pngImage(64, colour, { r: 240, g: 240, b: 240 }), contentType: 'image/png' };
    },
  });

  router.add({
    method: 'GET',
    template: '/v2/:sport/api/manager/:id/events/last/:page',
    auth: true,
    counted: true,
    handler: ({ params }) => {
      const sport = params['sport'] ?? '';
      const manager = managerOf(sport, params['id']);
      const page = Number(params['page']);
      if (manager === undefined || !Number.isInteger(page) || page < 0) return errorResult(404, 'Manager not found');
      const teamId = manager.team?.id;
      const events = fixtures.otherSports.v2Events
        .all(sport)
        .filter((e) => e.status.type === 'finished' && (e.homeTeam.id === teamId || e.awayTeam.id === teamId))
        .sort((a, b) => b.startTimestamp - a.startTimestamp);
      const start = page * V2_EVENTS_PAGE_SIZE;
      return json(200, {
        events: events.slice(start, start + V2_EVENTS_PAGE_SIZE),
        hasNextPage: events.length > start + V2_EVENTS_PAGE_SIZE,
      });
    },
  });

  router.add({
    method: 'GET',
    template: '/v2/football/api/manager/:id/career',
    auth: true,
    counted: true,
    handler: ({ params }) => {
      const career = /^\d+$/.test(params['id'] ?? '') ? fixtures.football.careers.get(Number(params['id'])) : undefined;
      return career === undefined ? errorResult(404, 'Manager not found') : json(200, { career });
    },
  });
}
