/**
 * The one declared place for what a field costs in counted upstream
 * requests, keyed by `Type.field`. A field not listed costs nothing (it
 * reads its parent's payload or a free route). Uncounted routes (the
 * `/reference/sports` catalogue, the V6 stat-ID mapping, V1 images) count 0
 * through `route.counted`. Whoever adds a field that calls the upstream adds
 * its line here; test/cost-estimate.test.ts checks every key names a real
 * field and that estimates bound what operations really spend.
 *
 * Bounds the spec leaves unshown (assumptions, listed in docs/assumptions.md):
 * - V2 event pages hold at least ASSUMED_V2_EVENTS_PAGE_SIZE events (the
 *   sandbox's page size; the spec shows only the World Cup's 30).
 * - A list with no size argument holds at most DEFAULT_LIST_SIZE items unless
 *   `listSizes` says otherwise (World Cup sizes come from the spec: 48 teams,
 *   104 matches).
 * - A hockey season's `events/last` list has at most HOCKEY_SEASON_PAGES_BOUND
 *   pages and a team plays at most HOCKEY_TEAM_SEASON_MATCHES_BOUND matches.
 */
import { seasonCost } from '../../model/hockey-season-aggregates.js';
import { integerId } from '../../model/native-id.js';
import { v1WorldCupRoutes } from '../../upstream/routes/v1-world-cup.js';
import { v1Routes } from '../../upstream/routes/v1.js';
import { v2AussieRulesRoutes } from '../../upstream/routes/v2-aussie-rules.js';
import { v2BaseballRoutes } from '../../upstream/routes/v2-baseball.js';
import { v2CyclingRoutes } from '../../upstream/routes/v2-cycling.js';
import { v2EventRoutes } from '../../upstream/routes/v2-events.js';
import { v2FootballRoutes, WORLD_CUP_V2_PAGE_SIZE } from '../../upstream/routes/v2-football.js';
import { v2HockeyRoutes } from '../../upstream/routes/v2-hockey.js';
import { v2ManagerRoutes } from '../../upstream/routes/v2-managers.js';
import { v2MotorsportRoutes } from '../../upstream/routes/v2-motorsport.js';
import { v2WaterPoloRoutes } from '../../upstream/routes/v2-waterpolo.js';
import { v2Routes } from '../../upstream/routes/v2.js';
import { v3Routes } from '../../upstream/routes/v3.js';
import { v4Routes } from '../../upstream/routes/v4.js';
import { v6BaseballRoutes } from '../../upstream/routes/v6-baseball.js';
import { v6FootballRoutes } from '../../upstream/routes/v6-football.js';
import { logoCost, v2TeamImage } from './logo-cost.js';
import { nodesCost } from './node-cost.js';
import { counterpartsByIdCost, counterpartsCost } from './counterparts-cost.js';
import {
  v1FootballCompetitorEntity,
  v1HockeyCompetitorEntity,
  v2TeamEntity,
  v2TournamentEntity,
  v3TeamEntity,
  v1WorldCupMatchEntity,
  v2EventEntity,
  v1HockeyAthleteEntity,
  v2PlayerEntity,
  v6TeamStatsEntity,
} from '../../identity/describe.js';
import { withLogoSportArgs, withSportArgs } from './sport-args.js';
import {
  computed,
  mayProbe,
  paged,
  resource,
  resourceList,
  resourcePerItem,
  routes,
  type Args,
  type CostInput,
  type FieldCost,
} from './cost-rule.js';
import { nothing, type Estimate } from '../resource-estimate.js';

export const ASSUMED_V2_EVENTS_PAGE_SIZE = 10;
export const DEFAULT_LIST_SIZE = 50;
export const HOCKEY_SEASON_PAGES_BOUND = 40;
export const HOCKEY_TEAM_SEASON_MATCHES_BOUND = 100;

const id = (args: Args, name: string): number => integerId(args[name] as string, name);
const optionalId = (args: Args, name: string): number | undefined => (args[name] == null ? undefined : id(args, name));
const noParams = (): Record<string, never> => ({});

