/**
 * The image index on disk: `DATA_DIR/images/index.jsonl`, a journal of one
 * JSON line per put (`{"key": ..., ...entry}`); the last line for a key wins.
 *
 * Why a journal and not one JSON document: a put appends one line (O(1))
 * instead of rewriting every entry, and damage stays local. A crash in the
 * middle of an append leaves a last line without its newline, which is
 * ignored; a damaged byte spoils the one line that holds it, and only that
 * key is forgotten (its image is downloaded again once). A single document
 * damaged anywhere forgot every image, and each was paid for again.
 *
 * A line is appended with one `appendFile` (O_APPEND) and nothing else
 * writes to the file meanwhile (the store chains its writes, and the
 * DATA_DIR lock keeps other processes out). No fsync: what a killed process
 * wrote is in the page cache and survives; a power cut may lose the last
 * lines, which is the truncated-tail case. Compaction rewrites the live
 * entries through `writeAtomic`, so it leaves the old journal or the new.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { checkEntry, checkKey, type StoreEntry } from './store-entry.js';
import { StateFileError, writeAtomic } from '../state/state-file.js';

export const JOURNAL_FILE = 'index.jsonl';

/** No line the store writes comes near this; a longer one is damage, not parsed. */
const MAX_LINE_LENGTH = 16 * 1_024;

export const INDEX_REMEDY =
  'Check its owner and permissions: the gateway reads and writes it. Do not delete the image index: the gateway would forget the images it stored and download (pay for) them again.';

export interface DamagedLine {
  /** 1-based, as an editor shows it. */
  readonly line: number;
  readonly problem: string;
}

export interface JournalContent {
  /** The last valid entry of each key, in journal order. */
  readonly entries: Map<string, StoreEntry>;
  /** Lines the file holds (valid or not): what compaction would save. */
  readonly lines: number;
  readonly damaged: readonly DamagedLine[];
  /** The file ended inside a line: a crash in the middle of an append. */
  readonly truncatedTail: boolean;
}

export function journalLine(key: string, entry: StoreEntry): string {
  return `${JSON.stringify({ key, ...entry })}\n`;
}

/**
 * The journal's entries, or undefined when there is none.
 * @throws StateFileError when the file exists but cannot be read (EACCES, EISDIR...).
 */
export async function readJournal(file: string): Promise<JournalContent | undefined> {
  const text = await readStateText(file);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  // Text after the last newline is an append that did not finish.
  const tail = lines.pop() ?? '';
  const entries = new Map<string, StoreEntry>();
  const damaged: DamagedLine[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = parseLine(line);
    if (parsed.ok) entries.set(parsed.key, parsed.entry);
    else damaged.push({ line: index + 1, problem: parsed.problem });
  });
  return { entries, lines: lines.length + (tail === '' ? 0 : 1), damaged, truncatedTail: tail !== '' };
}

type ParsedLine = { ok: true; key: string; entry: StoreEntry } | { ok: false; problem: string };

function parseLine(line: string): ParsedLine {
  if (line.length > MAX_LINE_LENGTH) return { ok: false, problem: `longer than ${MAX_LINE_LENGTH} characters` };
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, problem: 'not a JSON object' };
  const { key: rawKey, ...rest } = raw as Record<string, unknown>;
  const key = checkKey(rawKey);
  if (!key.ok) return { ok: false, problem: key.problem };
  const entry = checkEntry(rest);
  if (!entry.ok) return { ok: false, problem: entry.problem };
  return { ok: true, key: key.value, entry: entry.value };
}

/** Appends one line in one write. */
export function appendJournal(file: string, key: string, entry: StoreEntry): Promise<void> {
  return appendFile(file, journalLine(key, entry));
}

/** Replaces the journal by one line per entry, atomically. */
export function rewriteJournal(file: string, entries: Iterable<readonly [string, StoreEntry]>): Promise<void> {
  let body = '';
  for (const [key, entry] of entries) body += journalLine(key, entry);
  return writeAtomic(file, body);
}

/**
 * A state file's text, undefined when it does not exist.
 * @throws StateFileError when it exists but cannot be read.
 */
export async function readStateText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new StateFileError(file, `cannot be read (${code ?? String(error)})`, INDEX_REMEDY);
  }
}
