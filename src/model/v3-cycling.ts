/**
 * The V3 cycling feed is football-shaped; spec 2.12 says what it really is.
 * Each league is a classification: a name ending in `Overall` is the general
 * classification, one ending in `Stage N` is stage N's result. Each event is
 * one rider's placing: `homeTeam.name` is the rider, `homeTeam.shortName` the
 * position; `awayTeam` and `score` mean nothing and are dropped.
 */
import type { V3League } from '../upstream/routes/v3.js';

export interface CyclingPlacing {
  position: number | null;
  rider: string;
  riderId: number;
}

export interface CyclingClassification {
  kind: 'GENERAL' | 'STAGE' | 'OTHER';
  stage: number | null;
  /** The race, the league name without its classification suffix. */
  race: string;
  name: string;
  leagueId: number;
  placings: CyclingPlacing[];
}

const STAGE = /^(.*?)[\s,:–-]*Stage\s+(\d+)\s*$/i;
const OVERALL = /^(.*?)[\s,:–-]*Overall\s*$/i;

export function toClassification(league: V3League): CyclingClassification {
  const stage = STAGE.exec(league.name);
  const overall = OVERALL.exec(league.name);
  const placings = league.events
    .map((event): CyclingPlacing => {
      const position = Number.parseInt(event.homeTeam.shortName ?? '', 10);
      return {
        position: Number.isFinite(position) ? position : null,
        rider: event.homeTeam.name,
        riderId: event.homeTeam.id,
      };
    })
    // Unplaced riders (DNF, no position) go last, in feed order.
    .sort((a, b) => (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER));
  if (stage !== null) {
    return {
      kind: 'STAGE',
      stage: Number(stage[2]),
      race: (stage[1] ?? '').trim(),
      name: league.name,
      leagueId: league.id,
      placings,
    };
  }
  if (overall !== null) {
    return {
      kind: 'GENERAL',
      stage: null,
      race: (overall[1] ?? '').trim(),
      name: league.name,
      leagueId: league.id,
      placings,
    };
  }
  return { kind: 'OTHER', stage: null, race: league.name, name: league.name, leagueId: league.id, placings };
}
