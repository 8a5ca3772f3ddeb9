/**
 * Water polo V2 `/live` (spec 4.9): with or without the `/api` prefix, the
 * same answer. Payload assumed `{ events: V2Event[] }`.
 */
import type { Fixtures } from '../fixtures/build.js';
import { json, type RouteContext, type RouteResult, type Router } from '../router.js';

export function register(router: Router, fixtures: Fixtures): void {
  const { waterPolo } = fixtures.otherSports;
  const add = (template: string, handler: (ctx: RouteContext) => RouteResult) =>
    router.add({ method: 'GET', template, auth: true, counted: true, handler });

  // Water polo: the `/api` prefix is optional (spec 4.9).
  const live = () => json(200, { events: waterPolo.live });
  add('/v2/waterpolo/live', live);
  add('/v2/waterpolo/api/live', live);
}
