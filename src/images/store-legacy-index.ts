/**
 * The image index before the journal: `DATA_DIR/images/index.json`,
 * `{"version": 1, "entries": {key: entry}}`, rewritten whole on every put.
 * It is read once, entry by entry through the same checks as a journal
 * line, and the store then migrates it into the journal and removes it.
 */
import { checkEntry, checkKey, type StoreEntry } from './store-entry.js';
import { readStateText } from './store-journal.js';

export const LEGACY_INDEX_FILE = 'index.json';

export interface LegacyIndex {
  readonly entries: Map<string, StoreEntry>;
  /** What was wrong with the file or with single entries (each skipped). */
  readonly problems: readonly string[];
}

/**
 * The valid entries of a version-1 index, or undefined when there is none.
 * A file that is not a version-1 index yields no entries and one problem:
 * the old code would have overwritten it at its next put anyway.
 * @throws StateFileError when the file exists but cannot be read.
 */
export async function readLegacyIndex(file: string): Promise<LegacyIndex | undefined> {
  const text = await readStateText(file);
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { entries: new Map(), problems: ['not JSON (truncated or overwritten?)'] };
  }
  const record =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  const listed = record?.['entries'];
  if (record?.['version'] !== 1 || typeof listed !== 'object' || listed === null || Array.isArray(listed)) {
    return { entries: new Map(), problems: ['not a version-1 image index'] };
  }
  const entries = new Map<string, StoreEntry>();
  const problems: string[] = [];
  for (const [rawKey, rawEntry] of Object.entries(listed)) {
    const key = checkKey(rawKey);
    const entry = checkEntry(rawEntry);
    if (key.ok && entry.ok) entries.set(key.value, entry.value);
    else
      problems.push(
        `entry ${JSON.stringify(rawKey.slice(0, 120))}: ${key.ok ? (entry.ok ? '' : entry.problem) : key.problem}`,
      );
  }
  return { entries, problems };
}
