/**
 * Ice hockey team season statistics, computed in the gateway because the
 * upstream has none (spec 4.4: the team-statistics routes 404 for ice hockey).
 *
 * A team's season aggregate is the sum, over the season's finished matches
 * the team played, of `/api/match/{id}/statistics` (the team's side and its
 * opponents') and `/api/match/{id}/player-statistics` (the team's players).
 * All match requests of one operation go through the request-scoped
 * DataLoader in one tick (batched, one load per match and route); across
 * operations the shared cache keeps them for the `finishedMatch` class
 * (30 days: a finished match's statistics never change), so a second query
 * costs nothing. `cost` tells a client beforehand how many upstream requests
 * the aggregate will spend, from the cache's own state.
 */
import type { LoaderPort, UpstreamCachePort } from '../loaders/loader-ports.js';
import { v2EventRoutes } from '../upstream/routes/v2-events.js';
import { v2HockeyRoutes, type PlayerStatLine } from '../upstream/routes/v2-hockey.js';
import type { V2Event, V2Ref } from '../upstream/routes/v2.js';
import { isFinished } from './v2-event.js';

export interface SeasonKey {
  teamId: number;
  tournamentId: number;
  seasonId: number;
}

export interface Stat {
  name: string;
  value: number;
}

export interface PlayerSeasonLine {
  player: V2Ref & { position?: string };
  matches: number;
  statistics: Stat[];
}

export interface HockeySeasonAggregates extends SeasonKey {
  matchIds: number[];
  wins: number;
  losses: number;
  draws: number;
  goalsFor: number;
  goalsAgainst: number;
  team: Stat[];
  opponents: Stat[];
  players: PlayerSeasonLine[];
}

export interface HockeySeasonCost extends SeasonKey {
  finishedMatches: number;
  /** Statistic requests the aggregate would send now (2 per finished match not cached). */
  upstreamRequestsNeeded: number;
  /** Statistic requests the shared cache already answers. */
  cachedRequests: number;
}

/** The team's finished matches of one season: every `events/last` page of the season. */
export async function finishedSeasonMatches(ctx: LoaderPort, key: SeasonKey): Promise<V2Event[]> {
  const matches: V2Event[] = [];
  for (let page = 0; ; page++) {
    const payload = await ctx.upstream.load(v2EventRoutes.seasonEvents, {
      sport: 'hockey',
      tournamentId: key.tournamentId,
      seasonId: key.seasonId,
      direction: 'last',
      page,
    });
    matches.push(
      ...payload.events.filter((e) => isFinished(e) && (e.homeTeam.id === key.teamId || e.awayTeam.id === key.teamId)),
    );
    if (!payload.hasNextPage) return matches;
  }
}

export async function seasonCost(ctx: LoaderPort & UpstreamCachePort, key: SeasonKey): Promise<HockeySeasonCost> {
  const matches = await finishedSeasonMatches(ctx, key);
  const cache = ctx.upstreamCache;
  let cached = 0;
  for (const match of matches) {
    if (cache.isCached(v2HockeyRoutes.finishedMatchStatistics, { matchId: match.id })) cached += 1;
    if (cache.isCached(v2HockeyRoutes.finishedMatchPlayerStatistics, { matchId: match.id })) cached += 1;
  }
  return {
    ...key,
    finishedMatches: matches.length,
    upstreamRequestsNeeded: matches.length * 2 - cached,
    cachedRequests: cached,
  };
}

class Totals {
  readonly #values = new Map<string, Stat>();

  add(key: string, name: string, value: number): void {
    const current = this.#values.get(key);
    if (current === undefined) this.#values.set(key, { name, value });
    else current.value += value;
  }

  list(): Stat[] {
    return [...this.#values.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, stat]) => ({ name: key, value: stat.value }));
  }
}

export async function seasonAggregates(ctx: LoaderPort, key: SeasonKey): Promise<HockeySeasonAggregates> {
  const matches = await finishedSeasonMatches(ctx, key);
  // Every match's two routes are asked in the same tick: the loader batches them and de-duplicates repeats.
  const loaded = await Promise.all(
    matches.map(async (match) => {
      const [statistics, players] = await Promise.all([
        ctx.upstream.load(v2HockeyRoutes.finishedMatchStatistics, { matchId: match.id }),
        ctx.upstream.load(v2HockeyRoutes.finishedMatchPlayerStatistics, { matchId: match.id }),
      ]);
      return { match, statistics, players };
    }),
  );
  const team = new Totals();
  const opponents = new Totals();
  const players = new Map<number, { player: PlayerStatLine['player']; matches: number; totals: Totals }>();
  const result = { wins: 0, losses: 0, draws: 0, goalsFor: 0, goalsAgainst: 0 };
  for (const { match, statistics, players: lines } of loaded) {
    const home = match.homeTeam.id === key.teamId;
    const own = (home ? match.homeScore?.current : match.awayScore?.current) ?? 0;
    const other = (home ? match.awayScore?.current : match.homeScore?.current) ?? 0;
    result.goalsFor += own;
    result.goalsAgainst += other;
    if (own > other) result.wins += 1;
    else if (own < other) result.losses += 1;
    else result.draws += 1;
    // Full-match period only: the per-period blocks repeat the same numbers split up.
    const full = statistics.statistics.find((block) => block.period === 'ALL') ?? statistics.statistics[0];
    for (const item of full?.groups.flatMap((group) => group.statisticsItems) ?? []) {
      team.add(item.key, item.name, home ? item.homeValue : item.awayValue);
      opponents.add(item.key, item.name, home ? item.awayValue : item.homeValue);
    }
    for (const line of home ? lines.home : lines.away) {
      let entry = players.get(line.player.id);
      if (entry === undefined) {
        entry = { player: line.player, matches: 0, totals: new Totals() };
        players.set(line.player.id, entry);
      }
      entry.matches += 1;
      for (const [stat, value] of Object.entries(line.statistics)) entry.totals.add(stat, stat, value);
    }
  }
  return {
    ...key,
    ...result,
    matchIds: matches.map((m) => m.id),
    team: team.list(),
    opponents: opponents.list(),
    players: [...players.values()]
      .sort((a, b) => a.player.id - b.player.id)
      .map((p) => ({ player: p.player, matches: p.matches, statistics: p.totals.list() })),
  };
}
