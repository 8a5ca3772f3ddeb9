/**
 * World Cup V1 routes (spec 4.6, 2.6, 2.7): competition 5930. Typed path
 * builders and payload types, nothing else.
 *
 * Base address: not shown in the spec. Assumption (DESIGN.md): the same
 * `{base_url}` as every other route, so `base` stays `main`.
 *
 * The spec names the routes and a few fields (`startTime` ISO 8601,
 * `statusGroup` with 3 = in progress, groups as `rows` sorted by `position`,
 * the coach marker in lineups, the venue with attendance) but shows no full
 * payload. Assumption: the shapes below, served alike by the sandbox
 * (sandbox/routes/world-cup-v1.ts). Other engineers read
 * `V1WorldCupMatchesPayload` (live ticker): keep it stable.
 */
import { v1CompetitionKey, v1GameKey, v1Sighting } from './match-sightings.js';
import type { Route } from './route.js';
import { allOf, arrayOf, bool, date, int, num, obj, opt, shape, str } from './shape.js';

/** Spec 2.15: V1 competition ID of the World Cup. */
export const WORLD_CUP_V1_COMPETITION_ID = 5930;

/** Spec 3: `statusGroup` 3 means in progress. Assumption: 2 scheduled, 4 finished. */
export const V1StatusGroup = { Scheduled: 2, InProgress: 3, Finished: 4 } as const;

export interface V1WorldCupCompetitor {
  id: number;
  name: string;
  shortName?: string;
  /** Spec 2.5: next to entities that have images. */
  imageVersion?: number;
  /** Assumption: a knockout slot whose team is not known yet ("Winner Group A") has `placeholder: true`. */
  placeholder?: boolean;
}

export interface V1WorldCupMatchCompetitor extends V1WorldCupCompetitor {
  /** Goals; null before kick-off. */
  score: number | null;
}

export interface V1WorldCupMatch {
  id: number;
  competitionId: number;
  /** ISO 8601 with offset (spec 4.6). */
  startTime: string;
  /** 3 = in progress (spec 3); see `V1StatusGroup`. */
  statusGroup: number;
  statusText: string;
  /** Minute of play while in progress. */
  gameTime?: number;
  roundNum: number;
  roundName: string;
  /** Group stage only. */
  groupNum?: number;
  groupName?: string;
  homeCompetitor: V1WorldCupMatchCompetitor;
  awayCompetitor: V1WorldCupMatchCompetitor;
  venue?: { id: number; name: string };
}

export interface V1WorldCupMatchesPayload {
  competitionId: number;
  matches: V1WorldCupMatch[];
}

export interface V1WorldCupStandingsRow {
  position: number;
  competitor: V1WorldCupCompetitor;
  played: number;
  wins: number;
  draws: number;
  losses: number;
  goalsFor: number;
  goalsAgainst: number;
  points: number;
}

/** Spec 4.6: one entry per group; `rows` sorted by `position`. */
export interface V1WorldCupGroup {
  groupNum: number;
  name: string;
  rows: V1WorldCupStandingsRow[];
}

export interface V1WorldCupStandingsPayload {
  competitionId: number;
  standings: V1WorldCupGroup[];
}

/** Assumption: the groups shortcut ("also a groups shortcut exists") lists each group's members. */
export interface V1WorldCupGroupsEntry {
  groupNum: number;
  name: string;
  competitors: V1WorldCupCompetitor[];
}

export interface V1WorldCupGroupsPayload {
  competitionId: number;
  groups: V1WorldCupGroupsEntry[];
}

export interface V1WorldCupPollOption {
  /** `home`, `draw`, `away`. */
  option: string;
  votes: number;
  /** 0-100, one decimal. */
  percentage: number;
}

/** Spec 4.6: fan prediction poll with vote percentages. */
export interface V1WorldCupPoll {
  gameId: number;
  totalVotes: number;
  options: V1WorldCupPollOption[];
}

export interface V1WorldCupOddsPayload {
  competitionId: number;
  polls: V1WorldCupPoll[];
}

export interface V1WorldCupBracketSlot {
  roundNum: number;
  roundName: string;
  /** Position in the round, from 1. */
  slot: number;
  gameId: number;
  home: V1WorldCupCompetitor;
  away: V1WorldCupCompetitor;
  winnerId?: number;
}

/**
 * Spec 4.6: games, standings and brackets in one call; partial when a
 * sub-query is briefly unavailable. Assumption: a missing part is absent and
 * named in `unavailable`.
 */
export interface V1WorldCupHubPayload {
  competitionId: number;
  games?: V1WorldCupMatch[];
  standings?: V1WorldCupGroup[];
  brackets?: V1WorldCupBracketSlot[];
  unavailable?: Array<'games' | 'standings' | 'brackets'>;
}

/** Spec 2.7: a full venue, with live attendance once the gate count is published. */
export interface V1Venue {
  id: number;
  name: string;
  shortName?: string;
  city?: string;
  country?: string;
  capacity?: number;
  attendance?: number;
  latitude?: number;
  longitude?: number;
}

/**
 * Spec 2.6: a lineup member. The coach is the last member, `formation.name`
 * `Coach`, `status` 4, `statusText` `Management`, athlete `id` only (no name).
 */
