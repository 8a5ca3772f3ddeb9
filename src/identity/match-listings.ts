/**
 * Where a linked competition's matches are listed on each version, for
 * match counterparts: the listing routes the spec gives for the one
 * competition linked across versions, the World Cup (spec 4.6, 4.7).
 * V1 lists all its matches in one answer; V2 by round (the V1 match's round
 * number picks the V2 round: an assumption, the spec shows neither side's
 * numbering). A competition not in this table has no listing here, and its
 * matches no counterparts yet.
 *
 * Each listing is a request description (route and parameters), not a call:
 * the estimate prices it (and counts one listing once for all the matches
 * that share it, as the operation's loader loads it once), the field loads it.
 */
import type { Route } from '../upstream/routes/route.js';
import { v1WorldCupRoutes } from '../upstream/routes/v1-world-cup.js';
import { v2FootballRoutes } from '../upstream/routes/v2-football.js';
import type { DescribedMatch, EntityRef } from './entity-ref.js';
import type { MatchHit } from './score-matches.js';

export interface ListingRequest {
  readonly route: Route<unknown, unknown>;
  readonly params: unknown;
  /** The listed matches of the route's payload. */
  hits(payload: unknown): MatchHit[];
}

function request<P, T>(route: Route<P, T>, params: P, hits: (payload: T) => MatchHit[]): ListingRequest {
  return {
    route: route as unknown as Route<unknown, unknown>,
    params,
    hits: (payload) => hits(payload as T),
  };
}

type Listing = (match: DescribedMatch) => ListingRequest | undefined;

const listings: Readonly<Record<string, Listing>> = {
  'v1:football:5930': () =>
    request(v1WorldCupRoutes.matches, {}, ({ matches }) =>
      matches.map((m) => ({
        version: 'v1',
        sport: 'football',
        nativeId: String(m.id),
        home: m.homeCompetitor.name,
        away: m.awayCompetitor.name,
        kickoff: Date.parse(m.startTime),
      })),
    ),
  'v2:football:16': (match) =>
    match.round === undefined
      ? undefined
      : request(v2FootballRoutes.worldCupRound, { round: match.round }, ({ events }) =>
          events.map((e) => ({
            version: 'v2',
            sport: 'football',
            nativeId: String(e.id),
            home: e.homeTeam.name,
            away: e.awayTeam.name,
            kickoff: e.startTimestamp * 1000,
          })),
        ),
};

/** The request that lists `match`'s counterparts in `competition` (on its own version), if the table has one. */
export function listingRequest(competition: EntityRef, match: DescribedMatch): ListingRequest | undefined {
  return listings[`${competition.version}:${competition.sport}:${competition.nativeId}`]?.(match);
}