/**
 * Hockey season aggregates reuse the "cost shown first" figure
 * (src/model/hockey-season-aggregates.ts): once every page of the season's
 * event list is loaded, `seasonCost` counts exactly the statistics requests
 * still needed. The pages are the cheap list the field loads first anyway,
 * so the estimate loads them (through the operation's loader: execution
 * reuses them, and what they cost is in the operation's estimate and
 * actual) rather than assume the documented bounds, which refused a first
 * `seasonAggregates` query that really costs a few dozen requests.
 */
async function seasonPagesLoaded(input: CostInput): Promise<boolean> {
  const { args, fetcher, context } = input;
  const base = {
    sport: 'hockey',
    tournamentId: id(args, 'tournamentId'),
    seasonId: id(args, 'seasonId'),
    direction: 'last' as const,
  };
  for (let page = 0; page < HOCKEY_SEASON_PAGES_BOUND; page++) {
    if (!fetcher.isCached(v2EventRoutes.seasonEvents, { ...base, page }) && !mayProbe(input)) return false;
    if (!(await context.upstream.load(v2EventRoutes.seasonEvents, { ...base, page })).hasNextPage) return true;
  }
  return false;
}

function seasonKey(input: CostInput) {
  return {
    teamId: id(input.ancestors[0] ?? {}, 'id'),
    tournamentId: id(input.args, 'tournamentId'),
    seasonId: id(input.args, 'seasonId'),
  };
}

const bound = (requests: number): Estimate => ({ requests, unanswerable: requests });

/** A page that cannot be loaded fails the field at execution too, before any statistics request. */
const hockeySeasonAggregates = computed(async (input) => {
  try {
    if (!(await seasonPagesLoaded(input)))
      return bound(HOCKEY_SEASON_PAGES_BOUND + 2 * HOCKEY_TEAM_SEASON_MATCHES_BOUND);
    const cost = await seasonCost(input.context, seasonKey(input));
    return bound(cost.upstreamRequestsNeeded);
  } catch {
    return nothing;
  }
});

const hockeySeasonAggregatesCost = computed(async (input) => {
  try {
    return (await seasonPagesLoaded(input)) ? nothing : bound(HOCKEY_SEASON_PAGES_BOUND);
  } catch {
    return nothing;
  }
});

const v2Events = (route: Parameters<typeof paged>[0]) => paged(route, ASSUMED_V2_EVENTS_PAGE_SIZE);

