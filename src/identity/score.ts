/**
 * Turns one version's search hits into counterparts of an entity, each with
 * a confidence and the evidence behind it. The rules, from strongest to
 * weakest, and why:
 *
 * - Different countries, both given: not the same entity, whatever the name
 *   ("Rangers" of Scotland is not "Rangers" of Chile). Dropped.
 * - confidence = name agreement (normalise.ts) x 0.95 when both versions
 *   give the same country, x 0.6 when either gives none: a name alone
 *   cannot rule out a same-named club elsewhere.
 * - Only a confidence of MATCH_THRESHOLD (0.9) or more is a match: equal
 *   names and the same country. A short name, a new name or a missing
 *   country stays a candidate.
 * - Two matches for one entity on one version are both demoted to
 *   candidates (at most 0.5): the data cannot tell which, so neither is
 *   taken. Never guessed silently.
 * - Below 0.3 a hit is noise (a shared word without a country), dropped.
 */
import {
  type Counterpart,
  type DescribedEntity,
  type EntityKind,
  type EntityRef,
  MATCH_THRESHOLD,
} from './entity-ref.js';
import { nameAgreement, sameCountry } from './normalise.js';

/** A search hit as every version's adapter (find-counterparts.ts) gives it. */
export interface Hit extends EntityRef {
  readonly name: string;
  readonly shortName?: string | undefined;
  readonly country?: string | undefined;
}

const WITH_COUNTRY = 0.95;
const WITHOUT_COUNTRY = 0.6;
const AMBIGUOUS_CAP = 0.5;
const NOISE = 0.3;

export function scoreHits(source: DescribedEntity, kind: EntityKind, hits: readonly Hit[]): Counterpart[] {
  const scored: Counterpart[] = [];
  for (const hit of hits) {
    if (hit.kind !== kind) continue;
    const countries = source.country !== undefined && hit.country !== undefined;
    if (countries && !sameCountry(source.country as string, hit.country as string)) continue;
    const names = Math.max(
      nameAgreement(source.name, hit.name),
      hit.shortName === undefined ? 0 : nameAgreement(source.name, hit.shortName),
      source.shortName === undefined ? 0 : nameAgreement(source.shortName, hit.name),
    );
    const confidence = round(names * (countries ? WITH_COUNTRY : WITHOUT_COUNTRY));
    if (confidence < NOISE) continue;
    scored.push({
      version: hit.version,
      sport: hit.sport,
      kind: hit.kind,
      nativeId: hit.nativeId,
      name: hit.name,
      confidence,
      evidence: countries ? 'NAME_AND_COUNTRY' : 'NAME',
      status: confidence >= MATCH_THRESHOLD ? 'MATCH' : 'CANDIDATE',
    });
  }
  const matches = scored.filter((c) => c.status === 'MATCH').length;
  const settled =
    matches > 1
      ? scored.map(
          (c): Counterpart => ({ ...c, confidence: Math.min(c.confidence, AMBIGUOUS_CAP), status: 'CANDIDATE' }),
        )
      : scored;
  return settled.sort((a, b) => b.confidence - a.confidence);
}

const round = (n: number): number => Math.round(n * 1000) / 1000;
