/**
 * Baseball lineups as the schema reads them, and the league check that
 * answers the leagues without lineups (spec 4.9) before any lineups request.
 */
import type { LoaderPort } from '../loaders/loader-ports.js';
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import type { SpendMeter } from '../spend/spend-meter.js';
import { knownGap } from '../upstream/known-gaps.js';
import {
  baseballLineupCoverage,
  v2BaseballRoutes,
  type BaseballLineupsPayload,
} from '../upstream/routes/v2-baseball.js';
import { v2EventRoutes } from '../upstream/routes/v2-events.js';
import type { V2Event } from '../upstream/routes/v2.js';

export interface BaseballLineupsModel {
  matchId: number;
  payload: BaseballLineupsPayload;
}

/** Throws the known gap when the match's league has no lineups: the lineups route is then never asked. */
export function assertLineupsCarried(event: V2Event): void {
  const league = event.tournament.uniqueTournament?.id;
  const coverage = league === undefined ? 'published' : (baseballLineupCoverage[league] ?? 'published');
  if (coverage === 'upstream404')
    throw knownGap('baseballLineupsNotPublished', `no lineups for ${event.tournament.name}`);
  if (coverage === 'notCarried') throw knownGap('baseballLeagueNotCarried', `${event.tournament.name} is not carried`);
}

export async function loadBaseballLineups(ctx: LoaderPort, matchId: number): Promise<BaseballLineupsModel> {
  const { event } = await ctx.upstream.load(v2EventRoutes.event, { sport: 'baseball', id: matchId });
  assertLineupsCarried(event);
  return { matchId, payload: await ctx.upstream.load(v2BaseballRoutes.lineups, { matchId }) };
}

/** The same, outside any operation (the confirmation poller), straight through the shared fetcher. */
export async function fetchBaseballEvent(
  fetcher: UpstreamFetcher,
  matchId: number,
  deadline: number,
  meter?: SpendMeter,
): Promise<V2Event> {
  const result = await fetcher.fetch(v2EventRoutes.event, { sport: 'baseball', id: matchId }, { deadline, meter });
  return result.value.event;
}
