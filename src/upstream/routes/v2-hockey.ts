/**
 * Hockey V2 team routes (spec 4.4) and the per-match statistics the season
 * aggregates are computed from. Base `{base_url}/v2/hockey`.
 *
 * The spec shows only the team detail path (`/api/teams/{id}`, in v2.ts) and
 * the per-match statistic paths. Assumptions for the rest, served alike by the
 * sandbox:
 *   roster                 /api/teams/{id}/players                  { players: V2Player[] }
 *   recent results         /api/teams/{id}/events/last/{page}       { events, hasNextPage } (page from 0)
 *   upcoming games         /api/teams/{id}/events/next/{page}       { events, hasNextPage }
 *   closest game           /api/teams/{id}/near-events              { previousEvent?, nextEvent? }
 *   competitions           /api/teams/{id}/unique-tournaments       { uniqueTournaments: V2UniqueTournament[] }
 *   form and record        /api/teams/{id}/performance              { form: ('W'|'L'|'OTL')[], record: {...} }
 *   featured event         /api/teams/{id}/featured-event           { featuredEvent: V2Event }
 *   player-stat seasons    /api/teams/{id}/player-statistics/seasons { uniqueTournamentSeasons: [...] }
 *   standings seasons      /api/teams/{id}/standings/seasons        { tournamentSeasons: [...] }
 *   match team statistics  /api/match/{id}/statistics               { statistics: [{ period, groups: [{ groupName, statisticsItems }] }] }
 *   match player stats     /api/match/{id}/player-statistics        { home: PlayerLine[], away: PlayerLine[] }
 * `/api/teams/{id}/team-statistics/seasons` and the season statistics route
 * 404 for ice hockey (spec 4.4): they are in known-gaps.ts and have no route here.
 */
import { isEventsPage } from './v2-events.js';
import { isObject, type Route } from './route.js';
import { arrayOf, int, obj, opt, str } from './shape.js';
import { v2Event, v2Player, v2UniqueTournament } from './v2-shapes.js';
import type { V2Event, V2Player, V2Ref, V2UniqueTournament } from './v2.js';

const HOCKEY = 'hockey';

export interface HockeyRosterPayload {
  players: V2Player[];
}
export interface NearEventsPayload {
  previousEvent?: V2Event;
  nextEvent?: V2Event;
}
export interface UniqueTournamentsPayload {
  uniqueTournaments: V2UniqueTournament[];
}
export interface HockeyPerformancePayload {
  /** Most recent last. W win, L regulation loss, OTL overtime/shootout loss. */
  form: Array<'W' | 'L' | 'OTL'>;
  record: { played: number; wins: number; losses: number; overtimeLosses: number };
}
export interface FeaturedEventPayload {
  featuredEvent: V2Event;
}
export interface TournamentSeasons {
  uniqueTournament: V2UniqueTournament;
  seasons: Array<{ id: number; name: string; year: string }>;
}
export interface PlayerStatisticsSeasonsPayload {
  uniqueTournamentSeasons: TournamentSeasons[];
}
export interface StandingsSeasonsPayload {
  tournamentSeasons: TournamentSeasons[];
}

export interface MatchStatisticsItem {
  name: string;
  key: string;
  home: string;
  away: string;
  homeValue: number;
  awayValue: number;
}
export interface MatchStatisticsPayload {
  statistics: Array<{ period: string; groups: Array<{ groupName: string; statisticsItems: MatchStatisticsItem[] }> }>;
}
export interface PlayerStatLine {
  player: V2Ref & { position?: string };
  /** Numeric statistics by key (goals, assists, shots, penaltyMinutes, plusMinus, timeOnIce in seconds). */
  statistics: Record<string, number>;
}
export interface MatchPlayerStatisticsPayload {
  home: PlayerStatLine[];
  away: PlayerStatLine[];
}

