/**
 * V6 baseball (spec 4.9): match, team stats and odds; the six sub-resources
 * the upstream answers 501 are NOT_SUPPORTED here, without a request.
 */
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { toGlobalId } from '../src/model/global-id.js';
import { listedAt, listingOf } from '../src/model/listing.js';
import { namespace } from '../src/model/namespace.js';
import { tagType } from '../src/model/typename.js';
import { opaqueV6Id } from '../src/model/v6-id.js';
import { knownGap } from '../src/upstream/known-gaps.js';
import { v6BaseballRoutes, type V6BaseballTeam } from '../src/upstream/routes/v6-baseball.js';

const SPORT = 'baseball';

const opaqueId = (value: string): string => opaqueV6Id(value, 'matchId');

const unsupported =
  (sub: string) =>
  (_: unknown, args: { matchId: string }): never => {
    opaqueId(args.matchId);
    throw knownGap('v6BaseballSubResources', `/match/{matchId}/${sub}`);
  };

const stats = (values: Record<string, number>) => Object.entries(values).map(([name, value]) => ({ name, value }));
/** V6 baseball has no team route: a team's ID names the match that carries it (src/model/node-sources.ts). */
const team = (value: V6BaseballTeam, matchId: string) => tagType(listedAt(value, { match: matchId }), 'V6BaseballTeam');

export const v6BaseballResolvers: Resolvers = {
  V6: {
    baseball: () => namespace('v6.baseball'),
  },
  V6Baseball: {
    match: async (_, { id }, ctx) =>
      tagType((await ctx.upstream.load(v6BaseballRoutes.match, { matchId: opaqueId(id) })).match, 'V6BaseballMatch'),
    teamStats: (_, { matchId }, ctx) => ctx.upstream.load(v6BaseballRoutes.teamStats, { matchId: opaqueId(matchId) }),
    odds: async (_, { matchId }, ctx) =>
      (await ctx.upstream.load(v6BaseballRoutes.odds, { matchId: opaqueId(matchId) })).markets.map((m) => ({
        ...m,
        suspended: m.suspended === true,
        outcomes: m.outcomes.map((o) => ({ ...o, line: o.line ?? null })),
      })),
    lineups: unsupported('lineups'),
    stats: unsupported('stats'),
    incidents: unsupported('incidents'),
    h2h: unsupported('h2h'),
    commentary: unsupported('commentary'),
    tables: unsupported('tables'),
  },
  V6BaseballMatch: {
    id: (m) => toGlobalId({ version: 'v6', sport: SPORT, typeName: 'V6BaseballMatch', nativeId: m.id }),
    ref: (m) => ({ version: 'V6', nativeId: m.id, sport: SPORT }),
    startTime: (m) => new Date(m.startTime),
    status: (m) => ({
      live: m.status === 'live',
      finished: m.status === 'finished',
      description: m.status,
      code: null,
    }),
    homeTeam: (m) => team(m.home, m.id),
    awayTeam: (m) => team(m.away, m.id),
    homeScore: (m) => m.home.runs ?? null,
    awayScore: (m) => m.away.runs ?? null,
    inning: (m) => m.inning ?? null,
    league: (m) => m.league.name,
    raw: (m) => m,
  },
  V6BaseballTeam: {
    id: (t) =>
      toGlobalId({ version: 'v6', sport: SPORT, typeName: 'V6BaseballTeam', nativeId: t.id, via: listingOf(t) }),
    ref: (t) => ({ version: 'V6', nativeId: t.id, sport: SPORT }),
    // The file name is passed exactly as the payload gives it, `!w80` included (spec 4.2.3).
    image: (t) =>
      t.logo === undefined
        ? null
        : { url: `/images/v6/${SPORT}/teams/${encodeURIComponent(t.logo)}`, version: 'V6', placeholder: null },
    raw: (t) => t,
  },
  V6BaseballTeamStats: {
    home: (s) => stats(s.home),
    away: (s) => stats(s.away),
    raw: (s) => s,
  },
};
