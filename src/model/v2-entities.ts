/**
 * V2 entities carry the sport slug they were fetched under: V2 IDs are per
 * sport, so an entity cannot be fetched again (node) or linked without it.
 */
import type { V2Manager, V2Player, V2Team, V2UniqueTournament, V2Venue } from '../upstream/routes/v2.js';

export interface WithSlug<T> {
  readonly slug: string;
  readonly value: T;
}

export type V2TeamModel = WithSlug<V2Team>;
export type V2PlayerModel = WithSlug<V2Player>;
export type V2TournamentModel = WithSlug<V2UniqueTournament>;
export type V2ManagerModel = WithSlug<V2Manager>;
export type V2VenueModel = WithSlug<V2Venue>;
