/**
 * Aussie rules V2 (spec 4.5): senior coaches, umpires and grounds, each with
 * their season statistics, careers and paged last/next events.
 */
import type { ResolverContext } from '../src/context.js';
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { toGlobalId } from '../src/model/global-id.js';
import { integerId } from '../src/model/native-id.js';
import { tagType } from '../src/model/typename.js';
import { v2EventConnection } from '../src/model/v2-event.js';
import { requireV2Sport } from '../src/model/v2-namespace.js';
import {
  aussieRulesImagePath,
  v2AussieRulesRoutes,
  type AussieCoach,
  type AussieGround,
  type AussieUmpire,
} from '../src/upstream/routes/v2-aussie-rules.js';

const SLUG = 'aussie-rules';
const ref = (id: number) => ({ version: 'V2' as const, nativeId: String(id), sport: SLUG });
const gid = (typeName: string, id: number) =>
  toGlobalId({ version: 'v2', sport: SLUG, typeName, nativeId: String(id) });
// `== null`: the shape check lets an optional timestamp be absent or null, and null must not read as 1970.
const date = (seconds: number | null | undefined) => (seconds == null ? null : new Date(seconds * 1000));
const statistics = (values: Record<string, number>) => Object.entries(values).map(([name, value]) => ({ name, value }));
const season = (args: { tournamentId: string; seasonId: string }) => ({
  tournamentId: integerId(args.tournamentId, 'tournament id'),
  seasonId: integerId(args.seasonId, 'season id'),
});

export async function loadAussieCoach(ctx: ResolverContext, id: number): Promise<AussieCoach> {
  return tagType((await ctx.upstream.load(v2AussieRulesRoutes.manager, { id })).manager, 'AussieRulesCoach');
}
export async function loadAussieUmpire(ctx: ResolverContext, id: number): Promise<AussieUmpire> {
  return tagType((await ctx.upstream.load(v2AussieRulesRoutes.referee, { id })).referee, 'AussieRulesUmpire');
}
export async function loadAussieGround(ctx: ResolverContext, id: number): Promise<AussieGround> {
  return tagType((await ctx.upstream.load(v2AussieRulesRoutes.venue, { id })).venue, 'AussieRulesGround');
}

export const aussieRulesResolvers: Resolvers = {
  V2: {
    aussieRules: (ns) => {
      requireV2Sport(ns, ['AUSSIE_RULES'], 'aussieRules');
      return ns;
    },
  },
  V2AussieRules: {
    coach: (_, { id }, ctx) => loadAussieCoach(ctx, integerId(id, 'coach id')),
    umpire: (_, { id }, ctx) => loadAussieUmpire(ctx, integerId(id, 'umpire id')),
    ground: (_, { id }, ctx) => loadAussieGround(ctx, integerId(id, 'ground id')),
  },
  AussieRulesCoach: {
    id: (c) => gid('AussieRulesCoach', c.id),
    ref: (c) => ref(c.id),
    shortName: (c) => c.shortName ?? null,
    nationality: (c) => c.nationality ?? null,
    dateOfBirth: (c) => date(c.dateOfBirthTimestamp),
    team: (c) => c.team ?? null,
    image: (c) => ({ url: aussieRulesImagePath('managers', c.id), version: 'V2', placeholder: null }),
    career: async (c, _, ctx) => (await ctx.upstream.load(v2AussieRulesRoutes.managerCareer, { id: c.id })).career,
    seasonStatistics: async (c, args, ctx) =>
      statistics(
        (await ctx.upstream.load(v2AussieRulesRoutes.managerSeasonStatistics, { id: c.id, ...season(args) }))
          .statistics,
      ),
    lastEvents: (c, args, ctx) =>
      v2EventConnection(
        SLUG,
        (page) => ctx.upstream.load(v2AussieRulesRoutes.managerLastEvents, { id: c.id, page }),
        args,
      ),
    raw: (c) => c,
  },
  AussieRulesCareerEntry: {
    start: (e) => date(e.startTimestamp),
    end: (e) => date(e.endTimestamp),
  },
  AussieRulesUmpire: {
    id: (u) => gid('AussieRulesUmpire', u.id),
    ref: (u) => ref(u.id),
    country: (u) => u.country?.name ?? null,
    games: (u) => u.games ?? null,
    debut: (u) => date(u.debutTimestamp),
    image: (u) => ({ url: aussieRulesImagePath('referees', u.id), version: 'V2', placeholder: null }),
    seasonStatistics: async (u, args, ctx) =>
      statistics(
        (await ctx.upstream.load(v2AussieRulesRoutes.refereeSeasonStatistics, { id: u.id, ...season(args) }))
          .statistics,
      ),
    lastEvents: (u, args, ctx) =>
      v2EventConnection(
        SLUG,
        (page) => ctx.upstream.load(v2AussieRulesRoutes.refereeLastEvents, { id: u.id, page }),
        args,
      ),
    nextEvents: (u, args, ctx) =>
      v2EventConnection(
        SLUG,
        (page) => ctx.upstream.load(v2AussieRulesRoutes.refereeNextEvents, { id: u.id, page }),
        args,
      ),
    raw: (u) => u,
  },
  AussieRulesGround: {
    id: (g) => gid('AussieRulesGround', g.id),
    ref: (g) => ref(g.id),
    city: (g) => g.city ?? null,
    country: (g) => g.country ?? null,
    capacity: (g) => g.capacity ?? null,
    coordinates: (g) => g.coordinates ?? null,
    surface: (g) => g.surface ?? null,
    opened: (g) => g.opened ?? null,
    lastEvents: (g, args, ctx) =>
      v2EventConnection(
        SLUG,
        (page) => ctx.upstream.load(v2AussieRulesRoutes.venueLastEvents, { id: g.id, page }),
        args,
      ),
    nextEvents: (g, args, ctx) =>
      v2EventConnection(
        SLUG,
        (page) => ctx.upstream.load(v2AussieRulesRoutes.venueNextEvents, { id: g.id, page }),
        args,
      ),
    raw: (g) => g,
  },
};