export const fieldCosts: Readonly<Record<string, FieldCost>> = {
  // Cross-version fields. node(id:) loads what the entity's sources need (node-cost.ts): nothing
  // when a fresh listing holds it, else its own route or the list route that carries it.
  'Query.node': computed(({ args, context }) => nodesCost(context, [args['id']])),
  // One search per asked version no link or learned finding answers (counterparts-cost.ts).
  'Query.counterparts': counterpartsByIdCost,
  'V2Team.counterparts': counterpartsCost('v2', 'team', v2TeamEntity),
  'V2Tournament.counterparts': counterpartsCost('v2', 'competition', v2TournamentEntity),
  'V1FootballCompetitor.counterparts': counterpartsCost('v1', 'team', v1FootballCompetitorEntity),
  'V1HockeyCompetitor.counterparts': counterpartsCost('v1', 'team', v1HockeyCompetitorEntity),
  'V3Team.counterparts': counterpartsCost('v3', 'team', v3TeamEntity),
  'V1WorldCupMatch.counterparts': counterpartsCost('v1', 'match', v1WorldCupMatchEntity),
  'V2Event.counterparts': counterpartsCost('v2', 'match', v2EventEntity),
  'V1HockeyAthlete.counterparts': counterpartsCost('v1', 'player', v1HockeyAthleteEntity),
  'V2Player.counterparts': counterpartsCost('v2', 'player', v2PlayerEntity),
  'V6TeamStats.counterparts': counterpartsCost('v6', 'team', v6TeamStatsEntity),
  'Query.nodes': {
    estimate: ({ args, context }) => nodesCost(context, Array.isArray(args['ids']) ? (args['ids'] as unknown[]) : []),
    listSize: (args) => (Array.isArray(args['ids']) ? (args['ids'] as unknown[]).length : 0),
  },
  'Query.logo': withLogoSportArgs(
    logoCost((args) => (args['sources'] as Args | undefined) ?? {}),
    'sources',
  ),
  'Query.liveTicker': resource(v1WorldCupRoutes.matches, noParams),

  // Hockey V1 (spec 4.1): root fields name their resource, so a cached one is free.
  'V1Hockey.standings': resource(v1Routes.standings, (a) => ({
    competition: optionalId(a, 'competition'),
    seasonNum: (a['season'] as number | null | undefined) ?? undefined,
  })),
  'V1Hockey.lines': resource(v1Routes.lines, (a) => ({ gameId: id(a, 'gameId') })),
  'V1Hockey.news': resource(v1Routes.news, (a) => ({
    competitionId: optionalId(a, 'competitionId'),
    gameId: optionalId(a, 'gameId'),
    limit: (a['limit'] as number | null | undefined) ?? undefined,
  })),
  'V1Hockey.athlete': resource(v1Routes.athletes, (a) => ({ athleteId: id(a, 'id') })),
  'V1Hockey.athletes': resourcePerItem('ids', v1Routes.athletes, (item) => ({
    athleteId: integerId(item as string, 'athlete id'),
  })),
  'V1Hockey.searchAthletes': resource(v1Routes.search, (a) => ({ q: String(a['name']).trim(), sport: 'hockey' })),
  'V1HockeyAthleteHit.athlete': routes(v1Routes.athletes),
  'V1HockeyCompetitor.logo': withLogoSportArgs(logoCost((args) => args, undefined, true)),

  // World Cup V1 (spec 4.6).
  'V1WorldCup.hub': resource(v1WorldCupRoutes.hub, noParams),
  'V1WorldCup.matches': resource(v1WorldCupRoutes.matches, noParams),
  'V1WorldCup.standings': resource(v1WorldCupRoutes.standings, noParams),
  'V1WorldCup.groups': resource(v1WorldCupRoutes.groups, noParams),
  'V1WorldCup.predictions': resource(v1WorldCupRoutes.odds, noParams),
  'V1WorldCup.game': resource(v1WorldCupRoutes.worldCupGame, (a) => ({ id: id(a, 'id') })),
  'V1WorldCup.gameDetail': resource(v1WorldCupRoutes.game, (a) => ({ gameId: id(a, 'id') })),
  'V1WorldCup.lineups': resource(v1WorldCupRoutes.lineups, (a) => ({ gameId: id(a, 'gameId') })),
  'V1WorldCup.competitor': resource(v1WorldCupRoutes.competitor, (a) => ({ id: id(a, 'id') })),
  'V1FootballCompetition.matches': routes(v1WorldCupRoutes.competitionMatches),
  'V1FootballCompetition.standings': routes(v1WorldCupRoutes.competitionStandings),
  'V1FootballCompetition.groups': routes(v1WorldCupRoutes.competitionGroups),
  'V1FootballCompetition.competitors': routes(v1WorldCupRoutes.competitionCompetitors),
  'V1WorldCupMatch.detail': routes(v1WorldCupRoutes.worldCupGame),
  // Answered from the parent when it came through `game`; counted in case it did not.
  'V1WorldCupGame.lineups': routes(v1WorldCupRoutes.lineups),
  'V1WorldCupGame.events': routes(v1WorldCupRoutes.worldCupGame),
  'V1WorldCupGame.commentary': routes(v1WorldCupRoutes.worldCupGame),
  // The coach comes from the team's latest lineup: matches list + one lineups request.
  'V1FootballCompetitor.coach': computed(({ fetcher }) =>
    bound(fetcher.isCached(v1WorldCupRoutes.matches, {}) ? 1 : 2),
  ),

  // Generic V2 entities (spec 4.3); the slug lookup is free. The namespace costs nothing itself, nor does
  // anything under it when its sport arguments are refused.
  'Query.v2': withSportArgs(computed(() => nothing)),
  'V2.team': routes(v2Routes.team),
  'V2.player': routes(v2Routes.player),
  'V2.tournament': routes(v2Routes.tournament),
  'V2.manager': routes(v2Routes.manager),
  'V2.event': routes(v2EventRoutes.event),
  'V2.seasonEvents': v2Events(v2EventRoutes.seasonEvents),
  'V2Team.logo': withLogoSportArgs(logoCost((args) => args, v2TeamImage)),
  'V2Tournament.seasons': routes(v2FootballRoutes.seasons),
  'V2Manager.lastEvents': v2Events(v2ManagerRoutes.lastEvents),
  'V2Manager.career': routes(v2ManagerRoutes.footballCareer),

  // Hockey V2 team routes (spec 4.4).
  'HockeyV2Team.detail': routes(v2Routes.team),
  'HockeyV2Team.roster': routes(v2HockeyRoutes.roster),
  'HockeyV2Team.recentResults': v2Events(v2HockeyRoutes.lastEvents),
  'HockeyV2Team.upcomingGames': v2Events(v2HockeyRoutes.nextEvents),
  'HockeyV2Team.closestGame': routes(v2HockeyRoutes.nearEvents),
  'HockeyV2Team.competitions': routes(v2HockeyRoutes.competitions),
  'HockeyV2Team.form': routes(v2HockeyRoutes.performance),
  'HockeyV2Team.featuredEvent': routes(v2HockeyRoutes.featuredEvent),
  'HockeyV2Team.playerStatisticsSeasons': routes(v2HockeyRoutes.playerStatisticsSeasons),
  'HockeyV2Team.standingsSeasons': routes(v2HockeyRoutes.standingsSeasons),
  'HockeyV2Team.seasonAggregatesCost': hockeySeasonAggregatesCost,
  'HockeyV2Team.seasonAggregates': hockeySeasonAggregates,

  // Aussie rules V2 (spec 4.5).
  'V2AussieRules.coach': routes(v2AussieRulesRoutes.manager),
  'V2AussieRules.umpire': routes(v2AussieRulesRoutes.referee),
  'V2AussieRules.ground': routes(v2AussieRulesRoutes.venue),
  'AussieRulesCoach.career': routes(v2AussieRulesRoutes.managerCareer),
  'AussieRulesCoach.seasonStatistics': routes(v2AussieRulesRoutes.managerSeasonStatistics),
  'AussieRulesCoach.lastEvents': v2Events(v2AussieRulesRoutes.managerLastEvents),
  'AussieRulesUmpire.seasonStatistics': routes(v2AussieRulesRoutes.refereeSeasonStatistics),
  'AussieRulesUmpire.lastEvents': v2Events(v2AussieRulesRoutes.refereeLastEvents),
  'AussieRulesUmpire.nextEvents': v2Events(v2AussieRulesRoutes.refereeNextEvents),
  'AussieRulesGround.lastEvents': v2Events(v2AussieRulesRoutes.venueLastEvents),
  'AussieRulesGround.nextEvents': v2Events(v2AussieRulesRoutes.venueNextEvents),

  // Football V2 (spec 4.7, 4.8).
  'V2Football.seasonTeams': routes(v2FootballRoutes.seasonTeams),
  'V2Football.competitions': routes(v2FootballRoutes.catalogue),
  'V2Football.seasons': routes(v2FootballRoutes.seasons),
  'V2Football.categories': routes(v2FootballRoutes.catalogue),
  'V2Football.categoryCompetitions': routes(v2FootballRoutes.categoryTournaments),
  'V2Football.countries': routes(v2FootballRoutes.countries),
  'V2Football.leagues': routes(v2FootballRoutes.leagues),
  'V2Football.liveCompetitions': routes(v2FootballRoutes.liveTournaments),
  'V2Football.scheduledCompetitions': routes(v2FootballRoutes.scheduledTournaments),
  'V2Football.lineups': routes(v2FootballRoutes.lineups),
  'V2WorldCup2026.tournament': resource(v2FootballRoutes.worldCup, noParams),
  'V2WorldCup2026.season': resource(v2FootballRoutes.worldCup, noParams),
  'V2WorldCup2026.info': resource(v2FootballRoutes.worldCupInfo, noParams),
  'V2WorldCup2026.teams': resource(v2FootballRoutes.worldCupTeams, noParams),
  'V2WorldCup2026.groups': resource(v2FootballRoutes.worldCupGroups, noParams),
  'V2WorldCup2026.matches': paged(v2FootballRoutes.worldCupMatches, WORLD_CUP_V2_PAGE_SIZE),
  'V2WorldCup2026.round': routes(v2FootballRoutes.worldCupRound),
  'V2WorldCup2026.rounds': resource(v2FootballRoutes.worldCupRounds, noParams),
  'V2WorldCup2026.knockout': resource(v2FootballRoutes.worldCupKnockout, noParams),
  'V2WorldCup2026.nextEvents': v2Events(v2EventRoutes.seasonEvents),

  // Other V2 sports.
  'V2Baseball.lineups': routes(v2EventRoutes.event, v2BaseballRoutes.lineups),
  'V2Cycling.rider': routes(v2Routes.team),
  'V2Cycling.search': routes(v2CyclingRoutes.search),
  'V2Cycling.countries': routes(v2CyclingRoutes.countries),
  'V2Motorsport.seasonStages': resourceList(
    v2MotorsportRoutes.seasonStages,
    (a) => ({ seasonId: id(a, 'seasonId') }),
    (payload) => payload.stages,
  ),
  'V2Motorsport.stage': routes(v2MotorsportRoutes.stage),
  'V2Motorsport.constructorStandings': routes(v2MotorsportRoutes.constructorStandings),
  'MotorsportStage.substages': routes(v2MotorsportRoutes.substages),
  'V2WaterPolo.live': routes(v2WaterPoloRoutes.live),

  // V3, V4, V6.
  'V3.sports': routes(v3Routes.sports),
  'V3.match': routes(v3Routes.match),
  'V3.search': routes(v3Routes.search),
  'V3.window': withSportArgs(routes(v3Routes.window)),
  'V3.cycling': routes(v3Routes.cycling),
  'V4.odds': withSportArgs(routes(v4Routes.odds)),
  'V6Baseball.match': routes(v6BaseballRoutes.match),
  'V6Baseball.teamStats': routes(v6BaseballRoutes.teamStats),
  'V6Baseball.odds': routes(v6BaseballRoutes.odds),
  'V6Football.statMapping': routes(v6FootballRoutes.statMapping),
  'V6Football.teamStats': routes(v6FootballRoutes.teamStats, v6FootballRoutes.statMapping),
};