export interface V1LineupMember {
  /** Athlete ID. */
  id: number;
  name?: string;
  jerseyNumber?: number;
  formation?: { name: string };
  /** Assumption: 1 starting, 2 substitute, 4 management. */
  status: number;
  statusText: string;
  /** Spec 2.5: a ready-made tokenized image URL, used as it is. */
  heatMap?: string;
}

export interface V1LineupTeam {
  competitorId: number;
  /** `4-3-3`. */
  formation?: string;
  members: V1LineupMember[];
}

export interface V1LineupsPayload {
  gameId: number;
  lineups: V1LineupTeam[];
}

export interface V1GameEvent {
  minute: number;
  /** `goal`, `yellow-card`, `red-card`, `substitution`. */
  type: string;
  competitorId: number;
  athleteId?: number;
  name?: string;
}

export interface V1CommentaryEntry {
  minute: number;
  text: string;
}

export interface V1GameDetail extends V1WorldCupMatch {
  venue?: V1Venue & { id: number; name: string };
}

export interface V1GamePayload {
  game: V1GameDetail;
}

/** `/api/v1/world-cup/game/{id}`: venue, lineups, events, live commentary. */
export interface V1WorldCupGamePayload {
  game: V1GameDetail & { lineups: V1LineupTeam[]; events: V1GameEvent[]; commentary: V1CommentaryEntry[] };
}

/** Spec 4.6: no coach field. */
export interface V1CompetitorPayload {
  competitor: V1WorldCupCompetitor & { countryName?: string };
}

export interface V1CompetitorsPayload {
  competitionId: number;
  competitors: V1WorldCupCompetitor[];
}

function worldCupRoute<T>(template: string, path: string, accepts: (body: unknown) => body is T) {
  return {
    version: 'v1',
    template,
    auth: true,
    counted: true,
    cacheClass: 'worldCup',
    build: () => ({ path, query: {} }),
    accepts,
  } as const satisfies Route<Record<string, never>, T>;
}

/** Generic `/api/v1/competition/{id}/...` equivalents (spec 4.6). Assumption: the sub-paths mirror the shortcuts. */
function competitionRoute<T>(sub: string, accepts: (body: unknown) => body is T) {
  return {
    version: 'v1',
    template: `/api/v1/competition/{competitionId}/${sub}`,
    auth: true,
    counted: true,
    cacheClass: 'worldCup',
    build: (p: { competitionId: number }) => ({ path: `/api/v1/competition/${p.competitionId}/${sub}`, query: {} }),
    accepts,
  } as const satisfies Route<{ competitionId: number }, T>;
}

/** What the resolvers read of each payload (the interfaces above), checked once: see shape.ts. */
const competitor = obj({ id: int, name: str, shortName: opt(str), imageVersion: opt(int), placeholder: opt(bool) });
const matchCompetitor = allOf(competitor, obj({ score: opt(num) }));
const match = obj({
  id: int,
  startTime: date,
  statusGroup: int,
  statusText: opt(str),
  gameTime: opt(num),
  roundNum: int,
  roundName: str,
  groupNum: opt(int),
  groupName: opt(str),
  homeCompetitor: matchCompetitor,
  awayCompetitor: matchCompetitor,
  venue: opt(obj({ id: int, name: str })),
});
const standingsRow = obj({
  position: int,
  competitor,
  played: int,
  wins: int,
  draws: int,
  losses: int,
  goalsFor: int,
  goalsAgainst: int,
  points: int,
});
// Built once at import, like every other shape: a check built per call would allocate its field list on every payload.
const isMatches = shape<V1WorldCupMatchesPayload>(obj({ matches: arrayOf(match) }));
const isStandings = shape<V1WorldCupStandingsPayload>(
  obj({ standings: arrayOf(obj({ groupNum: int, name: str, rows: arrayOf(standingsRow) })) }),
);
const isGroups = shape<V1WorldCupGroupsPayload>(
  obj({ groups: arrayOf(obj({ groupNum: int, name: str, competitors: arrayOf(competitor) })) }),
);
const bracketSlot = obj({
  roundNum: int,
  roundName: str,
  slot: int,
  gameId: int,
  home: competitor,
  away: competitor,
  winnerId: opt(int),
});
/** Each part may be missing (spec 4.6: partial data when a sub-query is briefly unavailable), never malformed. */
const hub = obj({
  games: opt(arrayOf(match)),
  standings: opt(arrayOf(obj({ groupNum: int, name: str, rows: arrayOf(standingsRow) }))),
  brackets: opt(arrayOf(bracketSlot)),
  unavailable: opt(arrayOf(str)),
});
const isHub = (body: unknown): body is V1WorldCupHubPayload => hub(body);
const isPolls = shape<V1WorldCupOddsPayload>(
  obj({
    polls: arrayOf(
      obj({ gameId: int, totalVotes: num, options: arrayOf(obj({ option: str, votes: num, percentage: num })) }),
    ),
  }),
);
const isCompetitors = shape<V1CompetitorsPayload>(obj({ competitors: arrayOf(competitor) }));
const venue = obj({
  id: int,
  name: str,
  shortName: opt(str),
  city: opt(str),
  country: opt(str),
  capacity: opt(int),
  attendance: opt(int),
  latitude: opt(num),
  longitude: opt(num),
});
/** The detail is a match (it resolves as `V1WorldCupMatch` too) with the full venue. */
const gameDetail = allOf(match, obj({ venue: opt(venue) }));
const lineupMember = obj({
  id: int,
  name: opt(str),
  jerseyNumber: opt(int),
  formation: opt(obj({ name: str })),
  status: int,
  statusText: str,
  heatMap: opt(str),
});
const lineupTeam = obj({ competitorId: int, formation: opt(str), members: arrayOf(lineupMember) });
const gameEvent = obj({ minute: int, type: str, competitorId: int, athleteId: opt(int), name: opt(str) });
const isWorldCupGame = shape<V1WorldCupGamePayload>(
  obj({
    game: allOf(
      gameDetail,
      obj({
        lineups: arrayOf(lineupTeam),
        events: arrayOf(gameEvent),
        commentary: arrayOf(obj({ minute: int, text: str })),
      }),
    ),
  }),
);

