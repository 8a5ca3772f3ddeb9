/**
 * Motorsport V2 (spec 2.13, 4.9). Stages and sub-stages carry `winner` only:
 * no results, positions 2..N, gaps, laps, grid or per-race points. Their
 * `/results`, `/classification`, `/standings`, `/laps`, `/startgrid` 404 and
 * are never requested (known-gaps.ts). Constructor championship tables
 * exist at season level.
 *
 * Paths and payloads are not shown; assumptions, served alike by the sandbox:
 *   /v2/motorsport/api/season/{sid}/stages                 { stages: MotorsportStage[] }
 *   /v2/motorsport/api/stage/{id}                          { stage: MotorsportStage }
 *   /v2/motorsport/api/stage/{id}/substages                { stages: MotorsportStage[] }
 *   /v2/motorsport/api/season/{sid}/standings/constructors { standings: ConstructorStanding[] }
 */
import type { Route } from './route.js';
import { arrayOf, epochSeconds, int, num, obj, opt, str } from './shape.js';
import { v2Ref } from './v2-shapes.js';
import type { V2Ref } from './v2.js';

export interface MotorsportStage {
  id: number;
  name: string;
  /** `event` (a race weekend), `practice`, `qualifying`, `sprint`, `race`. */
  type: string;
  startTimestamp: number;
  status: { type: 'notstarted' | 'inprogress' | 'finished' };
  country?: { name: string };
  circuit?: string;
  /** The only result a stage carries (spec 2.13). */
  winner?: V2Ref;
  season?: { id: number; name: string };
}

export interface ConstructorStanding {
  position: number;
  team: V2Ref;
  points: number;
  wins: number;
}

const base = '/v2/motorsport/api';
/** What the resolvers read of each payload (the interfaces above), checked once: see shape.ts. */
const stage = obj({
  id: int,
  name: str,
  type: str,
  startTimestamp: epochSeconds,
  status: obj({ type: str }),
  country: opt(obj({ name: str })),
  circuit: opt(str),
  winner: opt(v2Ref),
  season: opt(obj({ id: int, name: str })),
});
const stages = (b: unknown): b is { stages: MotorsportStage[] } => obj({ stages: arrayOf(stage) })(b);

export const v2MotorsportRoutes = {
  seasonStages: {
    version: 'v2',
    template: `${base}/season/{sid}/stages`,
    auth: true,
    counted: true,
    cacheClass: 'v2Season',
    build: (p: { seasonId: number }) => ({ path: `${base}/season/${p.seasonId}/stages`, query: {} }),
    accepts: stages,
  },
  stage: {
    version: 'v2',
    template: `${base}/stage/{id}`,
    auth: true,
    counted: true,
    cacheClass: 'v2Season',
    build: (p: { id: number }) => ({ path: `${base}/stage/${p.id}`, query: {} }),
    accepts: (b: unknown): b is { stage: MotorsportStage } => obj({ stage })(b),
  },
  substages: {
    version: 'v2',
    template: `${base}/stage/{id}/substages`,
    auth: true,
    counted: true,
    cacheClass: 'v2Season',
    build: (p: { id: number }) => ({ path: `${base}/stage/${p.id}/substages`, query: {} }),
    accepts: stages,
  },
  constructorStandings: {
    version: 'v2',
    template: `${base}/season/{sid}/standings/constructors`,
    auth: true,
    counted: true,
    cacheClass: 'v2Season',
    build: (p: { seasonId: number }) => ({ path: `${base}/season/${p.seasonId}/standings/constructors`, query: {} }),
    accepts: (b: unknown): b is { standings: ConstructorStanding[] } =>
      obj({ standings: arrayOf(obj({ position: int, team: v2Ref, points: num, wins: int })) })(b),
  },
} as const satisfies Record<string, Route<never, unknown>>;
