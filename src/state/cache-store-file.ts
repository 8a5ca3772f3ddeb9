/**
 * The durable upstream cache's file, `DATA_DIR/upstream-cache.mdb` (an LMDB
 * environment; its `-lock` file beside it is LMDB's reader table), opened
 * under the state-file rules of issue 12 as they apply to a cache:
 *
 * - Absent is an empty cache.
 * - A file this gateway did not write (no LMDB meta pages, another
 *   program's databases, an older entry format) or one a previous start
 *   died reading is moved aside to `upstream-cache.mdb.unusable-<time>`,
 *   with a warning naming both, and the cache starts empty. A cache is not
 *   the allowance: what it held is only answers that can be fetched again,
 *   so refusing to start would cost more than it protects. Nothing is
 *   deleted: the operator still has the file to look at.
 * - A file that cannot be opened at all (permissions) stops start-up with a
 *   StateFileError naming it, as every state file does.
 *
 * Why check the header before LMDB sees the file: LMDB trusts its pages,
 * and a file of random bytes can end the process with a segmentation fault
 * on open, which no `catch` sees. The `.opening` marker covers what the
 * header check cannot (damage deeper in the file): it is written before the
 * open and removed once the index has been read, so a process that dies in
 * between leaves it, and the next start sets the file aside instead of
 * dying the same way: at most one crash, never a loop.
 * - A file found damaged while running (a page that failed LMDB's checks,
 *   disk-entries.ts turns the file off then) gets a `.damaged` marker
 *   naming the error, and the next start sets it aside the same way.
 */
