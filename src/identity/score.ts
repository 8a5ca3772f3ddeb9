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
 * - Full names that differ, but a short name one payload carries (V2's
 *   and V3's `shortName`, V1's competitor `shortName`) equal to the other's
 *   name or short name once normalised ("Inter" / "Inter"): 0.9 with the
 *   same country, exactly a match (the country rules out the same short
 *   name elsewhere, the ambiguity rule below two clubs of one country
 *   sharing it); 0.55 without, a candidate: short names repeat more than
 *   full names ("United", "Rangers"). A short name that only partly agrees
 *   weighs like a partly agreeing name.
 * - Only a confidence of MATCH_THRESHOLD (0.9) or more is a match: equal
 *   names, or equal short names, and the same country. A new name or a
 *   missing country stays a candidate.
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
const SHORT_WITH_COUNTRY = 0.9;
const SHORT_WITHOUT_COUNTRY = 0.55;
const AMBIGUOUS_CAP = 0.5;
const NOISE = 0.3;

export function scoreHits(source: DescribedEntity, kind: EntityKind, hits: readonly Hit[]): Counterpart[] {
  const scored: Counterpart[] = [];
  for (const hit of hits) {
    if (hit.kind !== kind) continue;
    const countries = source.country !== undefined && hit.country !== undefined;
    if (countries && !sameCountry(source.country as string, hit.country as string)) continue;
    const full = nameAgreement(source.name, hit.name);
    const short = shortNamePairs(source, hit).map(([a, b]) => nameAgreement(a, b));
    const byName = round(Math.max(full, ...short.filter((n) => n < 1)) * (countries ? WITH_COUNTRY : WITHOUT_COUNTRY));
    const byShortName = full < 1 && short.includes(1) ? (countries ? SHORT_WITH_COUNTRY : SHORT_WITHOUT_COUNTRY) : 0;
    const confidence = Math.max(byName, byShortName);
    if (confidence < NOISE) continue;
    const evidence =
      byShortName > byName
        ? countries
          ? 'SHORT_NAME_AND_COUNTRY'
          : 'SHORT_NAME'
        : countries
          ? 'NAME_AND_COUNTRY'
          : 'NAME';
    scored.push({
      version: hit.version,
      sport: hit.sport,
      kind: hit.kind,
      nativeId: hit.nativeId,
      name: hit.name,
      confidence,
      evidence,
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

/** The name pairs in which at least one side is a short name: each side's short name against the other's name and short name. */
function shortNamePairs(source: DescribedEntity, hit: Hit): Array<readonly [string, string]> {
  const pairs: Array<readonly [string, string]> = [];
  if (hit.shortName !== undefined) pairs.push([source.name, hit.shortName]);
  if (source.shortName !== undefined) {
    pairs.push([source.shortName, hit.name]);
    if (hit.shortName !== undefined) pairs.push([source.shortName, hit.shortName]);
  }
  return pairs;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;
