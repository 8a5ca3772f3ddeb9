/**
 * Version-less reference routes (spec 4.9): no key, no quota.
 */
import { isObject, type Route } from './route.js';

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
    accepts: (body: unknown): body is SportsReferencePayload =>
      isObject(body) && Array.isArray(body['sports']),
  },
} as const satisfies Record<string, Route<never, unknown>>;
