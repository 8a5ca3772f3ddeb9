/**
 * V2 event routes shared by every sport (spec 2.14): one event's detail and
 * the paged event lists (`.../events/last/{page}`, `.../events/next/{page}`,
 * page index from 0, as spec 4.5 and 4.7 show them).
 *
 * Assumptions (payloads not shown): a list page is `{ events, hasNextPage }`
 * and an event detail is `{ event }`, with the `V2Event` shape of `v2.ts`.
 * The sandbox serves the same shapes.
 */
import { v2EventKey, v2Sighting } from './match-sightings.js';
import { isObject, type Route } from './route.js';
import type { V2Event, V2SportParam } from './v2.js';
import { v2Event, v2Events } from './v2-shapes.js';

export interface V2EventsPage {
  events: V2Event[];
  hasNextPage: boolean;
}

export interface V2EventPayload {
  event: V2Event;
}

export function isEventsPage(body: unknown): body is V2EventsPage {
  return isObject(body) && v2Events(body['events']) && typeof body['hasNextPage'] === 'boolean';
}

export function isEventList(body: unknown): body is { events: V2Event[] } {
  return isObject(body) && v2Events(body['events']);
}

type SeasonEventsParams = V2SportParam & {
  tournamentId: number;
  seasonId: number;
  direction: 'last' | 'next';
  page: number;
};

export const v2EventRoutes = {
  /** Assumption: `/api/match/{id}` is the event detail (the spec names `/api/match/{matchId}/...` sub-routes). */
  event: {
    version: 'v2',
    template: '/v2/{sport}/api/match/{id}',
    auth: true,
    counted: true,
    cacheClass: 'v2Events',
    build: (p: V2SportParam & { id: number }) => ({ path: `/v2/${p.sport}/api/match/${p.id}`, query: {} }),
    accepts: (body: unknown): body is V2EventPayload => isObject(body) && v2Event(body['event']),
    // The event's own detail shows its state; a page of events takes the shortest of its events'.
    match: {
      match: (p: V2SportParam & { id: number }) => v2EventKey(p.sport, p.id),
      sightings: (payload: V2EventPayload, p: V2SportParam & { id: number }) => [v2Sighting(p.sport, payload.event)],
    },
  },
  /** Spec 4.7 shows `/events/next/:page`; `/events/last/:page` is assumed as its finished-events counterpart. */
  seasonEvents: {
    version: 'v2',
    template: '/v2/{sport}/api/tournament/{tid}/season/{sid}/events/{direction}/{page}',
    auth: true,
    counted: true,
    cacheClass: 'v2Events',
    build: (p: SeasonEventsParams) => ({
      path: `/v2/${p.sport}/api/tournament/${p.tournamentId}/season/${p.seasonId}/events/${p.direction}/${p.page}`,
      query: {},
    }),
    accepts: isEventsPage,
    match: {
      sightings: (payload: V2EventsPage, p: SeasonEventsParams) =>
        payload.events.map((event) => v2Sighting(p.sport, event)),
    },
  },
} as const satisfies Record<string, Route<never, unknown>>;
