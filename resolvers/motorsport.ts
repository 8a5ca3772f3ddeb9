/**
 * Motorsport V2 (stages carry a winner only; constructor tables at season
 * level) and water polo V2 `/live`.
 */
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { toGlobalId } from '../src/model/global-id.js';
import { integerId } from '../src/model/native-id.js';
import { v2EventModel } from '../src/model/v2-event.js';
import { requireV2Sport } from '../src/model/v2-namespace.js';
import { knownGap } from '../src/upstream/known-gaps.js';
import { v2MotorsportRoutes } from '../src/upstream/routes/v2-motorsport.js';
import { v2WaterPoloRoutes } from '../src/upstream/routes/v2-waterpolo.js';

const SLUG = 'motorsport';
const stageGap = (route: string) => (): never => {
  throw knownGap('motorsportStageDetail', `/api/stage/{id}/${route}`);
};

export const motorsportResolvers: Resolvers = {
  V2: {
    motorsport: (ns) => {
      requireV2Sport(ns, ['MOTORSPORT'], 'motorsport');
      return ns;
    },
    waterPolo: (ns) => {
      requireV2Sport(ns, ['WATER_POLO'], 'waterPolo');
      return ns;
    },
  },
  V2Motorsport: {
    seasonStages: async (_, { seasonId }, ctx) => {
      const season = integerId(seasonId, 'season id');
      return (await ctx.upstream.load(v2MotorsportRoutes.seasonStages, { seasonId: season })).stages;
    },
    stage: async (_, { id }, ctx) =>
      (await ctx.upstream.load(v2MotorsportRoutes.stage, { id: integerId(id, 'stage id') })).stage,
    constructorStandings: async (_, { seasonId }, ctx) =>
      (await ctx.upstream.load(v2MotorsportRoutes.constructorStandings, { seasonId: integerId(seasonId, 'season id') }))
        .standings,
  },
  MotorsportStage: {
    id: (s) =>
      // One stage, one ID wherever it is listed (a season, a parent, by ID): node(id:) reads `/api/stage/{id}`.
      toGlobalId({ version: 'v2', sport: SLUG, typeName: 'MotorsportStage', nativeId: String(s.id) }),
    ref: (s) => ({ version: 'V2', nativeId: String(s.id), sport: SLUG }),
    startTime: (s) => new Date(s.startTimestamp * 1000),
    status: (s) => ({
      live: s.status.type === 'inprogress',
      finished: s.status.type === 'finished',
      description: s.status.type,
      code: null,
    }),
    circuit: (s) => s.circuit ?? null,
    country: (s) => s.country?.name ?? null,
    winner: (s) => s.winner ?? null,
    substages: async (s, _, ctx) => {
      return (await ctx.upstream.load(v2MotorsportRoutes.substages, { id: s.id })).stages;
    },
    results: stageGap('results'),
    classification: stageGap('classification'),
    standings: stageGap('standings'),
    laps: stageGap('laps'),
    startGrid: stageGap('startgrid'),
    raw: (s) => s,
  },
  V2WaterPolo: {
    live: async (_, __, ctx) =>
      (await ctx.upstream.load(v2WaterPoloRoutes.live, {})).events.map((e) => v2EventModel('waterpolo', e)),
  },
};