const worldCupCompetition = (): string => v1CompetitionKey(WORLD_CUP_V1_COMPETITION_ID);

export const v1WorldCupRoutes = {
  hub: {
    ...worldCupRoute('/api/v1/world-cup', '/api/v1/world-cup', isHub),
    match: {
      sightings: (p: V1WorldCupHubPayload) => (p.games ?? []).map(v1Sighting),
      competition: worldCupCompetition,
    },
  },
  matches: {
    ...worldCupRoute('/api/v1/world-cup/matches', '/api/v1/world-cup/matches', isMatches),
    match: { sightings: (p: V1WorldCupMatchesPayload) => p.matches.map(v1Sighting), competition: worldCupCompetition },
  },
  // A standings table moves only when one of the competition's matches does.
  standings: {
    ...worldCupRoute('/api/v1/world-cup/standings', '/api/v1/world-cup/standings', isStandings),
    match: { competition: worldCupCompetition },
  },
  /** Assumption: the groups shortcut's path. */
  groups: worldCupRoute('/api/v1/world-cup/groups', '/api/v1/world-cup/groups', isGroups),
  odds: worldCupRoute('/api/v1/world-cup/odds', '/api/v1/world-cup/odds', isPolls),
  worldCupGame: {
    version: 'v1',
    template: '/api/v1/world-cup/game/{id}',
    auth: true,
    counted: true,
    cacheClass: 'worldCupGame',
    build: (p: { id: number }) => ({ path: `/api/v1/world-cup/game/${p.id}`, query: {} }),
    accepts: isWorldCupGame,
    // Venue, lineups, events, commentary: the game's own, and its own payload shows its state.
    match: {
      match: (p: { id: number }) => v1GameKey(p.id),
      sightings: (p: V1WorldCupGamePayload) => [v1Sighting(p.game)],
    },
  },
  competitionMatches: {
    ...competitionRoute('matches', isMatches),
    match: {
      sightings: (p: V1WorldCupMatchesPayload) => p.matches.map(v1Sighting),
      competition: (p: { competitionId: number }) => v1CompetitionKey(p.competitionId),
    },
  },
  competitionStandings: {
    ...competitionRoute('standings', isStandings),
    match: { competition: (p: { competitionId: number }) => v1CompetitionKey(p.competitionId) },
  },
  competitionGroups: competitionRoute('groups', isGroups),
  /** Assumption: the competitors of a competition live at `/api/v1/competition/{id}/competitors`. */
  competitionCompetitors: competitionRoute('competitors', isCompetitors),
  game: {
    version: 'v1',
    template: '/api/v1/game/{gameId}',
    auth: true,
    counted: true,
    cacheClass: 'worldCupGame',
    build: (p: { gameId: number }) => ({ path: `/api/v1/game/${p.gameId}`, query: {} }),
    accepts: shape<V1GamePayload>(obj({ game: gameDetail })),
    match: {
      match: (p: { gameId: number }) => v1GameKey(p.gameId),
      sightings: (p: V1GamePayload) => [v1Sighting(p.game)],
    },
  },
  lineups: {
    version: 'v1',
    template: '/api/v1/game/{gameId}/lineups',
    auth: true,
    counted: true,
    cacheClass: 'worldCupGame',
    build: (p: { gameId: number }) => ({ path: `/api/v1/game/${p.gameId}/lineups`, query: {} }),
    accepts: shape<V1LineupsPayload>(obj({ lineups: arrayOf(lineupTeam) })),
    match: { match: (p: { gameId: number }) => v1GameKey(p.gameId) },
  },
  competitor: {
    version: 'v1',
    template: '/api/v1/competitor/{id}',
    auth: true,
    counted: true,
    cacheClass: 'v1Competitor',
    build: (p: { id: number }) => ({ path: `/api/v1/competitor/${p.id}`, query: {} }),
    accepts: shape<V1CompetitorPayload>(obj({ competitor: allOf(competitor, obj({ countryName: opt(str) })) })),
  },
} as const;
