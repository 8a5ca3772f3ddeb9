/**
 * V2 football routes (spec 4.7, 4.8): the World Cup 2026 shortcuts, season
 * teams, and the discovery routes (catalogue, seasons, countries,
 * categories, leagues, live and scheduled tournaments, lineups). Base
 * `{base_url}/v2/football`. Typed path builders and payload types only.
 *
 * The spec names the routes, not their payloads. Assumption: the shapes
 * below, in V2 terminology (events, homeTeam/awayTeam, tournament,
 * startTimestamp; spec 2.14), served alike by the sandbox.
 */
import { v2EventKey, v2Sighting } from './match-sightings.js';
import type { Route } from './route.js';
import type { V2Event, V2Ref, V2Team, V2UniqueTournament } from './v2.js';
import { arrayOf, bool, epochSeconds, int, num, obj, opt, shape, str } from './shape.js';
import { v2Events, v2Ref, v2Team, v2UniqueTournament } from './v2-shapes.js';

const BASE = '/v2/football';

export interface V2Season {
  id: number;
  name: string;
  year: string;
}

export interface V2WorldCupPayload {
  uniqueTournament: V2UniqueTournament;
  season: V2Season;
}

export interface V2WorldCupInfoPayload {
  info: {
    season: V2Season;
    hostCountries: Array<{ name: string; alpha2: string }>;
    numberOfTeams: number;
    numberOfGroups: number;
    numberOfMatches: number;
    format: string;
    startDate: string;
    endDate: string;
  };
}

export interface V2TeamsPayload {
  teams: V2Team[];
}

export interface V2StandingsRow {
  position: number;
  team: V2Ref;
  matches: number;
  wins: number;
  draws: number;
  losses: number;
  scoresFor: number;
  scoresAgainst: number;
  points: number;
}

export interface V2Group {
  id: number;
  name: string;
  rows: V2StandingsRow[];
}

export interface V2GroupsPayload {
  groups: V2Group[];
}

/** Spec 4.7 / 8: 30 events per page, `page` from 0. */
export interface V2WorldCupMatchesPage {
  events: V2Event[];
  page: number;
  hasNextPage: boolean;
}

export const WORLD_CUP_V2_PAGE_SIZE = 30;

export interface V2RoundEventsPayload {
  round: number;
  events: V2Event[];
}

export interface V2Round {
  round: number;
  name: string;
  slug: string;
  /** Events in the round. */
  events: number;
}

export interface V2RoundsPayload {
  currentRound: V2Round;
  rounds: V2Round[];
}

export interface V2BracketBlock {
  order: number;
  eventId: number;
  startTimestamp: number;
  homeTeam: V2Ref;
  awayTeam: V2Ref;
  /** The slot a team comes from ("1A", "W73"). */
  homeSlot: string;
  awaySlot: string;
  finished: boolean;
  winnerTeamId?: number;
}

export interface V2KnockoutPayload {
  knockout: { rounds: Array<{ round: number; name: string; blocks: V2BracketBlock[] }> };
}

export interface V2Category {
  id: number;
  name: string;
  slug: string;
  alpha2?: string;
  /** True for the separate amateur categories (spec 4.8). */
  amateur?: boolean;
}

export interface V2CatalogueTournament {
  id: number;
  name: string;
  slug: string;
  category: V2Category;
  /** 1 is a country's top flight. */
  tier?: number;
}

export interface V2CataloguePayload {
  tournaments: V2CatalogueTournament[];
}

export interface V2SeasonsPayload {
  seasons: V2Season[];
}

export interface V2Country {
  name: string;
  slug: string;
  alpha2: string;
  /** Its football category, when it has one. */
  categoryId?: number;
}

export interface V2CountriesPayload {
  countries: V2Country[];
}

export interface V2CategoryTournamentsPayload {
  category: V2Category;
  tournaments: V2CatalogueTournament[];
}

export interface V2LeaguesPayload {
  country: string;
  leagues: V2CatalogueTournament[];
}

export interface V2TournamentListPayload {
  tournaments: V2CatalogueTournament[];
}

export interface V2LineupPlayer {
  player: V2Ref & { position?: string };
  shirtNumber?: number;
  position?: string;
  substitute: boolean;
}

export interface V2LineupSide {
  formation?: string;
  players: V2LineupPlayer[];
  manager?: V2Ref;
}

