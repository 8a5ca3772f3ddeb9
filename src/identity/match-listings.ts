/**
 * Where a linked competition's matches are listed on each version, for
 * match counterparts: the listing routes the spec gives for the one
 * competition linked across versions, the World Cup (spec 4.6, 4.7).
 * V1 lists all its matches in one answer; V2 by round (the V1 match's round
 * number picks the V2 round: an assumption, the spec shows neither side's
 * numbering). A competition not in this table has no listing here, and its
 * matches no counterparts yet.
 */
import type { LoaderPort } from '../loaders/loader-ports.js';
import { v1WorldCupRoutes } from '../upstream/routes/v1-world-cup.js';
import { v2FootballRoutes } from '../upstream/routes/v2-football.js';
import type { DescribedMatch, EntityRef } from './entity-ref.js';
import type { MatchHit } from './score-matches.js';

type Listing = (ctx: LoaderPort, match: DescribedMatch) => Promise<MatchHit[] | undefined>;

const listings: Readonly<Record<string, Listing>> = {
  'v1:football:5930': async (ctx) =>
    (await ctx.upstream.load(v1WorldCupRoutes.matches, {})).matches.map((m) => ({
      version: 'v1',
      sport: 'football',
      nativeId: String(m.id),
      home: m.homeCompetitor.name,
      away: m.awayCompetitor.name,
      kickoff: Date.parse(m.startTime),
    })),
  'v2:football:16': async (ctx, match) =>
    match.round === undefined
      ? undefined
      : (await ctx.upstream.load(v2FootballRoutes.worldCupRound, { round: match.round })).events.map((e) => ({
          version: 'v2',
          sport: 'football',
          nativeId: String(e.id),
          home: e.homeTeam.name,
          away: e.awayTeam.name,
          kickoff: e.startTimestamp * 1000,
        })),
};

/** The listing of `competition` (on its own version), if the table has one. */
export function listingOf(competition: EntityRef): Listing | undefined {
  return listings[`${competition.version}:${competition.sport}:${competition.nativeId}`];
}
