/**
 * How each provider's payloads show a match's state, read into the
 * freshness policy's phases (src/upstream/match-freshness.ts). The spec
 * shows only V1 `statusGroup` 3 (in progress, spec 3); the other values are
 * the assumptions the routes already make (`V1StatusGroup`, V2 `status.type`,
 * V6 `status`). A value none of them names is read as in play: the shortest
 * freshness, so an unknown state is never served staler than a live one.
 */
import type { MatchPhase, MatchSighting } from './route.js';

/** Spec 3 and the V1 assumption (v1-world-cup.ts `V1StatusGroup`): 2 scheduled, 3 in progress, 4 finished. */
export function v1Phase(statusGroup: number): MatchPhase {
  if (statusGroup === 2) return 'scheduled';
  if (statusGroup === 4) return 'ended';
  return 'inPlay';
}

/** V2 `status.type` (SofaScore-style, src/model/v2-event.ts). */
export function v2Phase(type: string): MatchPhase {
  switch (type) {
    case 'notstarted':
      return 'scheduled';
    case 'finished':
      return 'ended';
    case 'postponed':
    case 'canceled':
    case 'cancelled':
      return 'postponed';
    default:
      return 'inPlay';
  }
}

/** V6 baseball `status`; V3's also knows `postponed`. */
export function v6Phase(status: string): MatchPhase {
  switch (status) {
    case 'scheduled':
      return 'scheduled';
    case 'finished':
      return 'ended';
    case 'postponed':
      return 'postponed';
    default:
      return 'inPlay';
  }
}

/** The identity of a V1 game across V1 routes (`/api/v1/game/{id}`, the World Cup lists and game). */
export const v1GameKey = (id: number): string => `v1 game ${id}`;
/** A V1 competition's identity: its fixture list and standings share it. */
export const v1CompetitionKey = (id: number): string => `v1 competition ${id}`;
/** A V2 event's identity: V2 IDs are per sport. */
export const v2EventKey = (sport: string, id: number): string => `v2 ${sport} event ${id}`;
export const v6MatchKey = (sport: string, id: string): string => `v6 ${sport} match ${id}`;

export function v1Sighting(game: { id: number; statusGroup: number; startTime: string }): MatchSighting {
  const startsAt = Date.parse(game.startTime);
  return {
    match: v1GameKey(game.id),
    phase: v1Phase(game.statusGroup),
    startsAt: Number.isNaN(startsAt) ? undefined : startsAt,
  };
}

export function v2Sighting(
  sport: string,
  event: { id: number; startTimestamp: number; status: { type: string } },
): MatchSighting {
  return {
    match: v2EventKey(sport, event.id),
    phase: v2Phase(event.status.type),
    startsAt: event.startTimestamp * 1000,
  };
}
