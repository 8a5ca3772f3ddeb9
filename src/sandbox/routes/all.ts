/**
 * Every route group the sandbox serves. A new group (V2, images, World Cup...)
 * is one module exporting `register` and one line here.
 */
import type { Fixtures } from '../fixtures/build.js';
import type { Router } from '../router.js';
import * as reference from './reference.js';
import * as search from './search.js';
import * as v1Hockey from './v1-hockey.js';
import * as v2Entities from './v2-entities.js';

export interface RouteGroup {
  register(router: Router, fixtures: Fixtures): void;
}

export const routeGroups: readonly RouteGroup[] = [reference, search, v1Hockey, v2Entities];

export function registerAll(router: Router, fixtures: Fixtures): Router {
  for (const group of routeGroups) group.register(router, fixtures);
  return router;
}
