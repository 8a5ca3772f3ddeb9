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
import type { Route } from './route.js';
import { allOf, arrayOf, epochSeconds, int, obj, opt, shape, str } from './shape.js';
import type { V2Ref, V2Venue } from './v2.js';
import { v2Ref, v2Statistics, v2Venue } from './v2-shapes.js';

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

/** What the resolvers read of each payload (the interfaces above), checked once: see shape.ts. */
const coach = obj({
  id: int,
  name: str,
  shortName: opt(str),
  nationality: opt(str),
  dateOfBirthTimestamp: opt(epochSeconds),
  team: opt(v2Ref),
});
const careerEntry = obj({
  team: v2Ref,
  role: str,
  startTimestamp: epochSeconds,
  endTimestamp: opt(epochSeconds),
  games: int,
  wins: int,
  draws: int,
  losses: int,
});
const umpire = obj({
  id: int,
  name: str,
  country: opt(obj({ name: str })),
  games: opt(int),
  debutTimestamp: opt(epochSeconds),
});
const ground = allOf(v2Venue, obj({ surface: opt(str), opened: opt(int) }));

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

const seasonStatistics = (
  kind: Kind,
): Route<{ id: number; tournamentId: number; seasonId: number }, SeasonStatisticsPayload> => ({
  version: 'v2',
  template: `${BASE}/${kind}/{id}/tournament/{tid}/season/{sid}/statistics`,
  auth: true,
  counted: true,
  cacheClass: 'v2Season',
  build: (p) => ({
    path: `${BASE}/${kind}/${p.id}/tournament/${p.tournamentId}/season/${p.seasonId}/statistics`,
    query: {},
  }),
  accepts: shape<SeasonStatisticsPayload>(obj({ statistics: v2Statistics })),
});

export const v2AussieRulesRoutes = {
  manager: detail('manager', shape<{ manager: AussieCoach }>(obj({ manager: coach }))),
  managerCareer: {
    version: 'v2',
    template: `${BASE}/manager/{id}/career`,
    auth: true,
    counted: true,
    cacheClass: 'v2Season',
    build: (p: { id: number }) => ({ path: `${BASE}/manager/${p.id}/career`, query: {} }),
    accepts: shape<{ career: AussieCareerEntry[] }>(obj({ career: arrayOf(careerEntry) })),
  },
  managerLastEvents: events('manager', 'last'),
  managerSeasonStatistics: seasonStatistics('manager'),
  referee: detail('referee', shape<{ referee: AussieUmpire }>(obj({ referee: umpire }))),
  refereeSeasonStatistics: seasonStatistics('referee'),
  refereeLastEvents: events('referee', 'last'),
  refereeNextEvents: events('referee', 'next'),
  venue: detail('venue', shape<{ venue: AussieGround }>(obj({ venue: ground }))),
  venueLastEvents: events('venue', 'last'),
  venueNextEvents: events('venue', 'next'),
} as const satisfies Record<string, Route<never, unknown>>;

/** The two image endpoints, as the gateway's image URLs name them. */
export const aussieRulesImagePath = (kind: 'managers' | 'referees', id: number): string =>
  `/images/v2/aussie-rules/${kind}/${id}`;
