/**
 * Routes the spec documents as 404, 501 or always empty, answered by the
 * gateway without an upstream request (DESIGN.md, schema conventions):
 * quota is never spent on an answer known in advance. Each entry names the
 * spec section it comes from and what to use instead. Domains add entries;
 * resolvers raise them with `knownGap(id)` or answer `emptyByDesign`.
 */
import { ErrorCode, GatewayError } from './errors.js';

export interface KnownGap {
  readonly version: 'v1' | 'v2' | 'v3' | 'v4' | 'v6';
  /** The V2/V6 sport slug the gap applies to. */
  readonly sport: string;
  /** Route templates, as the spec writes them. */
  readonly routes: readonly string[];
  /** What the upstream answers: 404, 501, or 200 with empty arrays. */
  readonly upstream: 404 | 501 | 'empty';
  readonly spec: string;
  /** What to query instead (a GraphQL path, or a route). */
  readonly alternative: string;
}

export const knownGaps = {
  hockeyTeamStatisticsSeasons: {
    version: 'v2',
    sport: 'hockey',
    routes: ['/api/teams/{id}/team-statistics/seasons'],
    upstream: 404,
    spec: '4.4',
    alternative: 'v2(sport: ICE_HOCKEY) { hockey { team(id:) { seasonAggregates(tournamentId:, seasonId:) } } }',
  },
  hockeyTeamSeasonStatistics: {
    version: 'v2',
    sport: 'hockey',
    routes: ['/api/teams/{id}/tournament/{tid}/season/{sid}/statistics'],
    upstream: 404,
    spec: '4.4',
    alternative: 'v2(sport: ICE_HOCKEY) { hockey { team(id:) { seasonAggregates(tournamentId:, seasonId:) } } }',
  },
  v6BaseballSubResources: {
    version: 'v6',
    sport: 'baseball',
    routes: ['/match/{matchId}/lineups', '/stats', '/incidents', '/h2h', '/commentary', '/tables'],
    upstream: 501,
    spec: '4.9, 7',
    alternative:
      'v2(sport: BASEBALL) { baseball { lineups(matchId:) } } (V2 lineups; V6 offers match, team-stats and odds only)',
  },
  v2CyclingSchedule: {
    version: 'v2',
    sport: 'cycling',
    routes: [
      '/api/live',
      '/api/today',
      '/api/schedule/{date}',
      '/api/live-tournaments',
      '/api/scheduled-tournaments/{date}',
    ],
    upstream: 'empty',
    spec: '4.9',
    alternative: 'v3 { cycling(window:) } (race and stage content for cycling)',
  },
  v2CyclingPlayers: {
    version: 'v2',
    sport: 'cycling',
    routes: ['/api/players/{id}'],
    upstream: 404,
    spec: '4.9',
    alternative: 'v2(sport: CYCLING) { cycling { rider(id:) } } (riders are modelled as teams, /api/teams/{id})',
  },
  motorsportStageDetail: {
    version: 'v2',
    sport: 'motorsport',
    routes: ['/results', '/classification', '/standings', '/laps', '/startgrid'],
    upstream: 404,
    spec: '2.13, 4.9',
    alternative: 'v2(sport: MOTORSPORT) { motorsport { stage(id:) { winner } constructorStandings(seasonId:) } }',
  },
  baseballLineupsNotPublished: {
    version: 'v2',
    sport: 'baseball',
    routes: ['/api/match/{matchId}/lineups'],
    upstream: 404,
    spec: '4.9',
    alternative: 'v2(sport: BASEBALL) { event(id:) } (lineups are published for the major league only)',
  },
  baseballLeagueNotCarried: {
    version: 'v2',
    sport: 'baseball',
    routes: ['/api/match/{matchId}/lineups'],
    upstream: 404,
    spec: '4.9',
    alternative: 'v2(sport: BASEBALL) { event(id:) } (this league is not carried for lineups)',
  },
  manager404OutsideFootball: {
    version: 'v2',
    sport: '*',
    routes: ['/api/managers/{managerId}/career', '/api/managers/{managerId}/career-history'],
    upstream: 404,
    spec: '4.8',
    alternative: 'v2(sport:) { manager(id:) }',
  },
  managerCareerOutsideFootball: {
    version: 'v2',
    sport: 'baseball, handball, rugby, basketball, hockey, volleyball, american-football',
    routes: ['/api/manager/{id}/career', '/api/manager/{id}/career-history'],
    upstream: 404,
    spec: '4.8',
    alternative:
      'v2(sport: FOOTBALL) { manager(id:) { career } } (careers exist on football only); v2(sport:) { manager(id:) { lastEvents } }',
  },
} as const satisfies Record<string, KnownGap>;

export type KnownGapId = keyof typeof knownGaps;

/** The NOT_SUPPORTED error of a known gap: no upstream request is made. */
export function knownGap(id: KnownGapId, detail?: string): GatewayError {
  const gap: KnownGap = knownGaps[id];
  const routes = gap.routes.join(', ');
  return new GatewayError(
    ErrorCode.NotSupported,
    `${gap.version.toUpperCase()} ${gap.sport} ${routes} ${gap.upstream === 'empty' ? 'is always empty' : `answers ${gap.upstream}`} (spec ${gap.spec})${detail === undefined ? '' : `: ${detail}`}.`,
    { version: gap.version, route: gap.routes[0] ?? '', alternative: gap.alternative },
  );
}