/** `data.confirmed` as spec 2.8 shows it for baseball; football uses the same envelope (assumption). */
export interface V2LineupsPayload {
  data: { confirmed: boolean; home: V2LineupSide; away: V2LineupSide };
}

/** What the resolvers read of each payload (the interfaces above), checked once: see shape.ts. */
/** `V2Season.year` is non-null in the schema. */
const v2Season = obj({ id: int, name: str, year: str });
const category = obj({ id: int, name: str, slug: opt(str), alpha2: opt(str), amateur: opt(bool) });
const catalogueTournament = obj({ id: int, name: str, slug: opt(str), category, tier: opt(int) });
const round = obj({ round: int, name: str, slug: str, events: int });
const standingsRow = obj({
  position: int,
  team: v2Ref,
  matches: int,
  wins: int,
  draws: int,
  losses: int,
  scoresFor: int,
  scoresAgainst: int,
  points: num,
});
const bracketBlock = obj({
  order: int,
  eventId: int,
  startTimestamp: epochSeconds,
  homeTeam: v2Ref,
  awayTeam: v2Ref,
  homeSlot: str,
  awaySlot: str,
  finished: bool,
  winnerTeamId: opt(int),
});
const lineupSide = obj({
  formation: opt(str),
  players: arrayOf(obj({ player: v2Ref, shirtNumber: opt(int), position: opt(str), substitute: opt(bool) })),
  manager: opt(v2Ref),
});
const shapes = {
  worldCup: obj({ uniqueTournament: v2UniqueTournament, season: v2Season }),
  worldCupInfo: obj({
    info: obj({
      season: v2Season,
      hostCountries: arrayOf(obj({ name: str, alpha2: str })),
      numberOfTeams: int,
      numberOfGroups: int,
      numberOfMatches: int,
      format: str,
      startDate: opt(str),
      endDate: opt(str),
    }),
  }),
  teams: obj({ teams: arrayOf(v2Team) }),
  groups: obj({ groups: arrayOf(obj({ id: int, name: str, rows: arrayOf(standingsRow) })) }),
  events: obj({ events: v2Events }),
  rounds: obj({ currentRound: opt(round), rounds: arrayOf(round) }),
  knockout: obj({ knockout: obj({ rounds: arrayOf(obj({ round: int, name: str, blocks: arrayOf(bracketBlock) })) }) }),
  seasons: obj({ seasons: arrayOf(v2Season) }),
  tournaments: obj({ tournaments: arrayOf(catalogueTournament) }),
  countries: obj({ countries: arrayOf(obj({ name: str, slug: opt(str), alpha2: opt(str), categoryId: opt(int) })) }),
  lineups: obj({ data: obj({ confirmed: bool, home: lineupSide, away: lineupSide }) }),
};

type NoParams = Record<string, never>;

function fixed<T>(
  path: string,
  cacheClass: 'v2WorldCup' | 'v2Catalogue' | 'v2Live',
  accepts: (body: unknown) => boolean,
) {
  return {
    version: 'v2',
    template: `${BASE}${path}`,
    auth: true,
    counted: true,
    cacheClass,
    build: (_p: NoParams) => ({ path: `${BASE}${path}`, query: {} }),
    accepts: accepts as (body: unknown) => body is T,
  } as const satisfies Route<NoParams, T>;
}

