/**
 * The links the spec states, in one table: never searched for, never
 * outvoted by a search, and only an operator's rejection (operator-links.ts)
 * sets one aside.
 *
 * Spec 2.15: "V1 competition ID 5930 is the World Cup; V2 uses tournamentId
 * 16 and seasonId 58210". V2's data routes take the unique tournament ID (16);
 * the season (58210) is the edition, not another entity. That is the only
 * cross-version identity the spec states: 9.3 says IDs differ between
 * versions, and V6 IDs match neither V1 nor V2 (2.15).
 */
import type { EntityRef } from './entity-ref.js';

export interface KnownLink {
  readonly a: EntityRef;
  readonly b: EntityRef;
  /** Where the spec says so. */
  readonly source: string;
  /** What else the link implies on the B side (the V2 season of the edition). */
  readonly note?: string;
}

export const knownLinks: readonly KnownLink[] = [
  {
    a: { version: 'v1', sport: 'football', kind: 'competition', nativeId: '5930' },
    b: { version: 'v2', sport: 'football', kind: 'competition', nativeId: '16' },
    source: 'spec 2.15',
    note: 'the 2026 edition is V2 season 58210',
  },
];
