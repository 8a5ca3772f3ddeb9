/**
 * What identity across versions talks about: one entity on one version, as
 * that version names it (its own sport slug and native ID, spec 9.3-9.4),
 * and what was concluded about its counterpart on another version.
 */
import type { Version } from '../upstream/routes/route.js';

/** The kinds of entity that have counterparts: teams, competitions and players by search, matches by their competition's listing. */
export type EntityKind = 'team' | 'competition' | 'player' | 'match';

export interface EntityRef {
  readonly version: Version;
  /** The version's own sport slug (`hockey` on V1/V2, `ice-hockey` on V4). */
  readonly sport: string;
  readonly kind: EntityKind;
  /** As the upstream gives it: V1/V2/V3 integers as text, V6 opaque strings. */
  readonly nativeId: string;
}

/** An entity with what the scorer compares: its names and, where the version gives one, its country. */
export interface DescribedEntity extends EntityRef {
  /** Found by name: teams, competitions and players (a match is a DescribedMatch). */
  readonly kind: 'team' | 'competition' | 'player';
  readonly name: string;
  readonly shortName?: string | undefined;
  readonly country?: string | undefined;
}

/**
 * A match with what the scorer compares: its two teams' names, its kickoff,
 * and its competition (matches are linked only inside a competition linked
 * across versions, where the other version's listing holds them).
 */
export interface DescribedMatch extends EntityRef {
  readonly kind: 'match';
  readonly home: string;
  readonly away: string;
  /** Epoch ms. */
  readonly kickoff: number;
  /** The round as the version numbers it, which selects the other version's round listing. */
  readonly round?: number | undefined;
  readonly competition: EntityRef;
}

export type Described = DescribedEntity | DescribedMatch;

/**
 * Why a counterpart is believed. `KNOWN_MAPPING`: the spec's table
 * (known-links.ts); `OPERATOR`: the operator's link file; `NAME_AND_COUNTRY`:
 * the names agree and both versions give the same country; `NAME`: the names
 * agree but one version gives no country, so a same-named entity elsewhere
 * cannot be ruled out; `TEAMS_AND_KICKOFF`: a match whose two teams' names
 * agree and whose kickoffs are within KICKOFF_WINDOW_MS; `SHORT_NAME_AND_COUNTRY`
 * / `SHORT_NAME`: the full names differ, but a short name one payload
 * carries equals the other's name or short name, with / without the same
 * country (score.ts).
 */
export type Evidence =
  | 'KNOWN_MAPPING'
  | 'OPERATOR'
  | 'NAME_AND_COUNTRY'
  | 'NAME'
  | 'TEAMS_AND_KICKOFF'
  | 'SHORT_NAME_AND_COUNTRY'
  | 'SHORT_NAME';

/** `MATCH` at or above MATCH_THRESHOLD, `CANDIDATE` below: offered, never taken for the same entity. */
export type LinkStatus = 'MATCH' | 'CANDIDATE';

/** Confidence from which a counterpart is a match (score.ts; docs/schema.md says why). */
export const MATCH_THRESHOLD = 0.9;

export interface Counterpart extends EntityRef {
  /** The name the other version gives it; null where only a link names it (an operator link to a version with no search). */
  readonly name: string | null;
  /** 0..1. */
  readonly confidence: number;
  readonly evidence: Evidence;
  readonly status: LinkStatus;
}

/** What one search concluded for one entity on one other version: kept by the link store. */
export interface Finding {
  /** Epoch ms. */
  readonly learnedAt: number;
  readonly counterparts: readonly Counterpart[];
}

/** The store's key: the entity, and the version its counterparts were looked for on. */
export function findingKey(source: EntityRef, target: Version): string {
  return `${source.version}:${source.sport}:${source.kind}:${target}:${source.nativeId}`;
}

/** One entity's identity as text, for comparing links. */
export function refKey(ref: EntityRef): string {
  return `${ref.version}:${ref.sport}:${ref.kind}:${ref.nativeId}`;
}
