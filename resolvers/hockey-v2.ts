/**
 * Hockey V2 team routes (spec 4.4) and the season aggregates the gateway
 * computes because the upstream 404s its team-statistics routes for ice hockey.
 */
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { readPart } from '../src/upstream/degraded-parts.js';
import { seasonAggregates, seasonCost, type SeasonKey } from '../src/model/hockey-season-aggregates.js';
import { integerId } from '../src/model/native-id.js';
import { tagType } from '../src/model/typename.js';
import { v2EventConnection, v2EventModel, type V2EventModel } from '../src/model/v2-event.js';
import { requireV2Sport } from '../src/model/v2-namespace.js';
import { knownGap } from '../src/upstream/known-gaps.js';
import { v2HockeyRoutes, type NearEventsPayload } from '../src/upstream/routes/v2-hockey.js';
import { loadV2Team } from './v2.js';

const SLUG = 'hockey';

function nearGame(payload: NearEventsPayload, key: 'previousEvent' | 'nextEvent'): V2EventModel | null {
  const event = readPart(payload, key);
  return event === undefined || event === null ? null : v2EventModel(SLUG, event);
}

const POSITIONS: ReadonlySet<string> = new Set(['G', 'D', 'LW', 'RW', 'C']);

const seasonKey = (teamId: number, args: { tournamentId: string; seasonId: string }): SeasonKey => ({
  teamId,
  tournamentId: integerId(args.tournamentId, 'tournament id'),
  seasonId: integerId(args.seasonId, 'season id'),
});

export const hockeyV2Resolvers: Resolvers = {
  V2: {
    hockey: (ns) => {
      requireV2Sport(ns, ['ICE_HOCKEY'], 'hockey');
      return ns;
    },
  },
  V2Hockey: {
    team: (_, { id }) => ({ id: integerId(id, 'team id') }),
  },
  HockeyV2Team: {
    nativeId: ({ id }) => String(id),
    detail: ({ id }, _, ctx) => loadV2Team(ctx, SLUG, id),
    logo: ({ id }) => ({ url: `/images/v2/${SLUG}/teams/${id}`, version: 'V2', placeholder: null }),
    roster: async ({ id }, _, ctx) => {
      const payload = await ctx.upstream.load(v2HockeyRoutes.roster, { id });
      return payload.players.map((player) => tagType({ slug: SLUG, value: player }, 'V2Player'));
    },
    recentResults: ({ id }, args, ctx) =>
      v2EventConnection(SLUG, (page) => ctx.upstream.load(v2HockeyRoutes.lastEvents, { id, page }), args),
    upcomingGames: ({ id }, args, ctx) =>
      v2EventConnection(SLUG, (page) => ctx.upstream.load(v2HockeyRoutes.nextEvents, { id, page }), args),
    closestGame: ({ id }, _, ctx) => ctx.upstream.load(v2HockeyRoutes.nearEvents, { id }),
    competitions: async ({ id }, _, ctx) => {
      const payload = await ctx.upstream.load(v2HockeyRoutes.competitions, { id });
      return payload.uniqueTournaments.map((t) => tagType({ slug: SLUG, value: t }, 'V2Tournament'));
    },
    form: ({ id }, _, ctx) => ctx.upstream.load(v2HockeyRoutes.performance, { id }),
    featuredEvent: async ({ id }, _, ctx) => {
      const payload = await ctx.upstream.load(v2HockeyRoutes.featuredEvent, { id });
      return v2EventModel(SLUG, payload.featuredEvent);
    },
    playerStatisticsSeasons: async ({ id }, _, ctx) => {
      const payload = await ctx.upstream.load(v2HockeyRoutes.playerStatisticsSeasons, { id });
      return payload.uniqueTournamentSeasons.map((value) => ({ slug: SLUG, value }));
    },
    standingsSeasons: async ({ id }, _, ctx) => {
      const payload = await ctx.upstream.load(v2HockeyRoutes.standingsSeasons, { id });
      return payload.tournamentSeasons.map((value) => ({ slug: SLUG, value }));
    },
    teamStatisticsSeasons: () => {
      throw knownGap('hockeyTeamStatisticsSeasons');
    },
    seasonStatistics: () => {
      throw knownGap('hockeyTeamSeasonStatistics');
    },
    seasonAggregatesCost: ({ id }, args, ctx) => seasonCost(ctx, seasonKey(id, args)),
    seasonAggregates: ({ id }, args, ctx) => seasonAggregates(ctx, seasonKey(id, args)),
  },
  HockeyRosterPlayer: {
    position: ({ value }) =>
      value.position !== undefined && POSITIONS.has(value.position) ? (value.position as 'G') : null,
    player: (model) => model,
  },
  HockeyClosestGame: {
    // Absent or null: no such game (the route's shape check lets null through as "none"); sent malformed: its own error, at its own path.
    previous: (payload) => nearGame(payload, 'previousEvent'),
    next: (payload) => nearGame(payload, 'nextEvent'),
  },
  HockeyForm: {
    form: (p) => p.form,
    played: (p) => p.record.played,
    wins: (p) => p.record.wins,
    losses: (p) => p.record.losses,
    overtimeLosses: (p) => p.record.overtimeLosses,
    raw: (p) => p,
  },
  V2TournamentSeasons: {
    tournament: ({ slug, value }) => tagType({ slug, value: value.uniqueTournament }, 'V2Tournament'),
    seasons: ({ value }) => value.seasons,
  },
  HockeySeasonAggregates: {
    tournamentId: (a) => String(a.tournamentId),
    seasonId: (a) => String(a.seasonId),
    matches: (a) => a.matchIds.length,
    matchIds: (a) => a.matchIds.map(String),
  },
  HockeyPlayerSeasonLine: {
    position: (line) => line.player.position ?? null,
  },
  V2PersonRef: {
    nativeId: (ref) => String(ref.id),
  },
};
