/**
 * V2 football (spec 4.7, 4.8): the World Cup 2026 shortcuts, discovery, and
 * the cross-version `worldCup` field (V1 5930 beside V2 16 / 58210).
 */
import type { ResolverContext } from '../src/context.js';
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { byPosition } from '../src/model/by-position.js';
import { integerId } from '../src/model/native-id.js';
import { tagType } from '../src/model/typename.js';
import type { V2TeamModel } from '../src/model/v2-entities.js';
import { v2EventConnection, v2EventModel, v2TeamFromRef } from '../src/model/v2-event.js';
import {
  catalogueConnection,
  catalogueEntryModel,
  categoriesOf,
  filterCatalogue,
  type V2FootballScope,
} from '../src/model/v2-football.js';
import { requireV2Sport, v2Slug } from '../src/model/v2-namespace.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';
import { WORLD_CUP_V1_COMPETITION_ID } from '../src/upstream/routes/v1-world-cup.js';
import { v2EventRoutes } from '../src/upstream/routes/v2-events.js';
import { v2FootballRoutes, type V2CatalogueTournament } from '../src/upstream/routes/v2-football.js';
import type { V2Ref, V2Team } from '../src/upstream/routes/v2.js';

/** Spec 2.15: the World Cup on V2. */
export const WORLD_CUP_V2 = { tournamentId: 16, seasonId: 58210 } as const;

const FOOTBALL = 'FOOTBALL';

const team = (slug: string, value: V2Team): V2TeamModel => tagType({ slug, value }, 'V2Team');
/** A knockout slot not decided yet is named with ID 0 upstream: no team. */
const teamOrNull = (slug: string, ref: V2Ref): V2TeamModel | null => (ref.id === 0 ? null : v2TeamFromRef(slug, ref));

async function footballScope(ctx: ResolverContext): Promise<V2FootballScope> {
  return { slug: await v2Slug(ctx, { sport: FOOTBALL }) };
}

function isoDate(value: string): string {
  if (!/^\d{4}-\d\d-\d\d$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new GatewayError(ErrorCode.BadUserInput, 'date must be YYYY-MM-DD.');
  }
  return value;
}

const catalogueEntries = (slug: string, entries: readonly V2CatalogueTournament[]) =>
  entries.map((entry) => catalogueEntryModel(slug, entry));

