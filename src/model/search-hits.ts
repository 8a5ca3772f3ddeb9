/**
 * The athlete hits of a V1 `/search` answer, with none dropped for a field
 * left out. The payload is not shown in the spec (docs/assumptions.md): each
 * hit's `type` and `version` are assumptions.
 * - A hit without `version` came from V1's own `/search` (spec 4.3: each
 *   version's search finds that version's canonical IDs): it is V1's.
 * - A hit without `type` may be an athlete or not, and nothing says which:
 *   it is listed, its `type` null with UPSTREAM_INVALID_RESPONSE naming its
 *   JSON path (its `athlete` answers NOT_FOUND if the ID is no athlete's).
 * Hits that say another type or version are not athletes of V1 and are left
 * out, as asked.
 */
import { markDegraded } from '../upstream/degraded-parts.js';
import { v1Routes, type SearchHit, type SearchPayload } from '../upstream/routes/v1.js';

export function athleteHits(payload: SearchPayload): SearchHit[] {
  const hits: SearchHit[] = [];
  const leftOut: Array<Array<string | number>> = [];
  payload.results.forEach((hit, index) => {
    // Typed as required, but nothing checks them: the route accepts any list (routes/v1.ts).
    const type: unknown = hit.type;
    const version: unknown = hit.version;
    if (version !== undefined && version !== 'v1') return;
    if (type === undefined) leftOut.push(['results', index, 'type']);
    else if (type !== 'athlete') return;
    hits.push(hit);
  });
  // Idempotent: the same cached payload is marked again on each read (degraded-parts.ts).
  if (leftOut.length > 0) markDegraded(payload, leftOut, v1Routes.search, { leftOut: true });
  return hits;
}
