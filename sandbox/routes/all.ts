/**
 * Every route group the sandbox serves. A new group (V2, images, World Cup...)
 * is one module exporting `register` and one line here.
 */
import type { Fixtures } from '../fixtures/build.js';
import type { Router } from '../router.js';
import * as images from './images.js';
import * as reference from './reference.js';
import * as search from './search.js';
import * as v1Hockey from './v1-hockey.js';
import * as v2Entities from './v2-entities.js';
import * as worldCupV1 from './world-cup-v1.js';
import * as v6Football from './v6-football.js';
import * as worldCupV2 from './world-cup-v2.js';
import * as footballV2 from './football-v2.js';
import * as managersV2 from './managers-v2.js';
import * as v2Events from './v2-events.js';
import * as v2Hockey from './v2-hockey.js';
import * as v2Baseball from './v2-baseball.js';
import * as v2AussieRules from './v2-aussie-rules.js';
import * as v6Baseball from './v6-baseball.js';
import * as v3 from './v3.js';
import * as v2Cycling from './v2-cycling.js';
import * as v2Search from './v2-search.js';
import * as v2Motorsport from './v2-motorsport.js';
import * as v2WaterPolo from './v2-waterpolo.js';
import * as v4 from './v4.js';

export interface RouteGroup {
  register(router: Router, fixtures: Fixtures): void;
}

export const routeGroups: readonly RouteGroup[] = [
  reference,
  search,
  v1Hockey,
  v2Entities,
  worldCupV1,
  v6Football,
  worldCupV2,
  footballV2,
  managersV2,
  images,
  v2Events,
  v2Hockey,
  v2Baseball,
  v2AussieRules,
  v6Baseball,
  v3,
  v2Cycling,
  v2Search,
  v2Motorsport,
  v2WaterPolo,
  v4,
];

export function registerAll(router: Router, fixtures: Fixtures): Router {
  for (const group of routeGroups) group.register(router, fixtures);
  return router;
}