export const footballResolvers: Resolvers = {
  Query: {
    worldCup: (_, __, ctx) => footballScope(ctx),
  },
  WorldCup: {
    v1: () => ({ competitionId: WORLD_CUP_V1_COMPETITION_ID }),
    v2: (scope) => scope,
    v1CompetitionId: () => String(WORLD_CUP_V1_COMPETITION_ID),
    v2TournamentId: () => String(WORLD_CUP_V2.tournamentId),
    v2SeasonId: () => String(WORLD_CUP_V2.seasonId),
  },
  V2: {
    football: async (ns, _, ctx) => {
      requireV2Sport(ns, [FOOTBALL], 'football');
      return { slug: await v2Slug(ctx, ns.choice) };
    },
  },
  V2Football: {
    worldCup2026: (scope) => scope,
    seasonTeams: async ({ slug }, args, ctx) => {
      const payload = await ctx.upstream.load(v2FootballRoutes.seasonTeams, {
        tournamentId: integerId(args.tournamentId, 'tournament id'),
        seasonId: integerId(args.seasonId, 'season id'),
      });
      return payload.teams.map((value) => team(slug, value));
    },
    competitions: async ({ slug }, { filter, first, after }, ctx) => {
      const { tournaments } = await ctx.upstream.load(v2FootballRoutes.catalogue, {});
      return catalogueConnection(slug, filterCatalogue(tournaments, filter ?? {}), { first, after });
    },
    seasons: async (_, { competitionId }, ctx) =>
      (await ctx.upstream.load(v2FootballRoutes.seasons, { id: integerId(competitionId, 'competition id') })).seasons,
    categories: async (_, { amateur }, ctx) => {
      const { tournaments } = await ctx.upstream.load(v2FootballRoutes.catalogue, {});
      return categoriesOf(tournaments).filter((c) => amateur == null || (c.category.amateur === true) === amateur);
    },
    categoryCompetitions: async ({ slug }, { categoryId }, ctx) =>
      catalogueEntries(
        slug,
        (
          await ctx.upstream.load(v2FootballRoutes.categoryTournaments, {
            categoryId: integerId(categoryId, 'category id'),
          })
        ).tournaments,
      ),
    countries: async (_, args, ctx) =>
      (await ctx.upstream.load(args.all === true ? v2FootballRoutes.allCountries : v2FootballRoutes.countries, {}))
        .countries,
    leagues: async ({ slug }, { country }, ctx) => {
      if (!/^[a-z0-9-]{2,60}$/.test(country))
        throw new GatewayError(ErrorCode.BadUserInput, 'country must be a country slug (`germany`).');
      return catalogueEntries(slug, (await ctx.upstream.load(v2FootballRoutes.leagues, { country })).leagues);
    },
    liveCompetitions: async ({ slug }, _, ctx) =>
      catalogueEntries(slug, (await ctx.upstream.load(v2FootballRoutes.liveTournaments, {})).tournaments),
    scheduledCompetitions: async ({ slug }, { date }, ctx) =>
      catalogueEntries(
        slug,
        (await ctx.upstream.load(v2FootballRoutes.scheduledTournaments, { date: isoDate(date) })).tournaments,
      ),
    lineups: (_, { matchId }, ctx) =>
      ctx.upstream.load(v2FootballRoutes.lineups, { matchId: integerId(matchId, 'match id') }),
  },
  V2Tournament: {
    categoryInfo: ({ value }) => {
      const category = value.category;
      if (category === undefined) return null;
      const full = {
        id: category.id,
        name: category.name,
        slug: category.slug ?? '',
        ...('alpha2' in category ? { alpha2: category.alpha2 as string } : {}),
        ...('amateur' in category ? { amateur: category.amateur === true } : {}),
      };
      return { category: full, competitionCount: null };
    },
    tier: ({ value }) => ('tier' in value && typeof value.tier === 'number' ? value.tier : null),
    seasons: async ({ value }, _, ctx) => (await ctx.upstream.load(v2FootballRoutes.seasons, { id: value.id })).seasons,
  },
  V2Category: {
    nativeId: ({ category }) => String(category.id),
    name: ({ category }) => category.name,
    slug: ({ category }) => category.slug,
    alpha2: ({ category }) => category.alpha2 ?? null,
    amateur: ({ category }) => category.amateur === true,
  },
  V2Country: {
    categoryId: (country) => (country.categoryId === undefined ? null : String(country.categoryId)),
  },
  V2Season: {
    nativeId: (season) => String(season.id),
  },
  V2WorldCup2026: {
    tournament: async ({ slug }, _, ctx) =>
      tagType(
        { slug, value: (await ctx.upstream.load(v2FootballRoutes.worldCup, {})).uniqueTournament },
        'V2Tournament',
      ),
    season: async (_, __, ctx) => (await ctx.upstream.load(v2FootballRoutes.worldCup, {})).season,
    info: async (_, __, ctx) => (await ctx.upstream.load(v2FootballRoutes.worldCupInfo, {})).info,
    teams: async ({ slug }, _, ctx) =>
      (await ctx.upstream.load(v2FootballRoutes.worldCupTeams, {})).teams.map((value) => team(slug, value)),
    groups: async ({ slug }, _, ctx) =>
      (await ctx.upstream.load(v2FootballRoutes.worldCupGroups, {})).groups.map((value) => ({ slug, value })),
    matches: ({ slug }, args, ctx) =>
      v2EventConnection(slug, (page) => ctx.upstream.load(v2FootballRoutes.worldCupMatches, { page }), args),
    round: async ({ slug }, { round }, ctx) => {
      if (!Number.isInteger(round) || round < 1 || round > 99)
        throw new GatewayError(ErrorCode.BadUserInput, 'round must be between 1 and 99.');
      return (await ctx.upstream.load(v2FootballRoutes.worldCupRound, { round })).events.map((event) =>
        v2EventModel(slug, event),
      );
    },
    rounds: (_, __, ctx) => ctx.upstream.load(v2FootballRoutes.worldCupRounds, {}),
    knockout: async ({ slug }, _, ctx) =>
      (await ctx.upstream.load(v2FootballRoutes.worldCupKnockout, {})).knockout.rounds.map((round) => ({
        slug,
        ...round,
      })),
    nextEvents: ({ slug }, args, ctx) =>
      v2EventConnection(
        slug,
        (page) =>
          ctx.upstream.load(v2EventRoutes.seasonEvents, {
            sport: slug,
            tournamentId: WORLD_CUP_V2.tournamentId,
            seasonId: WORLD_CUP_V2.seasonId,
            direction: 'next',
            page,
          }),
        args,
      ),
  },
  V2WorldCupInfo: {
    hostCountries: (info) =>
      info.hostCountries.map((host) => ({
        name: host.name,
        alpha2: host.alpha2,
        slug: host.name.toLowerCase().replace(/[^a-z]+/g, '-'),
      })),
    raw: (info) => info,
  },
  V2Group: {
    nativeId: ({ value }) => String(value.id),
    name: ({ value }) => value.name,
    rows: ({ slug, value }) => byPosition(value.rows).map((row) => ({ slug, value: row })),
  },
  V2StandingsRow: {
    position: ({ value }) => value.position,
    team: ({ slug, value }) => v2TeamFromRef(slug, value.team),
    played: ({ value }) => value.matches,
    wins: ({ value }) => value.wins,
    draws: ({ value }) => value.draws,
    losses: ({ value }) => value.losses,
    goalsFor: ({ value }) => value.scoresFor,
    goalsAgainst: ({ value }) => value.scoresAgainst,
    points: ({ value }) => value.points,
    raw: ({ value }) => value,
  },
  V2Rounds: {
    current: (payload) => payload.currentRound ?? null,
  },
  V2KnockoutRound: {
    matches: ({ slug, blocks }) => blocks.map((value) => ({ slug, value })),
  },
  V2BracketMatch: {
    order: ({ value }) => value.order,
    eventId: ({ value }) => String(value.eventId),
    startTime: ({ value }) => new Date(value.startTimestamp * 1000),
    homeTeam: ({ slug, value }) => teamOrNull(slug, value.homeTeam),
    awayTeam: ({ slug, value }) => teamOrNull(slug, value.awayTeam),
    homeSlot: ({ value }) => value.homeSlot,
    awaySlot: ({ value }) => value.awaySlot,
    finished: ({ value }) => value.finished,
  },
  V2FootballLineups: {
    confirmed: (payload) => payload.data.confirmed,
    home: (payload) => payload.data.home,
    away: (payload) => payload.data.away,
    raw: (payload) => payload,
  },
  V2FootballLineupSide: {
    formation: (side) => side.formation ?? null,
    manager: (side) => side.manager ?? null,
  },
  V2FootballLineupPlayer: {
    shirtNumber: (entry) => entry.shirtNumber ?? null,
    position: (entry) => entry.position ?? null,
  },
};
