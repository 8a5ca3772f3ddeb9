/**
 * Relay global IDs: `base64url("<VERSION>:<sport>:<TypeName>:<nativeId>")`.
 * The sport is part of the ID because V1 and V2 routes are per sport: a node
 * cannot be fetched again without it.
 */
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import type { Version } from '../upstream/routes/route.js';

export interface GlobalId {
  version: Version;
  /** The version's own sport slug, '' when the entity has none. */
  sport: string;
  typeName: string;
  nativeId: string;
}

const versions: ReadonlySet<string> = new Set(['v1', 'v2', 'v3', 'v4', 'v6']);

export function toGlobalId(id: GlobalId): string {
  return Buffer.from(`${id.version.toUpperCase()}:${id.sport}:${id.typeName}:${id.nativeId}`, 'utf8').toString('base64url');
}

export function fromGlobalId(value: string): GlobalId {
  const decoded = Buffer.from(value, 'base64url').toString('utf8');
  // `s`: a V6 native ID is opaque text (spec 2.15) and may hold a line break.
  const match = /^(V[12346]):([a-z-]*):([A-Za-z0-9]+):(.+)$/s.exec(decoded);
  const version = match?.[1]?.toLowerCase();
  if (match === null || version === undefined || !versions.has(version)) {
    throw new GatewayError(ErrorCode.BadUserInput, 'Not a sports-graph global ID.');
  }
  return { version: version as Version, sport: match[2] ?? '', typeName: match[3] ?? '', nativeId: match[4] ?? '' };
}
