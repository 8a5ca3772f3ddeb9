/**
 * The operator's word on links: `COUNTERPART_LINKS_FILE`, a JSON file read
 * at start-up, that confirms links the gateway could only offer as
 * candidates (a renamed club) and rejects links it got wrong. It wins over
 * what was learned and over the spec's table; a confirmed link is answered
 * without a search, so it costs nothing.
 *
 *     { "links": [
 *         { "a": { "version": "V1", "sport": "football", "kind": "team", "id": "91004" },
 *           "b": { "version": "V2", "sport": "football", "kind": "team", "id": "970004" },
 *           "decision": "confirm" } ] }
 *
 * Links are symmetric: confirming A-B also answers B's counterpart on A's
 * version. A file that cannot be read or does not have this shape stops
 * start-up with a message naming the entry: an operator's decision is never
 * silently ignored.
 */
import { readFile } from 'node:fs/promises';
import type { Version } from '../upstream/routes/route.js';
import { type EntityKind, type EntityRef, refKey } from './entity-ref.js';

export type Decision = 'confirm' | 'reject';

export interface OperatorLink {
  readonly a: EntityRef;
  readonly b: EntityRef;
  readonly decision: Decision;
}

export class OperatorLinks {
  readonly #byEntity = new Map<string, OperatorLink[]>();

  constructor(readonly links: readonly OperatorLink[] = []) {
    for (const link of links) {
      for (const side of [link.a, link.b]) {
        const key = refKey(side);
        this.#byEntity.set(key, [...(this.#byEntity.get(key) ?? []), link]);
      }
    }
  }

  /** The entities the operator linked to `ref` on `target`, with the decision. */
  on(ref: EntityRef, target: Version): Array<{ other: EntityRef; decision: Decision }> {
    const key = refKey(ref);
    return (this.#byEntity.get(key) ?? []).flatMap((link) => {
      const other = refKey(link.a) === key ? link.b : link.a;
      return other.version === target ? [{ other, decision: link.decision }] : [];
    });
  }
}

const VERSIONS: ReadonlySet<string> = new Set(['v1', 'v2', 'v3', 'v4', 'v6']);
const KINDS: ReadonlySet<string> = new Set(['team', 'competition', 'player', 'match']);

/** @throws Error naming the file and the entry when the file cannot be read or an entry is malformed. */
export async function readOperatorLinks(file: string | undefined): Promise<OperatorLinks> {
  if (file === undefined) return new OperatorLinks();
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`COUNTERPART_LINKS_FILE ${file}: cannot be read as JSON (${(error as Error).message})`);
  }
  const entries = (parsed as { links?: unknown } | null)?.links;
  if (!Array.isArray(entries)) throw new Error(`COUNTERPART_LINKS_FILE ${file}: expected { "links": [...] }`);
  return new OperatorLinks(entries.map((entry: unknown, i) => parseLink(entry, `${file}: links[${i}]`)));
}

function parseLink(entry: unknown, where: string): OperatorLink {
  const e = (entry ?? {}) as Record<string, unknown>;
  const decision = e['decision'];
  if (decision !== 'confirm' && decision !== 'reject')
    throw new Error(`COUNTERPART_LINKS_FILE ${where}: "decision" must be "confirm" or "reject"`);
  return { a: parseRef(e['a'], `${where}.a`), b: parseRef(e['b'], `${where}.b`), decision };
}

function parseRef(value: unknown, where: string): EntityRef {
  const r = (value ?? {}) as Record<string, unknown>;
  const version = typeof r['version'] === 'string' ? r['version'].toLowerCase() : '';
  const { sport, kind, id } = r;
  if (!VERSIONS.has(version) || typeof sport !== 'string' || typeof kind !== 'string' || !KINDS.has(kind))
    throw new Error(
      `COUNTERPART_LINKS_FILE ${where}: needs "version" (V1..V6), "sport" (that version's slug), "kind" (team, competition, player, match)`,
    );
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id) === '')
    throw new Error(`COUNTERPART_LINKS_FILE ${where}: needs "id", the version's own ID`);
  return { version: version as Version, sport, kind: kind as EntityKind, nativeId: String(id) };
}
