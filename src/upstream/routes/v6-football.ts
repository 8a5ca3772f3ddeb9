/**
 * V6 football routes (spec 2.10, 2.11, 4.9): team statistics of a match and
 * the stat-ID mapping that names them. Typed path builders and payload
 * types, nothing else.
 *
 * Assumptions (the spec shows neither path nor the team-stats payload):
 * - mapping route: `GET /v6/football/reference/team-stats` (DESIGN.md), no
 *   key, not counted, its own cache class `v6Mapping` (one hour);
 * - team statistics: the spec's `/api/v1/match/{matchId}/team-stats` under
 *   V6 football, so `/v6/football/api/v1/match/{matchId}/team-stats`;
 * - a team-stats payload is `{ matchId, mappingVersion, teams[] }`, each team
 *   `{ teamId, name, side, matchStats }`, `matchStats` keyed `0`/`1`/`2`
 *   (spec 2.11) with `{ period, stats: { "<statId>": "<value>" } }`;
 *   `mappingVersion` names the mapping the values were written against:
 *   the upstream's signal that the pinned mapping is out of date.
 */
import type { Route } from './route.js';
import { arrayOf, bool, int, nullable, obj, oneOf, opt, recordOf, shape, str } from './shape.js';

/** Spec 2.10. IDs are append-only; existing meanings never change. */
export interface V6StatMappingPayload {
  version: string | number;
  sport: string;
  endpoint: string;
  notes: string | string[];
  stats: Record<string, { name: string; unit: string | null; confirmed: boolean }>;
}

export interface V6PeriodBlock {
  /** Always 0 and to be ignored (spec 2.11): the key of `matchStats` is the period. */
  period: number;
  /** Statistic ID -> value as a string; an absent ID was not provided, `"0"` is a real zero. */
  stats: Record<string, string>;
}

export interface V6TeamStatsEntry {
  /** V6 IDs are opaque strings (spec 2.15). */
  teamId: string;
  name?: string;
  side?: 'home' | 'away';
  /** Spec 2.5: a bare file name, never a URL. */
  logo?: string;
  /** `0` full match, `1` first half, `2` second half. */
  matchStats: Partial<Record<'0' | '1' | '2', V6PeriodBlock>>;
}

export interface V6TeamStatsPayload {
  matchId: string;
  mappingVersion?: string | number;
  teams: V6TeamStatsEntry[];
}

/** The `version` a mapping answer is pinned to; `generation` moves when a newer one must be fetched. */
export interface V6MappingParams {
  generation: number;
}

/** What the resolvers read of each payload (the interfaces above), checked once: see shape.ts. */
const statMappingShape = obj({
  version: oneOf(str, int),
  // The mapping is what every statistic's name and unit are read by (spec 2.10): strict where present.
  stats: recordOf(obj({ name: str, unit: nullable(str), confirmed: bool })),
});
const periodBlock = opt(obj({ period: opt(int), stats: recordOf(str) }));
const teamStatsShape = obj({
  matchId: str,
  teams: arrayOf(
    obj({
      teamId: str,
      name: opt(str),
      side: opt(
        oneOf(
          (v) => v === 'home',
          (v) => v === 'away',
        ),
      ),
      logo: opt(str),
      matchStats: obj({ 0: periodBlock, 1: periodBlock, 2: periodBlock }),
    }),
  ),
  mappingVersion: opt(oneOf(str, int)),
});

export const v6FootballRoutes = {
  statMapping: {
    version: 'v6',
    template: '/v6/football/reference/team-stats',
    auth: false,
    counted: false,
    cacheClass: 'v6Mapping',
    build: (_p: V6MappingParams) => ({ path: '/v6/football/reference/team-stats', query: {} }),
    // Same request, a new cache entry per generation: see src/model/v6-mapping-pin.ts.
    cacheVariant: (p: V6MappingParams) => `generation-${p.generation}`,
    accepts: shape<V6StatMappingPayload>(statMappingShape),
  },
  teamStats: {
    version: 'v6',
    template: '/v6/football/api/v1/match/{matchId}/team-stats',
    auth: true,
    counted: true,
    cacheClass: 'v6TeamStats',
    build: (p: { matchId: string }) => ({
      path: `/v6/football/api/v1/match/${encodeURIComponent(p.matchId)}/team-stats`,
      query: {},
    }),
    accepts: shape<V6TeamStatsPayload>(teamStatsShape),
  },
} as const satisfies Record<string, Route<never, unknown>>;