const teamRoute = <P extends { id: number }, T>(
  suffix: string,
  cacheClass: 'v2Entity' | 'v2Events',
  accepts: (body: unknown) => body is T,
  extra: (p: P) => string = () => '',
): Route<P, T> => ({
  version: 'v2',
  template: `/v2/hockey/api/teams/{id}${suffix}`,
  auth: true,
  counted: true,
  cacheClass,
  build: (p) => ({ path: `/v2/${HOCKEY}/api/teams/${p.id}${suffix.replace('/{page}', '')}${extra(p)}`, query: {} }),
  accepts,
});

const hasArray =
  (key: string) =>
  (body: unknown): boolean =>
    isObject(body) && Array.isArray(body[key]);
/** The seasons lists are read whole (see shape.ts). */
const tournamentSeasons = arrayOf(
  obj({ uniqueTournament: v2UniqueTournament, seasons: arrayOf(obj({ id: int, name: str, year: str })) }),
);

const nearEvents = obj({ previousEvent: opt(v2Event), nextEvent: opt(v2Event) });

export const v2HockeyRoutes = {
  roster: teamRoute('/players', 'v2Entity', (b): b is HockeyRosterPayload => obj({ players: arrayOf(v2Player) })(b)),
  lastEvents: teamRoute<{ id: number; page: number }, { events: V2Event[]; hasNextPage: boolean }>(
    '/events/last/{page}',
    'v2Events',
    isEventsPage,
    (p) => `/${p.page}`,
  ),
  nextEvents: teamRoute<{ id: number; page: number }, { events: V2Event[]; hasNextPage: boolean }>(
    '/events/next/{page}',
    'v2Events',
    isEventsPage,
    (p) => `/${p.page}`,
  ),
  nearEvents: teamRoute('/near-events', 'v2Events', (b): b is NearEventsPayload => nearEvents(b)),
  competitions: teamRoute('/unique-tournaments', 'v2Entity', (b): b is UniqueTournamentsPayload =>
    obj({ uniqueTournaments: arrayOf(v2UniqueTournament) })(b),
  ),
  performance: teamRoute('/performance', 'v2Events', (b): b is HockeyPerformancePayload =>
    obj({ form: arrayOf(str), record: obj({ played: int, wins: int, losses: int, overtimeLosses: int }) })(b),
  ),
  featuredEvent: teamRoute('/featured-event', 'v2Events', (b): b is FeaturedEventPayload =>
    obj({ featuredEvent: v2Event })(b),
  ),
  playerStatisticsSeasons: teamRoute(
    '/player-statistics/seasons',
    'v2Entity',
    (b): b is PlayerStatisticsSeasonsPayload => obj({ uniqueTournamentSeasons: tournamentSeasons })(b),
  ),
  standingsSeasons: teamRoute('/standings/seasons', 'v2Entity', (b): b is StandingsSeasonsPayload =>
    obj({ tournamentSeasons: tournamentSeasons })(b),
  ),
  /** Used for finished matches only (season aggregates): their statistics never change, hence the long-lived class. */
  finishedMatchStatistics: {
    version: 'v2',
    template: '/v2/hockey/api/match/{matchId}/statistics',
    auth: true,
    counted: true,
    cacheClass: 'finishedMatch',
    build: (p: { matchId: number }) => ({ path: `/v2/${HOCKEY}/api/match/${p.matchId}/statistics`, query: {} }),
    accepts: (b: unknown): b is MatchStatisticsPayload => hasArray('statistics')(b),
  },
  finishedMatchPlayerStatistics: {
    version: 'v2',
    template: '/v2/hockey/api/match/{matchId}/player-statistics',
    auth: true,
    counted: true,
    cacheClass: 'finishedMatch',
    build: (p: { matchId: number }) => ({ path: `/v2/${HOCKEY}/api/match/${p.matchId}/player-statistics`, query: {} }),
    accepts: (b: unknown): b is MatchPlayerStatisticsPayload => hasArray('home')(b) && hasArray('away')(b),
  },
} as const satisfies Record<string, Route<never, unknown>>;
