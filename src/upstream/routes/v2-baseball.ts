/**
 * Baseball V2 lineups (spec 2.8, 3, 4.8, 4.9). Base `{base_url}/v2/baseball`.
 *
 * `GET /api/match/{matchId}/lineups` returns `data.confirmed`. Unconfirmed:
 * the player arrays hold only the probable starting pitcher (a normal 200).
 * Confirmed: batting order, pitchers, substitutes, per-player statistics and
 * `supportStaff`.
 *
 * Assumptions (not shown): the per-side shape `{ players: [...],
 * supportStaff? }` below; a player entry's `role` (`batter`, `pitcher`,
 * `probablePitcher`) and `battingOrder`; and which leagues are which: the
 * spec says lineups exist for one major league, two leagues 404 and a fourth
 * is not carried, without naming them. `baseballLineupCoverage` holds our
 * choice of `uniqueTournament.id`s (the sandbox uses the same).
 */
import type { Route } from './route.js';
import { arrayOf, bool, int, obj, opt, shape, str } from './shape.js';
import type { V2Ref } from './v2.js';
import { v2Statistics } from './v2-shapes.js';

export interface BaseballLineupPlayer {
  player: V2Ref & { position?: string };
  /** Fielding position (P, C, 1B, 2B, 3B, SS, LF, CF, RF, DH). */
  position?: string;
  /** Absent: the player is in no role list (only `substitutes`, when flagged). */
  role?: 'batter' | 'pitcher' | 'probablePitcher';
  /** 1..9 for the starting batters. */
  battingOrder?: number;
  /** Absent: not known to be a substitute. */
  substitute?: boolean;
  statistics?: Record<string, number>;
}

export interface BaseballSupportStaff {
  id: number;
  name: string;
  role: string;
}

export interface BaseballTeamLineup {
  players: BaseballLineupPlayer[];
  supportStaff?: BaseballSupportStaff[];
}

export interface BaseballLineupsPayload {
  data: { confirmed: boolean; home: BaseballTeamLineup; away: BaseballTeamLineup };
}

export type BaseballLineupCoverage = 'published' | 'upstream404' | 'notCarried';

/** Lineup coverage by `uniqueTournament.id` (spec 4.9; IDs are our assumption). Unlisted leagues: published. */
export const baseballLineupCoverage: Readonly<Record<number, BaseballLineupCoverage>> = {
  11205: 'published',
  11330: 'upstream404',
  11340: 'upstream404',
  11350: 'notCarried',
};

/**
 * What the resolvers read, checked once (see shape.ts). The player's identity
 * is strict; `role` (any string: an unknown role only leaves the player out
 * of the role lists) and `substitute` are optional parts.
 */
const lineupPlayer = obj({
  player: obj({ id: int, name: str, position: opt(str) }),
  position: opt(str),
  role: opt(str),
  battingOrder: opt(int),
  substitute: opt(bool),
  statistics: opt(v2Statistics),
});
const teamLineup = obj({
  players: arrayOf(lineupPlayer),
  supportStaff: opt(arrayOf(obj({ id: int, name: str, role: str }))),
});

export const v2BaseballRoutes = {
  lineups: {
    version: 'v2',
    template: '/v2/baseball/api/match/{matchId}/lineups',
    auth: true,
    counted: true,
    cacheClass: 'lineups',
    build: (p: { matchId: number }) => ({ path: `/v2/baseball/api/match/${p.matchId}/lineups`, query: {} }),
    accepts: shape<BaseballLineupsPayload>(obj({ data: obj({ confirmed: bool, home: teamLineup, away: teamLineup }) })),
  },
} as const satisfies Record<string, Route<never, unknown>>;
