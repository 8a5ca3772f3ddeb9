/**
 * Version-less reference routes (spec 4.9): no key, no quota.
 */
import type { Route } from './route.js';
import { arrayOf, nullable, obj, shape, str } from './shape.js';

/**
 * `/reference/sports` payload: not shown in the spec beyond "every sport slug
 * per version". Assumption: one entry per sport, with a canonical key and its
 * slug on each version (`null` where that version does not carry the sport).
 */
export interface SportReference {
  /** Canonical key, snake case: `water_polo`, `ice_hockey`... */
  sport: string;
  name: string;
  slugs: {
    v1: string | null;
    v2: string | null;
    v3: string | null;
    v4: string | null;
    v6: string | null;
  };
}

export interface SportsReferencePayload {
  sports: SportReference[];
}

export const referenceRoutes = {
  sports: {
    version: 'v1',
    template: '/reference/sports',
    auth: false,
    counted: false,
    cacheClass: 'reference',
    build: () => ({ path: '/reference/sports', query: {} }),
    // Every slug is read (sports, v2/v3/v4 namespaces): checked whole, see shape.ts.
    accepts: shape<SportsReferencePayload>(
      obj({
        sports: arrayOf(
          obj({
            sport: str,
            name: str,
            slugs: obj({
              v1: nullable(str),
              v2: nullable(str),
              v3: nullable(str),
              v4: nullable(str),
              v6: nullable(str),
            }),
          }),
        ),
      }),
    ),
  },
} as const satisfies Record<string, Route<never, unknown>>;