import { writeFileSync } from 'node:fs';
import { access, type FileHandle, open as openFile, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { Logger } from 'pino';
import { StateFileError } from './state-file.js';

export const CACHE_STORE_FILE = 'upstream-cache.mdb';

const STORE_REMEDY =
  'Give the gateway read and write access to it, or remove it (it holds only cached upstream answers; removing it costs the requests to fetch them again)';

/** What the store says about itself, so that a file of another program or format is never read as entries. */
const FORMAT = { app: 'sports-graph', store: 'upstream-cache', version: 1 } as const;
const DATABASES = ['entries', 'used', 'meta'] as const;
/** How long a commit waits for its sync to the disk (syncSoon). */
const SYNC_DELAY_MS = 1_000;

/** The LMDB files this code creates: meta pages at offset 0 and one page on, the magic and data version each holds. */
const PAGE_SIZE = 4096;
const META_MAGIC_OFFSET = 24;
const LMDB_MAGIC = 0xbeefc0de;
const LMDB_DATA_VERSION = 2;

export interface CacheStoreFile {
  readonly file: string;
  /** Key to the encoded entry (cache-entry-codec.ts). */
  readonly entries: Database<Buffer, string>;
  /** Key to `[usedAt, bytes, uselessAt]`: what the byte bound and the recency order are rebuilt from at start. */
  readonly used: Database<unknown, string>;
  /** Removes the `.opening` marker: call once the index has been read without dying. */
  markRead(): Promise<void>;
  /** Leaves the `.damaged` marker: the next start sets the file aside. Best effort (a full disk may refuse it too). */
  markDamaged(problem: string): void;
  /** Runs `writes` (puts and removes) as one transaction; the promise settles when it is committed or refused. */
  batch(writes: () => void): Promise<unknown>;
  /**
   * Flushes what is committed to the disk within SYNC_DELAY_MS (one sync
   * for every commit meanwhile): what a machine that loses power could
   * lose is that last second of cached answers, fetched again.
   * @throws (the promise rejects) when the sync fails: the disk is failing.
   */
  syncSoon(): Promise<void>;
  /** Resolves once every write so far is committed. */
  committed(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * @throws StateFileError when the file (or DATA_DIR) cannot be read or written.
 */
export async function openCacheStoreFile(dataDir: string, logger: Logger): Promise<CacheStoreFile> {
  const file = join(dataDir, CACHE_STORE_FILE);
  const marker = `${file}.opening`;
  const setAside = async (problem: string): Promise<void> => {
    const movedTo = `${file}.unusable-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    try {
      await rename(file, movedTo);
      await rm(`${file}-lock`, { force: true });
    } catch (error) {
      throw new StateFileError(
        file,
        `${problem}, and cannot be moved aside (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        STORE_REMEDY,
      );
    }
    logger.warn(
      { file, movedTo, problem },
      'the upstream cache file cannot be used: moved aside, the cache starts empty (cached answers are fetched again when asked for)',
    );
  };

  const damaged = `${file}.damaged`;
  const damage = await readFile(damaged, 'utf8').catch(() => undefined);
  if (damage !== undefined) {
    if (await exists(file)) await setAside(`was found damaged while the gateway ran (${damage.trim() || 'no detail'})`);
    await rm(damaged, { force: true });
  }
  if ((await exists(marker)) && (await exists(file)))
    await setAside('a previous start ended while reading it (damaged inside?)');
  const headerProblem = await lmdbHeaderProblem(file);
  if (headerProblem !== undefined) await setAside(headerProblem);
  try {
    await writeFile(marker, String(process.pid));
  } catch (error) {
    throw new StateFileError(
      marker,
      `cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      STORE_REMEDY,
    );
  }

  let root = openRoot(file);
  const foreign = describeForeign(root);
  if (foreign !== undefined) {
    await root.close();
    await setAside(foreign);
    root = openRoot(file);
  }
  const meta = root.openDB<unknown, string>({ name: 'meta', encoding: 'msgpack' });
  // Synchronously, once per new file: a crash right after creating it must not leave databases without their format record.
  if (meta.get('format') === undefined) meta.putSync('format', FORMAT);
  let pendingSync: Promise<void> | undefined;
  let closed = false;
  // lmdb-js's `sync` (mdb_env_sync on its own thread) is not in its type definitions: pinned by lmdb-contract.test.ts.
  const syncable = root as unknown as { sync(callback: (error?: unknown) => void): void };
  const syncNow = (): Promise<void> =>
    new Promise<void>((resolve, reject) => syncable.sync((error) => (error ? reject(error) : resolve())));
  return {
    file,
    syncSoon: () =>
      (pendingSync ??= new Promise<void>((resolve) => setTimeout(resolve, SYNC_DELAY_MS).unref()).then(() => {
        pendingSync = undefined;
        // close() syncs itself, and a closed environment cannot be synced.
        return closed ? undefined : syncNow();
      })),
    entries: root.openDB<Buffer, string>({ name: 'entries', encoding: 'binary' }),
    used: root.openDB<unknown, string>({ name: 'used', encoding: 'msgpack' }),
    batch: (writes) => root.batch(writes),
    markRead: () => rm(marker, { force: true }),
    markDamaged: (problem) => {
      try {
        writeFileSync(damaged, problem);
      } catch {
        // Nothing more to do: the file is already off for this run, and a full or read-only disk is its own log line.
      }
    },
    committed: () => root.committed,
    close: async () => {
      try {
        await root.committed;
        await syncNow();
      } finally {
        closed = true;
        await root.close();
      }
      await rm(marker, { force: true });
    },
  };
}

function openRoot(file: string): RootDatabase<Buffer, string> {
  try {
    // Keys are upstream resource keys; values are written already encoded. No compression: answers are read far more than written.
    // No event-turn batching: its batch marker's promise is lmdb-js's own, and a failed commit (a full disk) rejects it with no
    // handler, which ends the process. Writes are batched explicitly instead (`batch`), each batch one promise that is handled.
    // No sync in the commit (noSync): a commit is what a `kill -9` cannot undo already (its pages are the kernel's), and an answer
    // waits for it; with the sync in it, a commit also waits for the previous one's fdatasync (4 ms median, 20 ms and more on a
    // busy disk). The sync runs after it instead (`syncSoon`), off every answer's path.
    return open<Buffer, string>({
      path: file,
      maxDbs: DATABASES.length,
      encoding: 'binary',
      eventTurnBatching: false,
      noSync: true,
    });
  } catch (error) {
    throw new StateFileError(
      file,
      `cannot be opened (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      STORE_REMEDY,
    );
  }
}

/** Why `root` is not a store this code wrote, or undefined when it is one (or is new). */
function describeForeign(root: RootDatabase<Buffer, string>): string | undefined {
  const names = [...root.getKeys()].map(String);
  if (names.length === 0) return undefined;
  const unknown = names.filter((name) => !(DATABASES as readonly string[]).includes(name));
  if (unknown.length > 0) return `holds databases this gateway does not write (${unknown.slice(0, 3).join(', ')})`;
  if (!names.includes('meta')) return 'has no format record';
  const format = root.openDB<unknown, string>({ name: 'meta', encoding: 'msgpack' }).get('format');
  const mine =
    typeof format === 'object' &&
    format !== null &&
    Object.entries(FORMAT).every(([key, value]) => (format as Record<string, unknown>)[key] === value);
  return mine ? undefined : `has a format record this gateway does not read (${JSON.stringify(format)})`;
}

/** Why `file` is not an LMDB file as this code creates them, or undefined (absent counts as fine: a new store). */
async function lmdbHeaderProblem(file: string): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await openFile(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new StateFileError(file, `cannot be read (${code ?? String(error)})`, STORE_REMEDY);
  }
  try {
    const header = Buffer.alloc(2 * PAGE_SIZE);
    let bytesRead: number;
    try {
      ({ bytesRead } = await handle.read(header, 0, header.length, 0));
    } catch (error) {
      // A directory of that name (EISDIR), an I/O error: the operator's to look at, not ours to move.
      throw new StateFileError(
        file,
        `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        STORE_REMEDY,
      );
    }
    if (bytesRead === 0) return 'is empty';
    if (bytesRead < header.length) return `is too short for an LMDB file (${bytesRead} bytes)`;
    for (const page of [0, PAGE_SIZE]) {
      if (
        header.readUInt32LE(page + META_MAGIC_OFFSET) !== LMDB_MAGIC ||
        header.readUInt32LE(page + META_MAGIC_OFFSET + 4) !== LMDB_DATA_VERSION
      ) {
        return 'is not an LMDB file of the kind this gateway writes (no valid meta page)';
      }
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
