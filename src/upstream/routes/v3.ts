/**
 * V3 (spec 4.9): day windows per sport, `/v3/{sport}/{today|live|yesterday|tomorrow}`
 * with V3's own slugs (`water-polo`), the sport-less globals `/v3/sports`,
 * `/v3/match/{id}`, `/v3/search`, and the cycling feed at
 * `{v3_cycling_base_url}/api/v1/cycling/{window}` (spec 2.12).
 *
 * Payloads are not shown. Assumptions, served alike by the sandbox: a window
 * is `{ leagues: [{ id, name, events: V3Event[] }] }` (the cycling feed has
 * the same football-shaped structure, which is why 2.12 has to explain it);
 * `/v3/sports` is `{ sports: [{ slug, name }] }`; `/v3/match/{id}` is
 * `{ match }`; `/v3/search?q=` is `{ results: [{ type, id, name, sport }] }`.
 * V3 IDs are integers of their own.
 */
import type { Route } from './route.js';
import { any, arrayOf, date, int, num, obj, opt, str, type Check } from './shape.js';

export type V3WindowName = 'today' | 'live' | 'yesterday' | 'tomorrow';

export interface V3Team {
  id: number;
  name: string;
  shortName?: string;
}

export interface V3Event {
  id: number;
  /** ISO 8601. */
  startTime: string;
  status: 'scheduled' | 'live' | 'finished' | 'postponed';
  homeTeam: V3Team;
  awayTeam: V3Team;
  score?: { home: number; away: number } | null;
}

export interface V3League {
  id: number;
  name: string;
  country?: string;
  events: V3Event[];
}

export interface V3WindowPayload {
  leagues: V3League[];
}

export interface V3MatchPayload {
  match: V3Event & { sport: string; league: { id: number; name: string } };
}

/** `type` is `team` or `league` (assumption); V3 hits carry no country. */
export interface V3SearchHit {
  type: string;
  id: number;
  name: string;
  sport: string;
}

export interface V3SearchPayload {
  results: V3SearchHit[];
}

/** What the resolvers read of each payload (the interfaces above), checked once: see shape.ts. */
const team = obj({ id: int, name: str, shortName: opt(str) });
const eventOf = (away: Check) =>
  obj({
    id: int,
    startTime: date,
    status: str,
    homeTeam: team,
    awayTeam: away,
    score: opt(obj({ home: num, away: num })),
  });
const windowOf = (event: Check) =>
  obj({ leagues: arrayOf(obj({ id: int, name: str, country: opt(str), events: arrayOf(event) })) });
const windowShape = windowOf(eventOf(team));
const isWindow = (b: unknown): b is V3WindowPayload => windowShape(b);
/** Spec 2.12: `awayTeam` and `score` are unused in the cycling feed, so they are not required of it. */
const cyclingWindow = windowOf(obj({ id: int, startTime: opt(date), homeTeam: team, awayTeam: any }));
const isCyclingWindow = (b: unknown): b is V3WindowPayload => cyclingWindow(b);

export const v3Routes = {
  window: {
    version: 'v3',
    template: '/v3/{sport}/{window}',
    auth: true,
    counted: true,
    cacheClass: 'v3Window',
    build: (p: { sport: string; window: V3WindowName }) => ({ path: `/v3/${p.sport}/${p.window}`, query: {} }),
    accepts: isWindow,
  },
  sports: {
    version: 'v3',
    template: '/v3/sports',
    auth: true,
    counted: true,
    cacheClass: 'reference',
    build: () => ({ path: '/v3/sports', query: {} }),
    accepts: (b: unknown): b is { sports: Array<{ slug: string; name: string }> } =>
      obj({ sports: arrayOf(obj({ slug: str, name: str })) })(b),
  },
  match: {
    version: 'v3',
    template: '/v3/match/{id}',
    auth: true,
    counted: true,
    cacheClass: 'v3Window',
    build: (p: { id: number }) => ({ path: `/v3/match/${p.id}`, query: {} }),
    accepts: (b: unknown): b is V3MatchPayload =>
      obj({ match: (m: unknown) => eventOf(team)(m) && obj({ sport: str, league: obj({ id: int, name: str }) })(m) })(
        b,
      ),
  },
  search: {
    version: 'v3',
    template: '/v3/search',
    auth: true,
    counted: true,
    cacheClass: 'search',
    build: (p: { query: string }) => ({ path: '/v3/search', query: { q: p.query } }),
    accepts: (b: unknown): b is V3SearchPayload =>
      obj({ results: arrayOf(obj({ type: str, id: int, name: str, sport: str })) })(b),
  },
  cycling: {
    version: 'v3',
    template: '{v3_cycling_base_url}/api/v1/cycling/{window}',
    base: 'v3Cycling',
    auth: true,
    counted: true,
    cacheClass: 'v3Window',
    build: (p: { window: V3WindowName }) => ({ path: `/api/v1/cycling/${p.window}`, query: {} }),
    accepts: isCyclingWindow,
  },
} as const satisfies Record<string, Route<never, unknown>>;
