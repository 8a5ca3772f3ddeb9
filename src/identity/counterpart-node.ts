/**
 * The global ID of a counterpart, where `node(id:)` can fetch it from its
 * native ID alone: a V2 team or tournament (their own routes), a V1 football
 * competitor (`/api/v1/competitor/{id}`). Elsewhere null: a V1 hockey
 * competitor is found again only in the standings it was listed in, a V3
 * team only inside an event, and V4/V6 entities have no route of their own;
 * an ID `node` could not resolve would be a promise the gateway cannot keep.
 */
import { toGlobalId } from '../model/global-id.js';
import type { Counterpart } from './entity-ref.js';

export function counterpartNodeId(c: Counterpart): string | null {
  const typeName =
    c.version === 'v2'
      ? c.kind === 'team'
        ? 'V2Team'
        : 'V2Tournament'
      : c.version === 'v1' && c.sport === 'football' && c.kind === 'team'
        ? 'V1FootballCompetitor'
        : undefined;
  return typeName === undefined
    ? null
    : toGlobalId({ version: c.version, sport: c.sport, typeName, nativeId: c.nativeId });
}
