/**
 * V6 baseball (spec 4.9): `/match/{matchId}`, `/team-stats` and `/odds` are
 * supported; `/lineups`, `/stats`, `/incidents`, `/h2h`, `/commentary`,
 * `/tables` answer 501 and are never requested (known-gaps.ts).
 *
 * Assumptions (not shown): the V6 football prefix `/v6/{sport}/api/v1/match/{matchId}`
 * applies to baseball too, and the payloads below (served alike by the
 * sandbox). V6 IDs are opaque strings; logos are bare file names (spec 2.5).
 */
import { v6MatchKey, v6Phase } from './match-sightings.js';
import type { Route } from './route.js';
import { arrayOf, bool, date, int, num, obj, oneOf, opt, recordOf, shape, str } from './shape.js';

export interface V6BaseballTeam {
  id: string;
  name: string;
  /** Bare file name, may end in `!w80` (spec 2.5). */
  logo?: string;
}

export interface V6BaseballMatch {
  id: string;
  /** ISO 8601. */
  startTime: string;
  status: 'scheduled' | 'live' | 'finished';
  inning?: number;
  home: V6BaseballTeam & { runs?: number; hits?: number; errors?: number };
  away: V6BaseballTeam & { runs?: number; hits?: number; errors?: number };
  league: { id: string; name: string };
}

export interface V6BaseballTeamStatsPayload {
  matchId: string;
  home: Record<string, number>;
  away: Record<string, number>;
}

export interface V6BaseballOddsPayload {
  matchId: string;
  markets: Array<{ name: string; suspended?: boolean; outcomes: Array<{ name: string; odds: number; line?: number }> }>;
}

const match = <T>(suffix: string, accepts: (body: unknown) => body is T): Route<{ matchId: string }, T> => ({
  version: 'v6',
  template: `/v6/baseball/api/v1/match/{matchId}${suffix}`,
  auth: true,
  counted: true,
  // Odds move with the market (the betting-lines class); match and team stats like V6 football's team stats.
  cacheClass: suffix === '/odds' ? 'lines' : 'v6TeamStats',
  build: (p) => ({ path: `/v6/baseball/api/v1/match/${encodeURIComponent(p.matchId)}${suffix}`, query: {} }),
  accepts,
});

/** What the resolvers read of each payload (the interfaces above), checked once: see shape.ts. */
const side = obj({ id: str, name: str, logo: opt(str), runs: opt(int), hits: opt(int), errors: opt(int) });
const matchShape = obj({
  match: obj({
    id: str,
    startTime: date,
    status: oneOf(...['scheduled', 'live', 'finished'].map((s) => (v: unknown) => v === s)),
    inning: opt(int),
    home: side,
    away: side,
    league: obj({ id: str, name: str }),
  }),
});
const teamStatsShape = obj({ home: recordOf(num), away: recordOf(num) });
const oddsShape = obj({
  markets: arrayOf(
    obj({ name: str, suspended: opt(bool), outcomes: arrayOf(obj({ name: str, odds: num, line: opt(num) })) }),
  ),
});

const ofMatch = { match: (p: { matchId: string }) => v6MatchKey('baseball', p.matchId) };

export const v6BaseballRoutes = {
  // The match's own payload shows its state; its team statistics and odds over REST follow it.
  match: {
    ...match('', shape<{ match: V6BaseballMatch }>(matchShape)),
    match: {
      ...ofMatch,
      sightings: (payload: { match: V6BaseballMatch }, p: { matchId: string }) => [
        {
          match: v6MatchKey('baseball', p.matchId),
          phase: v6Phase(payload.match.status),
          startsAt: Date.parse(payload.match.startTime),
        },
      ],
    },
  },
  teamStats: { ...match('/team-stats', shape<V6BaseballTeamStatsPayload>(teamStatsShape)), match: ofMatch },
  odds: { ...match('/odds', shape<V6BaseballOddsPayload>(oddsShape)), match: ofMatch },
} as const satisfies Record<string, Route<never, unknown>>;

/** The sub-resources that answer 501 (spec 4.9, 7). */
export const v6BaseballUnsupported = ['lineups', 'stats', 'incidents', 'h2h', 'commentary', 'tables'] as const;
