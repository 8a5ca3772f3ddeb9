/**
 * V2 event routes every sport shares: `/api/match/{id}` (assumed event
 * detail) and a season's `events/last|next/{page}` lists, served from the
 * fixtures' V2 event store.
 */
import type { Fixtures } from '../fixtures/build.js';
import { eventPage } from '../fixtures/v2-events.js';
import { errorResult, json, type Router } from '../router.js';

export function register(router: Router, fixtures: Fixtures): void {
  router.add({
    method: 'GET',
    template: '/v2/:sport/api/match/:id',
    auth: true,
    counted: true,
    handler: ({ params }) => {
      const event = fixtures.otherSports.v2Events.get(params['sport'] ?? '', Number(params['id']));
      return event === undefined ? errorResult(404, 'Event not found') : json(200, { event });
    },
  });
  for (const direction of ['last', 'next'] as const) {
    router.add({
      method: 'GET',
      template: `/v2/:sport/api/tournament/:tid/season/:sid/events/${direction}/:page`,
      auth: true,
      counted: true,
      handler: ({ params }) => {
        const tid = Number(params['tid']);
        const sid = Number(params['sid']);
        const page = Number(params['page']);
        if (!Number.isInteger(page) || page < 0) return errorResult(404, 'Page not found');
        const events = fixtures.otherSports.v2Events
          .all(params['sport'] ?? '')
          .filter((e) => e.tournament.uniqueTournament?.id === tid && e.season?.id === sid);
        if (events.length === 0) return errorResult(404, 'Season not found');
        return json(200, eventPage(events, direction, page));
      },
    });
  }
}