export const v2FootballRoutes = {
  worldCup: fixed<V2WorldCupPayload>('/api/world-cup-2026', 'v2WorldCup', shapes.worldCup),
  worldCupInfo: fixed<V2WorldCupInfoPayload>('/api/world-cup-2026/info', 'v2WorldCup', shapes.worldCupInfo),
  worldCupTeams: fixed<V2TeamsPayload>('/api/world-cup-2026/teams', 'v2WorldCup', shapes.teams),
  worldCupGroups: fixed<V2GroupsPayload>('/api/world-cup-2026/groups', 'v2WorldCup', shapes.groups),
  worldCupMatches: {
    version: 'v2',
    template: `${BASE}/api/world-cup-2026/matches`,
    auth: true,
    counted: true,
    cacheClass: 'v2WorldCup',
    build: (p: { page: number }) => ({ path: `${BASE}/api/world-cup-2026/matches`, query: { page: p.page } }),
    accepts: (body: unknown): body is V2WorldCupMatchesPage =>
      shapes.events(body) && typeof (body as { hasNextPage?: unknown }).hasNextPage === 'boolean',
    // A fixture list: fresh for the shortest of its matches' states.
    match: { sightings: (payload: V2WorldCupMatchesPage) => payload.events.map((e) => v2Sighting('football', e)) },
  },
  worldCupRound: {
    version: 'v2',
    template: `${BASE}/api/world-cup-2026/matches/round/{round}`,
    auth: true,
    counted: true,
    cacheClass: 'v2WorldCup',
    build: (p: { round: number }) => ({ path: `${BASE}/api/world-cup-2026/matches/round/${p.round}`, query: {} }),
    accepts: (body: unknown): body is V2RoundEventsPayload => shapes.events(body),
    match: { sightings: (payload: V2RoundEventsPayload) => payload.events.map((e) => v2Sighting('football', e)) },
  },
  worldCupRounds: fixed<V2RoundsPayload>('/api/world-cup-2026/rounds', 'v2WorldCup', shapes.rounds),
  worldCupKnockout: fixed<V2KnockoutPayload>('/api/world-cup-2026/knockout', 'v2WorldCup', shapes.knockout),
  seasonTeams: {
    version: 'v2',
    template: `${BASE}/api/tournament/{tournamentId}/season/{seasonId}/teams`,
    auth: true,
    counted: true,
    cacheClass: 'v2WorldCup',
    build: (p: { tournamentId: number; seasonId: number }) => ({
      path: `${BASE}/api/tournament/${p.tournamentId}/season/${p.seasonId}/teams`,
      query: {},
    }),
    accepts: (body: unknown): body is V2TeamsPayload => shapes.teams(body),
  },
  /** Fetched once per TTL and filtered / paginated in the gateway (~6,400 entries). */
  catalogue: fixed<V2CataloguePayload>('/api/tournaments', 'v2Catalogue', shapes.tournaments),
  seasons: {
    version: 'v2',
    template: `${BASE}/api/tournaments/{id}/seasons`,
    auth: true,
    counted: true,
    cacheClass: 'v2Catalogue',
    build: (p: { id: number }) => ({ path: `${BASE}/api/tournaments/${p.id}/seasons`, query: {} }),
    accepts: (body: unknown): body is V2SeasonsPayload => shapes.seasons(body),
  },
  countries: fixed<V2CountriesPayload>('/api/countries', 'v2Catalogue', shapes.countries),
  allCountries: fixed<V2CountriesPayload>('/api/countries/all', 'v2Catalogue', shapes.countries),
  categoryTournaments: {
    version: 'v2',
    template: `${BASE}/api/categories/{categoryId}/tournaments`,
    auth: true,
    counted: true,
    cacheClass: 'v2Catalogue',
    build: (p: { categoryId: number }) => ({ path: `${BASE}/api/categories/${p.categoryId}/tournaments`, query: {} }),
    accepts: (body: unknown): body is V2CategoryTournamentsPayload =>
      shapes.tournaments(body) && category((body as { category?: unknown }).category),
  },
  leagues: {
    version: 'v2',
    template: `${BASE}/api/leagues`,
    auth: true,
    counted: true,
    cacheClass: 'v2Catalogue',
    build: (p: { country: string }) => ({ path: `${BASE}/api/leagues`, query: { country: p.country } }),
    accepts: shape<V2LeaguesPayload>(obj({ leagues: arrayOf(catalogueTournament) })),
  },
  liveTournaments: fixed<V2TournamentListPayload>('/api/live-tournaments', 'v2Live', shapes.tournaments),
  scheduledTournaments: {
    version: 'v2',
    template: `${BASE}/api/scheduled-tournaments/{date}`,
    auth: true,
    counted: true,
    cacheClass: 'v2Live',
    build: (p: { date: string }) => ({ path: `${BASE}/api/scheduled-tournaments/${p.date}`, query: {} }),
    accepts: (body: unknown): body is V2TournamentListPayload => shapes.tournaments(body),
  },
  lineups: {
    version: 'v2',
    template: `${BASE}/api/match/{matchId}/lineups`,
    auth: true,
    counted: true,
    cacheClass: 'v2Live',
    build: (p: { matchId: number }) => ({ path: `${BASE}/api/match/${p.matchId}/lineups`, query: {} }),
    accepts: (body: unknown): body is V2LineupsPayload => shapes.lineups(body),
    match: { match: (p: { matchId: number }) => v2EventKey('football', p.matchId) },
  },
} as const;

export type V2WorldCupInfoModel = V2WorldCupInfoPayload['info'];
