/**
 * Aussie rules V2, the 13 endpoints of spec 4.5. Base `{base_url}/v2/aussie-rules`.
 * Manager = senior coach, referee = umpire, venue = ground.
 *
 * Paths are the spec's. Payloads are not shown; assumptions, served alike by
 * the sandbox:
 *   /api/manager/:id                                   { manager: AussieCoach }
 *   /api/manager/:id/career                            { career: AussieCareerEntry[] }
 *   /api/manager/:id/tournament/:tid/season/:sid/statistics, and the referee's
 *                                                      { statistics: Record<string, number> }
 *   /api/referee/:id                                   { referee: AussieUmpire }
 *   /api/venue/:id                                     { venue: V2Venue & { surface?, opened? } }
 *   .../events/last|next/:page                         { events, hasNextPage } (page from 0)
 *   /api/manager/:id/image, /api/referee/:id/image     image bytes: served through the
 *     gateway's image layer (`/images/v2/aussie-rules/managers|referees/{id}`), not as JSON.
 */
import { isEventsPage, type V2EventsPage } from './v2-events.js';
import { isObject, type Route } from './route.js';
import type { V2Ref, V2Venue } from './v2.js';

const BASE = '/v2/aussie-rules/api';

export interface AussieCoach {
  id: number;
  name: string;
  shortName?: string;
  nationality?: string;
  dateOfBirthTimestamp?: number;
  team?: V2Ref;
}

export interface AussieCareerEntry {
  team: V2Ref;
  role: string;
  startTimestamp: number;
  endTimestamp?: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

export interface AussieUmpire {
  id: number;
  name: string;
  country?: { name: string };
  /** Career games umpired. */
  games?: number;
  debutTimestamp?: number;
}

export type AussieGround = V2Venue & { surface?: string; opened?: number };

export interface SeasonStatisticsPayload {
  statistics: Record<string, number>;
}

type Kind = 'manager' | 'referee' | 'venue';

const detail = <T>(kind: Kind, accepts: (body: unknown) => body is T): Route<{ id: number }, T> => ({
  version: 'v2',
  template: `${BASE}/${kind}/{id}`,
  auth: true,
  counted: true,
  cacheClass: 'v2Season',
  build: (p) => ({ path: `${BASE}/${kind}/${p.id}`, query: {} }),
  accepts,
});

const events = (kind: Kind, direction: 'last' | 'next'): Route<{ id: number; page: number }, V2EventsPage> => ({
  version: 'v2',
  template: `${BASE}/${kind}/{id}/events/${direction}/{page}`,
  auth: true,
  counted: true,
  cacheClass: 'v2Events',
  build: (p) => ({ path: `${BASE}/${kind}/${p.id}/events/${direction}/${p.page}`, query: {} }),
  accepts: isEventsPage,
});

const seasonStatistics = (kind: Kind): Route<{ id: number; tournamentId: number; seasonId: number }, SeasonStatisticsPayload> => ({
  version: 'v2',
  template: `${BASE}/${kind}/{id}/tournament/{tid}/season/{sid}/statistics`,
  auth: true,
  counted: true,
  cacheClass: 'v2Season',
  build: (p) => ({ path: `${BASE}/${kind}/${p.id}/tournament/${p.tournamentId}/season/${p.seasonId}/statistics`, query: {} }),
  accepts: (b: unknown): b is SeasonStatisticsPayload => isObject(b) && isObject(b['statistics']),
});

export const v2AussieRulesRoutes = {
  manager: detail('manager', (b): b is { manager: AussieCoach } => isObject(b) && isObject(b['manager'])),
  managerCareer: {
    version: 'v2',
    template: `${BASE}/manager/{id}/career`,
    auth: true,
    counted: true,
    cacheClass: 'v2Season',
    build: (p: { id: number }) => ({ path: `${BASE}/manager/${p.id}/career`, query: {} }),
    accepts: (b: unknown): b is { career: AussieCareerEntry[] } => isObject(b) && Array.isArray(b['career']),
  },
  managerLastEvents: events('manager', 'last'),
  managerSeasonStatistics: seasonStatistics('manager'),
  referee: detail('referee', (b): b is { referee: AussieUmpire } => isObject(b) && isObject(b['referee'])),
  refereeSeasonStatistics: seasonStatistics('referee'),
  refereeLastEvents: events('referee', 'last'),
  refereeNextEvents: events('referee', 'next'),
  venue: detail('venue', (b): b is { venue: AussieGround } => isObject(b) && isObject(b['venue'])),
  venueLastEvents: events('venue', 'last'),
  venueNextEvents: events('venue', 'next'),
} as const satisfies Record<string, Route<never, unknown>>;

/** The two image endpoints, as the gateway's image URLs name them. */
export const aussieRulesImagePath = (kind: 'managers' | 'referees', id: number): string => `/images/v2/aussie-rules/${kind}/${id}`;
