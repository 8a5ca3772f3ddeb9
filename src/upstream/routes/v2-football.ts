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
import { isObject, type Route } from './route.js';
import type { V2Event, V2Ref, V2Team, V2UniqueTournament } from './v2.js';

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

const hasArray = (key: string) => (body: unknown): boolean => isObject(body) && Array.isArray(body[key]);
const hasObject = (key: string) => (body: unknown): boolean => isObject(body) && isObject(body[key]);

type NoParams = Record<string, never>;

function fixed<T>(path: string, cacheClass: 'v2WorldCup' | 'v2Catalogue' | 'v2Live', accepts: (body: unknown) => boolean) {
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
  worldCup: fixed<V2WorldCupPayload>('/api/world-cup-2026', 'v2WorldCup', hasObject('uniqueTournament')),
  worldCupInfo: fixed<V2WorldCupInfoPayload>('/api/world-cup-2026/info', 'v2WorldCup', hasObject('info')),
  worldCupTeams: fixed<V2TeamsPayload>('/api/world-cup-2026/teams', 'v2WorldCup', hasArray('teams')),
  worldCupGroups: fixed<V2GroupsPayload>('/api/world-cup-2026/groups', 'v2WorldCup', hasArray('groups')),
  worldCupMatches: {
    version: 'v2',
    template: `${BASE}/api/world-cup-2026/matches`,
    auth: true,
    counted: true,
    cacheClass: 'v2WorldCup',
    build: (p: { page: number }) => ({ path: `${BASE}/api/world-cup-2026/matches`, query: { page: p.page } }),
    accepts: (body: unknown): body is V2WorldCupMatchesPage => hasArray('events')(body) && typeof (body as { hasNextPage?: unknown }).hasNextPage === 'boolean',
  },
  worldCupRound: {
    version: 'v2',
    template: `${BASE}/api/world-cup-2026/matches/round/{round}`,
    auth: true,
    counted: true,
    cacheClass: 'v2WorldCup',
    build: (p: { round: number }) => ({ path: `${BASE}/api/world-cup-2026/matches/round/${p.round}`, query: {} }),
    accepts: (body: unknown): body is V2RoundEventsPayload => hasArray('events')(body),
  },
  worldCupRounds: fixed<V2RoundsPayload>('/api/world-cup-2026/rounds', 'v2WorldCup', hasArray('rounds')),
  worldCupKnockout: fixed<V2KnockoutPayload>('/api/world-cup-2026/knockout', 'v2WorldCup', hasObject('knockout')),
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
    accepts: (body: unknown): body is V2TeamsPayload => hasArray('teams')(body),
  },
  /** Fetched once per TTL and filtered / paginated in the gateway (~6,400 entries). */
  catalogue: fixed<V2CataloguePayload>('/api/tournaments', 'v2Catalogue', hasArray('tournaments')),
  seasons: {
    version: 'v2',
    template: `${BASE}/api/tournaments/{id}/seasons`,
    auth: true,
    counted: true,
    cacheClass: 'v2Catalogue',
    build: (p: { id: number }) => ({ path: `${BASE}/api/tournaments/${p.id}/seasons`, query: {} }),
    accepts: (body: unknown): body is V2SeasonsPayload => hasArray('seasons')(body),
  },
  countries: fixed<V2CountriesPayload>('/api/countries', 'v2Catalogue', hasArray('countries')),
  allCountries: fixed<V2CountriesPayload>('/api/countries/all', 'v2Catalogue', hasArray('countries')),
  categoryTournaments: {
    version: 'v2',
    template: `${BASE}/api/categories/{categoryId}/tournaments`,
    auth: true,
    counted: true,
    cacheClass: 'v2Catalogue',
    build: (p: { categoryId: number }) => ({ path: `${BASE}/api/categories/${p.categoryId}/tournaments`, query: {} }),
    accepts: (body: unknown): body is V2CategoryTournamentsPayload => hasArray('tournaments')(body) && hasObject('category')(body),
  },
  leagues: {
    version: 'v2',
    template: `${BASE}/api/leagues`,
    auth: true,
    counted: true,
    cacheClass: 'v2Catalogue',
    build: (p: { country: string }) => ({ path: `${BASE}/api/leagues`, query: { country: p.country } }),
    accepts: (body: unknown): body is V2LeaguesPayload => hasArray('leagues')(body),
  },
  liveTournaments: fixed<V2TournamentListPayload>('/api/live-tournaments', 'v2Live', hasArray('tournaments')),
  scheduledTournaments: {
    version: 'v2',
    template: `${BASE}/api/scheduled-tournaments/{date}`,
    auth: true,
    counted: true,
    cacheClass: 'v2Live',
    build: (p: { date: string }) => ({ path: `${BASE}/api/scheduled-tournaments/${p.date}`, query: {} }),
    accepts: (body: unknown): body is V2TournamentListPayload => hasArray('tournaments')(body),
  },
  lineups: {
    version: 'v2',
    template: `${BASE}/api/match/{matchId}/lineups`,
    auth: true,
    counted: true,
    cacheClass: 'v2Live',
    build: (p: { matchId: number }) => ({ path: `${BASE}/api/match/${p.matchId}/lineups`, query: {} }),
    accepts: (body: unknown): body is V2LineupsPayload => hasObject('data')(body),
  },
} as const;

export type V2WorldCupInfoModel = V2WorldCupInfoPayload['info'];
