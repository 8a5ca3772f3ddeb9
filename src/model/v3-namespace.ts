/**
 * `v3`: V3 spells sport slugs its own way (`water-polo`); the slug comes from
 * `/reference/sports` (free, cached a day, src/model/sport-catalogue.ts).
 */
import type { V3Event, V3Team } from '../upstream/routes/v3.js';

/** V3 entities carry the V3 slug they were fetched under (the match global route has a sport of its own). */
export interface V3EventModel {
  readonly slug: string;
  readonly value: V3Event;
  readonly league: { id: number; name: string } | null;
}

export interface V3TeamModel {
  readonly slug: string;
  readonly value: V3Team;
}
