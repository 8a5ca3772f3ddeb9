/**
 * V2 manager routes beyond the details (spec 4.5, 4.8): last events on
 * every sport, career on football only (the image is an image route:
 * src/upstream/routes/images.ts). Typed path builders and
 * payload types only.
 *
 * Assumptions:
 * - events take the path spec 4.5 shows for Aussie rules, on every sport:
 *   `/v2/{sport}/api/manager/{id}/events/last/{page}` (`{ events, hasNextPage }`);
 * - the football career path is not shown (spec 4.8): assumed
 *   `/v2/football/api/manager/{id}/career`, payload `{ career: [...] }`.
 *   `/api/managers/{id}/career` (404 everywhere) and `/career` /
 *   `/career-history` on the sports spec 4.8 lists are never requested:
 *   src/upstream/known-gaps.ts.
 */
import type { Route } from './route.js';
import { arrayOf, date, int, obj, opt, shape } from './shape.js';
import { isEventsPage, type V2EventsPage } from './v2-events.js';
import type { V2Ref, V2SportParam } from './v2.js';
import { v2Ref } from './v2-shapes.js';

export interface V2CareerStint {
  team: V2Ref;
  /** ISO date. */
  start: string;
  /** ISO date; absent for the current job. */
  end?: string;
  matches: number;
  wins: number;
  draws: number;
  losses: number;
}

export interface V2ManagerCareerPayload {
  career: V2CareerStint[];
}

/** What the resolvers read, checked once (see shape.ts). */
const careerStint = obj({ team: v2Ref, start: date, end: opt(date), matches: int, wins: int, draws: int, losses: int });

export const v2ManagerRoutes = {
  lastEvents: {
    version: 'v2',
    template: '/v2/{sport}/api/manager/{id}/events/last/{page}',
    auth: true,
    counted: true,
    cacheClass: 'v2Manager',
    build: (p: V2SportParam & { id: number; page: number }) => ({
      path: `/v2/${p.sport}/api/manager/${p.id}/events/last/${p.page}`,
      query: {},
    }),
    accepts: (body: unknown): body is V2EventsPage => isEventsPage(body),
  },
  footballCareer: {
    version: 'v2',
    template: '/v2/football/api/manager/{id}/career',
    auth: true,
    counted: true,
    cacheClass: 'v2Manager',
    build: (p: { id: number }) => ({ path: `/v2/football/api/manager/${p.id}/career`, query: {} }),
    accepts: shape<V2ManagerCareerPayload>(obj({ career: arrayOf(careerStint) })),
  },
} as const satisfies Record<string, Route<never, unknown>>;
