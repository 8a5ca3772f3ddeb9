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
import type { Route } from './route.js';
import { arrayOf, int, obj, opt, shape, str } from './shape.js';
import type { V2Team } from './v2.js';
import { v2Team } from './v2-shapes.js';

export interface V2CyclingCountry {
  alpha2: string;
  name: string;
  /** Riders from the country, where the route counts them (`/api/countries` only). */
  riders?: number;
}

export interface V2CyclingSearchPayload {
  results: Array<{ type: 'team'; entity: V2Team }>;
}

/** What the resolvers read, checked once (see shape.ts). */
const isCountries = shape<{ countries: V2CyclingCountry[] }>(
  obj({ countries: arrayOf(obj({ alpha2: str, name: str, riders: opt(int) })) }),
);
/** `type` is not read (every entity is a rider-as-team), so any string passes. */
const isSearch = shape<V2CyclingSearchPayload>(obj({ results: arrayOf(obj({ type: str, entity: v2Team })) }));

const countries = (all: boolean): Route<Record<string, never>, { countries: V2CyclingCountry[] }> => ({
  version: 'v2',
  template: all ? '/v2/cycling/api/countries/all' : '/v2/cycling/api/countries',
  auth: true,
  counted: true,
  cacheClass: 'v2Entity',
  build: () => ({ path: all ? '/v2/cycling/api/countries/all' : '/v2/cycling/api/countries', query: {} }),
  accepts: isCountries,
});

export const v2CyclingRoutes = {
  search: {
    version: 'v2',
    template: '/v2/cycling/api/search',
    auth: true,
    counted: true,
    cacheClass: 'search',
    build: (p: { query: string }) => ({ path: '/v2/cycling/api/search', query: { q: p.query } }),
    accepts: isSearch,
  },
  countries: countries(false),
  allCountries: countries(true),
} as const satisfies Record<string, Route<never, unknown>>;