/**
 * Fields whose resolvers reach past the operation's loader (the image chain,
 * the lineup poller, the V6 mapping pin, the season aggregates' own cache
 * reads): the estimate never runs them over known values
 * (src/spend/estimate/resolve-known.ts) and counts them from this table only.
 */
export const unresolvable: ReadonlySet<string> = new Set([
  // They keep what they learn (src/identity/link-store.ts): never run by the estimate's walk.
  'Query.counterparts',
  'V2Team.counterparts',
  'V2Tournament.counterparts',
  'V1FootballCompetitor.counterparts',
  'V1HockeyCompetitor.counterparts',
  'V3Team.counterparts',
  'V1WorldCupMatch.counterparts',
  'V2Event.counterparts',
  'V1HockeyAthlete.counterparts',
  'V2Player.counterparts',
  'V6TeamStats.counterparts',
  'Query.logo',
  'V1HockeyCompetitor.logo',
  'V2Team.logo',
  'V2Baseball.lineups',
  'HockeyV2Team.seasonAggregates',
  'HockeyV2Team.seasonAggregatesCost',
  'V6Football.statMapping',
  'V6Football.teamStats',
]);

/** Items of lists that take no size argument, where the spec gives the size. */
export const listSizes: Readonly<Record<string, number>> = {
  'V1WorldCup.matches': 104,
  'V1WorldCupHub.matches': 104,
  'V1FootballCompetition.matches': 104,
  'V1FootballCompetition.competitors': 48,
  'V2WorldCup2026.teams': 48,
  // A football match's statistics name its two teams (spec 2.11).
  'V6MatchTeamStats.teams': 2,
};
