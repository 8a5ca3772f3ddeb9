/**
 * The `v6` namespace and V6 football team statistics (spec 2.10, 2.11, 4.9).
 * The reading rules live in src/model/v6-team-stats.ts, the version pin in
 * src/model/v6-mapping-pin.ts.
 */
import type { LoaderPort, UpstreamCachePort } from '../src/loaders/loader-ports.js';
import type { Resolvers, V6Period } from '../src/generated/resolvers-types.js';
import { toGlobalId } from '../src/model/global-id.js';
import { namespace } from '../src/model/namespace.js';
import { loadStatMapping } from '../src/model/v6-mapping-pin.js';
import {
  periodOf,
  statOf,
  statsOf,
  TOTAL_SHOTS,
  TOTAL_SHOTS_DUPLICATE,
  UNCONFIRMED_IDS,
  v6Periods,
  type V6MatchTeamStatsModel,
  type V6PeriodKey,
} from '../src/model/v6-team-stats.js';
import { opaqueV6Id } from '../src/model/v6-id.js';
import { v6FootballRoutes } from '../src/upstream/routes/v6-football.js';

const SPORT = 'football';

/** The mapping the values are named with: the one loaded with the payload, else the one it names (free, not counted). */
const mappingOf = (model: V6MatchTeamStatsModel, ctx: LoaderPort & UpstreamCachePort) =>
  model.mapping ??
  loadStatMapping(ctx, model.payload.mappingVersion === undefined ? undefined : String(model.payload.mappingVersion));

const periodName = (key: V6PeriodKey): V6Period =>
  (Object.entries(v6Periods).find(([, value]) => value === key)?.[0] ?? 'FULL_MATCH') as V6Period;

export const v6FootballResolvers: Resolvers = {
  Query: {
    v6: () => namespace('v6'),
  },
  V6: {
    football: () => namespace('v6.football'),
  },
  V6Football: {
    statMapping: (_, __, ctx) => loadStatMapping(ctx),
    teamStats: async (_, { matchId }, ctx) => {
      const payload = await ctx.upstream.load(v6FootballRoutes.teamStats, { matchId: opaqueV6Id(matchId, 'matchId') });
      const mapping = await loadStatMapping(
        ctx,
        payload.mappingVersion === undefined ? undefined : String(payload.mappingVersion),
      );
      return { payload, mapping };
    },
  },
  V6StatMapping: {
    version: (mapping) => String(mapping.version),
    notes: (mapping) => (Array.isArray(mapping.notes) ? mapping.notes : [mapping.notes]),
    stats: (mapping) =>
      Object.entries(mapping.stats)
        .map(([key, definition]) => ({
          statId: Number(key),
          name: definition.name,
          unit: definition.unit,
          confirmed: UNCONFIRMED_IDS.has(Number(key)) ? false : definition.confirmed,
        }))
        .filter((definition) => Number.isInteger(definition.statId))
        .sort((a, b) => a.statId - b.statId),
    raw: (mapping) => mapping,
  },
  V6StatDefinition: {
    duplicateOf: (definition) => (definition.statId === TOTAL_SHOTS_DUPLICATE ? TOTAL_SHOTS : null),
  },
  V6MatchTeamStats: {
    id: ({ payload }) =>
      toGlobalId({ version: 'v6', sport: SPORT, typeName: 'V6MatchTeamStats', nativeId: payload.matchId }),
    ref: ({ payload }) => ({ version: 'V6', nativeId: payload.matchId, sport: SPORT }),
    mappingVersion: ({ payload }) => (payload.mappingVersion === undefined ? null : String(payload.mappingVersion)),
    namedWith: async (model, _, ctx) => String((await mappingOf(model, ctx)).version),
    teams: async (model, _, ctx) => {
      const mapping = await mappingOf(model, ctx);
      return model.payload.teams.map((team) => ({ team, mapping }));
    },
    raw: ({ payload }) => payload,
  },
  V6TeamStats: {
    teamId: ({ team }) => team.teamId,
    name: ({ team }) => team.name ?? null,
    side: ({ team }) => team.side ?? null,
    fullMatch: (model) => periodOf(model, v6Periods.FULL_MATCH),
    firstHalf: (model) => periodOf(model, v6Periods.FIRST_HALF),
    secondHalf: (model) => periodOf(model, v6Periods.SECOND_HALF),
    period: (model, { period }) => periodOf(model, v6Periods[period]),
    raw: ({ team }) => team,
  },
  V6PeriodStats: {
    period: (model) => periodName(model.period),
    provided: (model) => model.block !== undefined,
    stats: (model) => statsOf(model),
    stat: (model, { id }) => statOf(model, id),
  },
};
