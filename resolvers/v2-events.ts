/**
 * `V2Event`: V2 terminology (events, homeTeam/awayTeam, tournament,
 * startTimestamp) read through the shared `Event` interface.
 */
import type { ResolverContext } from '../src/context.js';
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { toGlobalId } from '../src/model/global-id.js';
import { integerId } from '../src/model/native-id.js';
import { typeOf, tagType } from '../src/model/typename.js';
import {
  isFinished,
  isLive,
  v2EventConnection,
  v2EventModel,
  v2TeamFromRef,
  type V2EventModel,
} from '../src/model/v2-event.js';
import { v2Slug } from '../src/model/v2-namespace.js';
import { readPart } from '../src/upstream/degraded-parts.js';
import { v2EventRoutes } from '../src/upstream/routes/v2-events.js';
import type { V2Event } from '../src/upstream/routes/v2.js';

type Score = V2Event['homeScore'];

/**
 * Entry i is period i + 1, up to the last period the upstream gave. A period
 * it left out inside that range is null in its place: dropping it would
 * shift every later period's score into the wrong period.
 */
const periods = (score: Score): Array<number | null> | null => {
  // The upstream may send null for a score or period it does not have: both read as absent.
  if (score === undefined || score === null) return null;
  const given = [score.period1, score.period2, score.period3].map((p) => (typeof p === 'number' ? p : null));
  const last = given.findLastIndex((p) => p !== null);
  return given.slice(0, last + 1);
};

export async function loadV2Event(ctx: ResolverContext, slug: string, id: number): Promise<V2EventModel> {
  const payload = await ctx.upstream.load(v2EventRoutes.event, { sport: slug, id });
  return v2EventModel(slug, payload.event);
}

export const v2EventResolvers: Resolvers = {
  Event: { __resolveType: (event) => typeOf(event) as never },
  Competition: { __resolveType: (competition) => typeOf(competition) as never },
  Venue: { __resolveType: (venue) => typeOf(venue) as never },
  V2: {
    event: async (ns, { id }, ctx) => loadV2Event(ctx, await v2Slug(ctx, ns.choice), integerId(id, 'event id')),
    seasonEvents: async (ns, args, ctx) => {
      const slug = await v2Slug(ctx, ns.choice);
      const tournamentId = integerId(args.tournamentId, 'tournament id');
      const seasonId = integerId(args.seasonId, 'season id');
      const direction = args.direction === 'LAST' ? 'last' : 'next';
      return v2EventConnection(
        slug,
        (page) =>
          ctx.upstream.load(v2EventRoutes.seasonEvents, { sport: slug, tournamentId, seasonId, direction, page }),
        args,
      );
    },
  },
  V2Event: {
    id: ({ slug, value }) =>
      toGlobalId({ version: 'v2', sport: slug, typeName: 'V2Event', nativeId: String(value.id) }),
    ref: ({ slug, value }) => ({ version: 'V2', nativeId: String(value.id), sport: slug }),
    startTime: ({ value }) => new Date(value.startTimestamp * 1000),
    startTimestamp: ({ value }) => value.startTimestamp,
    status: ({ value }) => ({
      live: isLive(value),
      finished: isFinished(value),
      description: value.status.description ?? value.status.type,
      code: value.status.code,
    }),
    homeTeam: ({ slug, value }) => v2TeamFromRef(slug, value.homeTeam),
    awayTeam: ({ slug, value }) => v2TeamFromRef(slug, value.awayTeam),
    homeScore: ({ value }) => value.homeScore?.current ?? value.homeScore?.display ?? null,
    awayScore: ({ value }) => value.awayScore?.current ?? value.awayScore?.display ?? null,
    homePeriodScores: ({ value }) => periods(value.homeScore),
    awayPeriodScores: ({ value }) => periods(value.awayScore),
    tournament: ({ slug, value }) => {
      // The per-season `tournament.id` does not resolve (spec 2.15): the competition is the unique tournament.
      const unique = value.tournament.uniqueTournament;
      // `== null`: the shape check lets the optional `uniqueTournament` be null as well as absent (fuzz-payloads found the crash).
      return unique == null ? null : tagType({ slug, value: unique }, 'V2Tournament');
    },
    seasonId: ({ value }) => {
      const season = readPart(value, 'season');
      return season == null ? null : String(season.id);
    },
    round: ({ value }) => readPart(value, 'roundInfo')?.round ?? null,
    winner: ({ value }) =>
      value.winnerCode === 1 ? 'HOME' : value.winnerCode === 2 ? 'AWAY' : value.winnerCode === 3 ? 'DRAW' : null,
    raw: ({ value }) => value,
  },
};
