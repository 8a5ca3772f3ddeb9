/**
 * Turns the other version's listing of a linked competition into
 * counterparts of a match:
 *
 * - both teams' names agree once normalised (home and away in either order:
 *   providers disagree on which side a neutral-venue match puts first) and
 *   the kickoffs are within KICKOFF_WINDOW_MS: 0.95, a `MATCH`;
 * - both teams agree but the kickoffs are further apart (a rescheduled match,
 *   or the return leg): 0.5, a `CANDIDATE`;
 * - anything less: not a counterpart.
 *
 * As with names, two matches for one match are both demoted to candidates.
 */
import { type Counterpart, type DescribedMatch, MATCH_THRESHOLD } from './entity-ref.js';
import { nameAgreement } from './normalise.js';

/** Two providers' kickoffs of one match differ by time-zone slips and late updates, not by hours. */
export const KICKOFF_WINDOW_MS = 3 * 3_600_000;

export interface MatchHit {
  readonly version: DescribedMatch['version'];
  readonly sport: string;
  readonly nativeId: string;
  readonly home: string;
  readonly away: string;
  readonly kickoff: number;
}

const agree = (a: string, b: string): boolean => nameAgreement(a, b) === 1;

export function scoreMatches(source: DescribedMatch, hits: readonly MatchHit[]): Counterpart[] {
  const scored: Counterpart[] = [];
  for (const hit of hits) {
    const teams =
      (agree(source.home, hit.home) && agree(source.away, hit.away)) ||
      (agree(source.home, hit.away) && agree(source.away, hit.home));
    if (!teams) continue;
    const close = Math.abs(source.kickoff - hit.kickoff) <= KICKOFF_WINDOW_MS;
    const confidence = close ? 0.95 : 0.5;
    scored.push({
      version: hit.version,
      sport: hit.sport,
      kind: 'match',
      nativeId: hit.nativeId,
      name: `${hit.home} - ${hit.away}`,
      confidence,
      evidence: 'TEAMS_AND_KICKOFF',
      status: confidence >= MATCH_THRESHOLD ? 'MATCH' : 'CANDIDATE',
    });
  }
  const matches = scored.filter((c) => c.status === 'MATCH').length;
  return matches > 1
    ? scored.map((c): Counterpart => ({ ...c, confidence: 0.5, status: 'CANDIDATE' }))
    : scored.sort((a, b) => b.confidence - a.confidence);
}
