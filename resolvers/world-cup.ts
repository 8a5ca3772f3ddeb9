/**
 * World Cup V1 (spec 4.6, 2.6, 2.7): competition 5930, its shortcuts and
 * generic competition routes, games with venue, lineups and coaches.
 */
import type { ResolverContext } from '../src/context.js';
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { byPosition } from '../src/model/by-position.js';
import { toGlobalId } from '../src/model/global-id.js';
import { v1Image } from '../src/model/images.js';
import { listedAt, listingOf } from '../src/model/listing.js';
import { integerId } from '../src/model/native-id.js';
import { tagType } from '../src/model/typename.js';
import { splitLineup } from '../src/model/v1-lineup.js';
import {
  latestStartedGame,
  worldCupGameModel,
  type V1CoachModel,
  type V1WorldCupGameModel,
} from '../src/model/v1-world-cup.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';
import { readPart } from '../src/upstream/degraded-parts.js';
import {
  V1StatusGroup,
  v1WorldCupRoutes,
  WORLD_CUP_V1_COMPETITION_ID,
  type V1WorldCupCompetitor,
  type V1WorldCupMatch,
} from '../src/upstream/routes/v1-world-cup.js';

/** V1 World Cup routes are sport-less (`/api/v1/...`); global IDs name the sport V1 football spells. */
const SPORT = 'football';

const ref = (nativeId: number) => ({ version: 'V1' as const, nativeId: String(nativeId), sport: SPORT });
const globalId = (typeName: string, nativeId: number, via?: Readonly<Record<string, string>>) =>
  toGlobalId({ version: 'v1', sport: SPORT, typeName, nativeId: String(nativeId), via });

interface MatchFilter {
  live?: boolean | null | undefined;
  round?: number | null | undefined;
  group?: number | null | undefined;
}

/** Spec 3: `statusGroup` 3 is in progress; the live ticker filter. */
export function filterMatches(matches: readonly V1WorldCupMatch[], filter: MatchFilter): V1WorldCupMatch[] {
  return matches
    .filter((match) => filter.live == null || (match.statusGroup === V1StatusGroup.InProgress) === filter.live)
    .filter((match) => filter.round == null || match.roundNum === filter.round)
    .filter((match) => filter.group == null || match.groupNum === filter.group)
    .map((match) => tagType(match, 'V1WorldCupMatch'));
}

function throwMissing(part: string, alternative: string): never {
  throw hubPartMissing(part, alternative);
}

/** A hub part the upstream left out (spec 4.6: "returns partial data if a sub-query is briefly unavailable"). */
function hubPartMissing(part: string, alternative: string): GatewayError {
  return new GatewayError(
    ErrorCode.UpstreamUnavailable,
    `The World Cup hub's ${part} were briefly unavailable upstream.`,
    {
      version: 'v1',
      route: v1WorldCupRoutes.hub.template,
      alternative,
    },
  );
}

export async function loadV1Lineups(ctx: ResolverContext, gameId: number) {
  const payload = await ctx.upstream.load(v1WorldCupRoutes.lineups, { gameId });
  return payload.lineups;
}

/**
 * A team's coach (spec 2.6): `/api/v1/competitor/{id}` has no coach field,
 * so the gateway takes it from the team's latest lineup: the matches list
 * (shared, cached) names the latest game the team has started, its lineups
 * route names the coach.
 */
async function coachOf(ctx: ResolverContext, teamId: number): Promise<V1CoachModel | null> {
  const { matches } = await ctx.upstream.load(v1WorldCupRoutes.matches, {});
  const latest = latestStartedGame(matches, teamId);
  if (latest === undefined) return null;
  const lineup = (await loadV1Lineups(ctx, latest.id)).find((team) => team.competitorId === teamId);
  const coach = lineup === undefined ? null : splitLineup(lineup).coach;
  return coach === null ? null : { member: coach, teamId };
}

export async function loadV1FootballCompetitor(ctx: ResolverContext, id: number): Promise<V1WorldCupCompetitor> {
  return tagType((await ctx.upstream.load(v1WorldCupRoutes.competitor, { id })).competitor, 'V1FootballCompetitor');
}

const scopeOf = (id: string | null | undefined) => ({
  competitionId: id == null ? WORLD_CUP_V1_COMPETITION_ID : integerId(id, 'competition id'),
});

