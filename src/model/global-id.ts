/**
 * Relay global IDs: `base64url(<text>)`, where the text is
 *
 *     <VERSION>:<sport>:<TypeName>[?<via>]:<nativeId>
 *
 * - VERSION: `V1`, `V2`, `V3`, `V4` or `V6`.
 * - sport: the version's own slug, `[a-z0-9_-]*` ('' when the entity has
 *   none). It is part of the ID because V1, V2 and V3 routes are per sport:
 *   a node cannot be fetched again without it. It goes into route paths, so
 *   nothing else is accepted.
 * - TypeName: the GraphQL type, `[A-Za-z0-9]+`.
 * - via (optional): what `node(id:)` needs to find an entity the upstream
 *   returns only inside a list or a parent (a V1 hockey competitor inside
 *   the standings it was listed in, a venue inside its team), as
 *   `application/x-www-form-urlencoded` pairs in key order, e.g.
 *   `V1:hockey:V1HockeyCompetitor?competition=11&season=2025:17`. The form
 *   encoding leaves no `:` in it, so the native ID stays everything after
 *   the next colon. See src/model/node-sources.ts for each type's keys.
 * - nativeId: the ID as the upstream gives it, last and unescaped: a V6 ID
 *   is opaque text (spec 2.15) and may hold colons, `?` or line breaks.
 *
 * IDs minted before `via` existed (no `?`) still parse; their types fall
 * back to the route that takes no listing (see node-sources.ts).
 */
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import type { Version } from '../upstream/routes/route.js';

export type GlobalIdVia = Readonly<Record<string, string>>;

export interface GlobalId {
  version: Version;
  /** The version's own sport slug, '' when the entity has none. */
  sport: string;
  typeName: string;
  nativeId: string;
  /** Where the entity was listed, when only that listing can return it again. */
  via?: GlobalIdVia | undefined;
}

const versions: ReadonlySet<string> = new Set(['v1', 'v2', 'v3', 'v4', 'v6']);

/** `s`: the native ID may hold a line break. */
const FORMAT = /^(V[12346]):([a-z0-9_-]*):([A-Za-z0-9]+)(?:\?([^:]*))?:(.+)$/s;

/** The encoded `via` of each recorded listing (listing.ts keeps one object per listed value, so every ID of one list item reuses it). */
const encodedVias = new WeakMap<GlobalIdVia, string>();

function encodeVia(via: GlobalIdVia | undefined): string {
  if (via === undefined) return '';
  let encoded = encodedVias.get(via);
  if (encoded === undefined) {
    encoded = encodeViaEntries(via);
    encodedVias.set(via, encoded);
  }
  return encoded;
}

function encodeViaEntries(via: GlobalIdVia): string {
  const entries = Object.entries(via).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
}

/**
 * Encoded IDs by their text, the newest kept: every executed operation mints
 * the same IDs again for the same upstream data (a standings listing's
 * competitors, its news articles), and encoding each (a Buffer, then
 * base64url) was about 2.5% of the executing gateway's CPU. Bounded, oldest
 * out first, so that a stream of new IDs cannot grow it.
 */
const encodedIds = new Map<string, string>();
const MAX_ENCODED_IDS = 4_096;

export function toGlobalId(id: GlobalId): string {
  const text = `${id.version.toUpperCase()}:${id.sport}:${id.typeName}${encodeVia(id.via)}:${id.nativeId}`;
  let encoded = encodedIds.get(text);
  if (encoded === undefined) {
    encoded = Buffer.from(text, 'utf8').toString('base64url');
    if (encodedIds.size >= MAX_ENCODED_IDS) {
      const oldest = encodedIds.keys().next();
      if (oldest.done !== true) encodedIds.delete(oldest.value);
    }
    encodedIds.set(text, encoded);
  }
  return encoded;
}

const notAnId = (): GatewayError => new GatewayError(ErrorCode.BadUserInput, 'Not a sports-graph global ID.');

export function fromGlobalId(value: string): GlobalId {
  const decoded = Buffer.from(value, 'base64url').toString('utf8');
  const match = FORMAT.exec(decoded);
  const version = match?.[1]?.toLowerCase();
  if (match === null || version === undefined || !versions.has(version)) throw notAnId();
  const via = match[4] === undefined || match[4] === '' ? undefined : Object.fromEntries(new URLSearchParams(match[4]));
  return {
    version: version as Version,
    sport: match[2] ?? '',
    typeName: match[3] ?? '',
    nativeId: match[5] ?? '',
    via,
  };
}
