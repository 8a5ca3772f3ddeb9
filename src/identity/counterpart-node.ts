/**
 * The global ID of a counterpart, where `node(id:)` can fetch it from its
 * native ID alone: a V2 team, tournament or event (their own routes), a V1
 * football competitor (`/api/v1/competitor/{id}`), World Cup match
 * (`/api/v1/game/{id}`) or hockey athlete. Elsewhere null: a V1 hockey competitor is found
 * again only in the standings it was listed in, a V3 team only inside an
 * event, a V1 competition is no node, and V4/V6 entities have no route of
 * their own; an ID `node` could not resolve would be a promise the gateway
 * cannot keep.
 */
import { toGlobalId } from '../model/global-id.js';
import type { Counterpart } from './entity-ref.js';

/** Per `version:sport:kind` on V1 (a hockey competitor needs its standings: none), per `version:kind` elsewhere. */
const NODE_TYPES: Readonly<Record<string, string>> = {
  'v1:hockey:player': 'V1HockeyAthlete',
  'v1:football:team': 'V1FootballCompetitor',
  'v1:football:match': 'V1WorldCupMatch',
  'v2:team': 'V2Team',
  'v2:competition': 'V2Tournament',
  'v2:match': 'V2Event',
  'v2:player': 'V2Player',
};

export function counterpartNodeId(c: Counterpart): string | null {
  const typeName = NODE_TYPES[c.version === 'v1' ? `v1:${c.sport}:${c.kind}` : `${c.version}:${c.kind}`];
  if (typeName === undefined) return null;
  return toGlobalId({ version: c.version, sport: c.sport, typeName, nativeId: c.nativeId });
}