export const worldCupV1Resolvers: Resolvers = {
  V1: {
    worldCup: () => ({ competitionId: WORLD_CUP_V1_COMPETITION_ID }),
  },
  V1WorldCup: {
    competitionId: (scope) => String(scope.competitionId),
    hub: (_, __, ctx) => ctx.upstream.load(v1WorldCupRoutes.hub, {}),
    matches: async (_, filter, ctx) =>
      filterMatches((await ctx.upstream.load(v1WorldCupRoutes.matches, {})).matches, filter),
    standings: async (_, __, ctx) => (await ctx.upstream.load(v1WorldCupRoutes.standings, {})).standings,
    groups: async (_, __, ctx) => (await ctx.upstream.load(v1WorldCupRoutes.groups, {})).groups,
    predictions: async (_, __, ctx) => (await ctx.upstream.load(v1WorldCupRoutes.odds, {})).polls,
    game: async (_, { id }, ctx) => {
      const { game } = await ctx.upstream.load(v1WorldCupRoutes.worldCupGame, { id: integerId(id, 'game id') });
      return worldCupGameModel(game);
    },
    gameDetail: async (_, { id }, ctx) => ({
      game: (await ctx.upstream.load(v1WorldCupRoutes.game, { gameId: integerId(id, 'game id') })).game,
    }),
    lineups: (_, { gameId }, ctx) => loadV1Lineups(ctx, integerId(gameId, 'game id')),
    competitor: (_, { id }, ctx) => loadV1FootballCompetitor(ctx, integerId(id, 'competitor id')),
    competition: (_, { id }) => scopeOf(id),
  },
  V1FootballCompetition: {
    competitionId: (scope) => String(scope.competitionId),
    matches: async (scope, filter, ctx) =>
      filterMatches((await ctx.upstream.load(v1WorldCupRoutes.competitionMatches, scope)).matches, filter),
    standings: async (scope, _, ctx) =>
      (await ctx.upstream.load(v1WorldCupRoutes.competitionStandings, scope)).standings,
    groups: async (scope, _, ctx) => (await ctx.upstream.load(v1WorldCupRoutes.competitionGroups, scope)).groups,
    competitors: async (scope, _, ctx) =>
      (await ctx.upstream.load(v1WorldCupRoutes.competitionCompetitors, scope)).competitors,
  },
  V1WorldCupHub: {
    // A part sent malformed raises its own UPSTREAM_INVALID_RESPONSE; a part left out is the documented partial answer.
    matches: (hub) => filterMatches(readPart(hub, 'games') ?? throwMissing('games', 'v1 { worldCup { matches } }'), {}),
    standings: (hub) => readPart(hub, 'standings') ?? throwMissing('standings', 'v1 { worldCup { standings } }'),
    bracket: (hub) =>
      readPart(hub, 'brackets') ?? throwMissing('brackets', 'v2(sport: FOOTBALL) { worldCup2026 { knockout } }'),
    unavailable: (hub) => hub.unavailable ?? [],
    raw: (hub) => hub,
  },
  V1WorldCupMatch: {
    id: (match) => globalId('V1WorldCupMatch', match.id),
    ref: (match) => ref(match.id),
    startTime: (match) => match.startTime,
    status: (match) => ({
      live: match.statusGroup === V1StatusGroup.InProgress,
      finished: match.statusGroup === V1StatusGroup.Finished,
      description: match.statusText,
      code: match.statusGroup,
    }),
    minute: (match) => match.gameTime ?? null,
    round: (match) => match.roundNum,
    group: (match) => match.groupNum ?? null,
    groupName: (match) => match.groupName ?? null,
    homeTeam: (match) => tagType(match.homeCompetitor, 'V1FootballCompetitor'),
    awayTeam: (match) => tagType(match.awayCompetitor, 'V1FootballCompetitor'),
    homeScore: (match) => match.homeCompetitor.score,
    awayScore: (match) => match.awayCompetitor.score,
    venueName: (match) => match.venue?.name ?? null,
    detail: async (match, _, ctx) => {
      const { game } = await ctx.upstream.load(v1WorldCupRoutes.worldCupGame, { id: match.id });
      return worldCupGameModel(game);
    },
    raw: (match) => match,
  },
  V1FootballCompetitor: {
    // Every undecided slot has nativeId 0: its ID names the slot ("W73"), so that each is one entity of its own (node-sources.ts).
    id: (team) =>
      team.placeholder === true
        ? globalId('V1FootballCompetitor', team.id, { slot: team.name })
        : globalId('V1FootballCompetitor', team.id),
    ref: (team) => ref(team.id),
    shortName: (team) => team.shortName ?? null,
    placeholder: (team) => team.placeholder === true,
    imageVersion: (team) => team.imageVersion ?? null,
    image: (team) => (team.placeholder === true ? null : v1Image('competitors', team.id, team.imageVersion)),
    coach: (team, _, ctx) => (team.placeholder === true ? null : coachOf(ctx, team.id)),
    raw: (team) => team,
  },
  V1Coach: {
    id: ({ member, teamId }) => globalId('V1Coach', member.id, { team: String(teamId) }),
    ref: ({ member }) => ref(member.id),
    athleteId: ({ member }) => String(member.id),
    name: ({ member }) => member.name ?? null,
    statusText: ({ member }) => member.statusText,
    raw: ({ member }) => member,
  },
  V1WorldCupStandingsRow: {
    team: (row) => tagType(row.competitor, 'V1FootballCompetitor'),
    goalDifference: (row) => row.goalsFor - row.goalsAgainst,
    raw: (row) => row,
  },
  V1WorldCupGroup: {
    rows: (group) => byPosition(group.rows),
  },
  V1WorldCupGroupMembers: {
    teams: (group) => group.competitors,
  },
  V1WorldCupPoll: {
    gameId: (poll) => String(poll.gameId),
    home: (poll) => poll.options.find((o) => o.option === 'home')?.percentage ?? 0,
    draw: (poll) => poll.options.find((o) => o.option === 'draw')?.percentage ?? 0,
    away: (poll) => poll.options.find((o) => o.option === 'away')?.percentage ?? 0,
    raw: (poll) => poll,
  },
  V1BracketSlot: {
    round: (slot) => slot.roundNum,
    gameId: (slot) => String(slot.gameId),
  },
  V1WorldCupGame: {
    id: ({ game }) => globalId('V1WorldCupGame', game.id),
    ref: ({ game }) => ref(game.id),
    match: ({ game }) => tagType(game, 'V1WorldCupMatch'),
    // The venue has no route of its own: its ID names the game that carries it (src/model/node-sources.ts).
    venue: ({ game }) => (game.venue === undefined ? null : listedAt(game.venue, { game: game.id })),
    lineups: (model: V1WorldCupGameModel, _, ctx) => model.lineups ?? loadV1Lineups(ctx, model.game.id),
    events: (model, _, ctx) =>
      model.events ??
      ctx.upstream.load(v1WorldCupRoutes.worldCupGame, { id: model.game.id }).then((p) => p.game.events),
    commentary: (model, _, ctx) =>
      model.commentary ??
      ctx.upstream.load(v1WorldCupRoutes.worldCupGame, { id: model.game.id }).then((p) => p.game.commentary),
    raw: ({ game }) => game,
  },
  V1FootballVenue: {
    id: (venue) => globalId('V1FootballVenue', venue.id, listingOf(venue)),
    ref: (venue) => ref(venue.id),
    city: (venue) => venue.city ?? null,
    country: (venue) => venue.country ?? null,
    capacity: (venue) => venue.capacity ?? null,
    attendance: (venue) => venue.attendance ?? null,
    coordinates: (venue) =>
      // `== null`: an optional field may also be null, and Coordinates' fields are non-null.
      venue.latitude == null || venue.longitude == null
        ? null
        : { latitude: venue.latitude, longitude: venue.longitude },
    raw: (venue) => venue,
  },
  V1Lineup: {
    teamId: (team) => String(team.competitorId),
    formation: (team) => team.formation ?? null,
    players: (team) => splitLineup(team).players,
    coach: (team) => {
      const { coach } = splitLineup(team);
      return coach === null ? null : { member: coach, teamId: team.competitorId };
    },
    raw: (team) => team,
  },
  V1LineupPlayer: {
    athleteId: (member) => String(member.id),
    name: (member) => member.name ?? null,
    jerseyNumber: (member) => member.jerseyNumber ?? null,
    position: (member) => member.formation?.name ?? null,
    starting: (member) => member.status === 1,
    heatMap: (member) => member.heatMap ?? null,
  },
  V1GameEvent: {
    teamId: (event) => String(event.competitorId),
    athleteId: (event) => (event.athleteId === undefined ? null : String(event.athleteId)),
    name: (event) => event.name ?? null,
  },
};
