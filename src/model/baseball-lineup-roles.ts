/**
 * Which list each baseball lineup player belongs to (spec 2.8), with no
 * player ever dropped.
 *
 * A player's `role` is not shown in the spec (an assumption: see
 * docs/assumptions.md). Where a payload leaves it out, or names a role the
 * gateway does not know, the role is inferred from what the spec does say:
 * - `confirmed` false: "the player arrays hold only the announced probable
 *   starting pitcher", so such a player is the probable pitcher;
 * - confirmed: a player with a batting order who is not flagged a
 *   substitute is a starting batter (the batting order is what makes one).
 * A player that fits no list even so (no role and no batting order, a
 * batter with no batting order who is not flagged a substitute, a second
 * probable pitcher) is listed in `unclassified`, and its `role` is null with
 * an UPSTREAM_INVALID_RESPONSE error naming its JSON path.
 */
import type { DegradedPart } from '../upstream/degraded-parts.js';
import {
  v2BaseballRoutes,
  type BaseballLineupPlayer,
  type BaseballTeamLineup,
} from '../upstream/routes/v2-baseball.js';

export type BaseballRole = 'batter' | 'pitcher' | 'probablePitcher';

const ROLES: ReadonlySet<string> = new Set<BaseballRole>(['batter', 'pitcher', 'probablePitcher']);

export interface BaseballLineupPlayerModel {
  readonly value: BaseballLineupPlayer;
  /** The payload's role, or the inferred one; null when none could be inferred. */
  readonly role: BaseballRole | null;
  readonly roleInferred: boolean;
  /** Set on a player listed unclassified: where its role was missing, for the error. */
  readonly unclassified?: { readonly part: DegradedPart; readonly what: string };
}

export interface BaseballTeamLineupModel {
  readonly value: BaseballTeamLineup;
  readonly probablePitcher: BaseballLineupPlayerModel | null;
  readonly battingOrder: BaseballLineupPlayerModel[];
  readonly pitchers: BaseballLineupPlayerModel[];
  readonly substitutes: BaseballLineupPlayerModel[];
  readonly unclassified: BaseballLineupPlayerModel[];
}

type Role = Pick<BaseballLineupPlayerModel, 'role' | 'roleInferred'>;

function roleOf(player: BaseballLineupPlayer, confirmed: boolean): Role {
  const given: unknown = player.role;
  if (typeof given === 'string' && ROLES.has(given)) return { role: given as BaseballRole, roleInferred: false };
  if (!confirmed) return { role: 'probablePitcher', roleInferred: true };
  if (player.battingOrder !== undefined && player.substitute !== true) return { role: 'batter', roleInferred: true };
  return { role: null, roleInferred: false };
}

/** Why a player fits no list, for its error. */
function whyUnclassified(player: BaseballLineupPlayer, role: BaseballRole | null): string {
  const given: unknown = player.role;
  if (given === undefined) return "left out a player's `role`, with no batting order to infer it from";
  if (role === null) return `names an unknown role ${JSON.stringify(given)}, with no batting order to infer one from`;
  if (role === 'batter') return 'lists a batter with no batting order who is not flagged a substitute';
  return 'lists a second probable pitcher';
}

/** One side's lists. `side` names it in JSON paths (`data.home.players[3]`). */
export function classifyLineup(
  lineup: BaseballTeamLineup,
  confirmed: boolean,
  side: 'home' | 'away',
): BaseballTeamLineupModel {
  const players = lineup.players.map((value) => ({ value, ...roleOf(value, confirmed) }));
  const probablePitcher =
    players.find((p) => p.role === 'probablePitcher') ??
    players.find((p) => p.role === 'pitcher' && p.value.substitute !== true) ??
    null;
  const battingOrder = players
    .filter((p) => p.role === 'batter' && p.value.substitute !== true && p.value.battingOrder !== undefined)
    .sort((a, b) => (a.value.battingOrder ?? 99) - (b.value.battingOrder ?? 99));
  const pitchers = players.filter((p) => p.role === 'pitcher');
  const substitutes = players.filter((p) => p.value.substitute === true);
  const listed = new Set([probablePitcher, ...battingOrder, ...pitchers, ...substitutes]);
  const unclassified = players
    .map((p, index) => ({ p, index }))
    .filter(({ p }) => !listed.has(p))
    .map(({ p, index }): BaseballLineupPlayerModel => {
      const what = whyUnclassified(p.value, p.role);
      return {
        ...p,
        role: null,
        roleInferred: false,
        unclassified: {
          part: {
            version: v2BaseballRoutes.lineups.version,
            route: v2BaseballRoutes.lineups.template,
            jsonPath: `data.${side}.players[${index}].role`,
          },
          what,
        },
      };
    });
  return {
    value: lineup,
    probablePitcher,
    battingOrder,
    pitchers,
    substitutes,
    unclassified,
  };
}
