/**
 * V2 cycling (spec 4.9): an entity feed only, `/api/search`, `/api/countries`,
 * `/api/countries/all`, `/api/teams/{id}` (riders are modelled as teams;
 * there is no `/api/players/{id}` for cycling). `/api/live`, `/api/today`,
 * `/api/schedule/{date}`, `/api/live-tournaments` and
 * `/api/scheduled-tournaments/{date}` are always empty: they are in
 * known-gaps.ts and never requested.
 *
 * Assumptions (not shown): `/api/search?q=` answers `{ results: [{ type,
 * entity }] }` and the country routes `{ countries: [{ alpha2, name }] }`.
 */
import { isObject, type Route } from './route.js';
import type { V2Team } from './v2.js';

export interface V2CyclingCountry {
  alpha2: string;
  name: string;
  /** Riders from the country, where the route counts them (`/api/countries` only). */
  riders?: number;
}

export interface V2CyclingSearchPayload {
  results: Array<{ type: 'team'; entity: V2Team }>;
}

const countries = (all: boolean): Route<Record<string, never>, { countries: V2CyclingCountry[] }> => ({
  version: 'v2',
  template: all ? '/v2/cycling/api/countries/all' : '/v2/cycling/api/countries',
  auth: true,
  counted: true,
  cacheClass: 'v2Entity',
  build: () => ({ path: all ? '/v2/cycling/api/countries/all' : '/v2/cycling/api/countries', query: {} }),
  accepts: (b: unknown): b is { countries: V2CyclingCountry[] } => isObject(b) && Array.isArray(b['countries']),
});

export const v2CyclingRoutes = {
  search: {
    version: 'v2',
    template: '/v2/cycling/api/search',
    auth: true,
    counted: true,
    cacheClass: 'search',
    build: (p: { query: string }) => ({ path: '/v2/cycling/api/search', query: { q: p.query } }),
    accepts: (b: unknown): b is V2CyclingSearchPayload => isObject(b) && Array.isArray(b['results']),
  },
  countries: countries(false),
  allCountries: countries(true),
} as const satisfies Record<string, Route<never, unknown>>;
