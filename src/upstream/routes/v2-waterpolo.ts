/**
 * Water polo V2 (spec 4.9): `/v2/waterpolo/live` and `/v2/waterpolo/api/live`
 * resolve identically (the `/api` prefix is optional on water polo V2). The
 * gateway asks the `/api` form, like every other V2 route, so both spellings
 * share one cache entry. Payload assumed `{ events: V2Event[] }`.
 */
import { isEventList } from './v2-events.js';
import type { Route } from './route.js';
import type { V2Event } from './v2.js';

export const v2WaterPoloRoutes = {
  live: {
    version: 'v2',
    template: '/v2/waterpolo/api/live',
    auth: true,
    counted: true,
    cacheClass: 'v2Live',
    build: () => ({ path: '/v2/waterpolo/api/live', query: {} }),
    accepts: (b: unknown): b is { events: V2Event[] } => isEventList(b),
  },
} as const satisfies Record<string, Route<never, unknown>>;
