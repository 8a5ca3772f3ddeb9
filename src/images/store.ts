/**
 * The persistent image store under `DATA_DIR/images`: image bytes in
 * content-addressed files (`files/<sha256>.<ext>`, so one logo served under
 * two keys is kept once) and an index keyed by version + type + ID
 * (+ imageVersion for V1), kept as a journal (store-journal.ts).
 *
 * The index also remembers answers that are not images: a V1 placeholder and
 * a V2/V6 "not found upstream", each for a day, so that asking again within
 * the day costs nothing either. Logos never expire (spec 4.2.8); V6 images
 * expire after 24 hours (spec 4.2.5).
 *
 * Every stored image was paid for, so the index is never trusted blindly
 * and never forgotten whole (issue 12). At open: temporaries a crashed
 * process left are removed (only the DATA_DIR lock holder opens the store),
 * each journal line is validated and a damaged one costs only its own key,
 * an entry whose file is missing or of another size is dropped (it would
 * answer nothing), a version-1 `index.json` is migrated once, and the
 * journal is compacted when any of that happened. A file that cannot be
 * read at all is a StateFileError naming it.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import { knownStateChanged } from '../upstream/known-state.js';
import { removeLeftoverTemporaries, StateFileError, writeAtomic } from '../state/state-file.js';
import { imageExtensions, isKnownImageType, type ImageEntry, type StoreEntry } from './store-entry.js';
import {
  appendJournal,
  INDEX_REMEDY,
  JOURNAL_FILE,
  readJournal,
  rewriteJournal,
  type DamagedLine,
} from './store-journal.js';
import { LEGACY_INDEX_FILE, readLegacyIndex } from './store-legacy-index.js';

export type { ImageEntry, StoreEntry } from './store-entry.js';

/** Damaged lines named one by one in the log; the rest are counted. */
const DAMAGE_WARNINGS = 20;

export interface ImageStoreOptions {
  /** `DATA_DIR/images`. */
  readonly dir: string;
  /** Told about damage found at open and about failed writes. */
  readonly logger: Logger;
  /** @default Date.now */
  readonly now?: () => number;
  /**
   * Superseded journal lines tolerated before the journal is compacted; the
   * bound is never below the number of live entries, so a put stays O(1)
   * amortized.
   * @default 1_000
   */
  readonly compactAfter?: number;
}

export class ImageStore {
  readonly #entries: Map<string, StoreEntry>;
  readonly #dir: string;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #compactAfter: number;
  /** Lines in the journal file, live or superseded. */
  #journalLines: number;
  /** A write failed part-way: the next one rewrites the journal rather than append after a fragment. */
  #rewriteNeeded = false;
  #writing: Promise<void> = Promise.resolve();

  private constructor(options: ImageStoreOptions, entries: Map<string, StoreEntry>, journalLines: number) {
    this.#dir = options.dir;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
    this.#compactAfter = options.compactAfter ?? 1_000;
    this.#entries = entries;
    this.#journalLines = journalLines;
  }

  /**
   * @throws StateFileError when the directory, the journal or a legacy index
   * cannot be read, or the repaired journal cannot be written.
   */
  static async open(options: ImageStoreOptions): Promise<ImageStore> {
    const { dir, logger } = options;
    const now = (options.now ?? Date.now)();
    const files = join(dir, 'files');
    const journalFile = join(dir, JOURNAL_FILE);
    const legacyFile = join(dir, LEGACY_INDEX_FILE);
    await asStateError(files, mkdir(files, { recursive: true }));
    const leftovers = [
      ...(await asStateError(dir, removeLeftoverTemporaries(dir))),
      ...(await asStateError(files, removeLeftoverTemporaries(files))).map((name) => join('files', name)),
    ];
    if (leftovers.length > 0)
      logger.warn({ dir, files: leftovers }, 'image store: removed temporary files left by a crashed process');

    const legacy = await readLegacyIndex(legacyFile);
    for (const problem of legacy?.problems ?? [])
      logger.warn({ file: legacyFile, problem }, 'image store: legacy index entry skipped');
    const journal = await readJournal(journalFile);
    if (journal !== undefined) warnDamage(logger, journalFile, journal.damaged, journal.truncatedTail);

    // The journal is newer than a legacy index still beside it (a migration that crashed before removing it).
    const entries = new Map<string, StoreEntry>([...(legacy?.entries ?? []), ...(journal?.entries ?? [])]);
    for (const [key, entry] of entries) if (isExpired(entry, now)) entries.delete(key);
    const dropped = await dropEntriesWithoutFile(entries, files);
    for (const { key, file, problem } of dropped)
      logger.warn({ key, file, problem }, 'image store: entry dropped, its image file is not as indexed');

    const store = new ImageStore(options, entries, journal?.lines ?? 0);
    const damaged = journal !== undefined && (journal.damaged.length > 0 || journal.truncatedTail);
    if (legacy !== undefined || damaged || dropped.length > 0 || store.#superseded() > store.#bound()) {
      try {
        await store.#compact();
      } catch (error) {
        throw new StateFileError(
          journalFile,
          `cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
          INDEX_REMEDY,
        );
      }
      if (legacy !== undefined) {
        await rm(legacyFile, { force: true });
        logger.info(
          { from: legacyFile, to: journalFile, entries: legacy.entries.size },
          'image store: legacy index migrated',
        );
      }
    }
    return store;
  }

  /** The entry for a key, unless it has expired. */
  get(key: string): StoreEntry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || isExpired(entry, this.#now())) return undefined;
    return entry;
  }

  /** True when an image (not a placeholder or a miss) is stored under the key. */
  hasImage(key: string): boolean {
    return this.get(key)?.kind === 'image';
  }

  async read(entry: ImageEntry): Promise<Buffer> {
    return readFile(this.#fileOf(entry));
  }

  /**
   * Stores bytes under a key; `ttlMs` undefined keeps them for good.
   * @throws GatewayError UPSTREAM_INVALID_RESPONSE for an image type the store does not keep.
   */
  async putImage(key: string, bytes: Buffer, contentType: string, ttlMs?: number): Promise<ImageEntry> {
    if (!isKnownImageType(contentType)) {
      throw new GatewayError(
        ErrorCode.UpstreamInvalidResponse,
        `The upstream's image is of a type the gateway does not keep (${contentType}).`,
      );
    }
    const now = this.#now();
    const entry: ImageEntry = {
      kind: 'image',
      hash: createHash('sha256').update(bytes).digest('hex'),
      contentType,
      size: bytes.length,
      storedAt: now,
      ...(ttlMs === undefined ? {} : { expiresAt: now + ttlMs }),
    };
    // The file first: a journal line never names a file that was not written.
    await writeAtomic(this.#fileOf(entry), bytes);
    await this.#record(key, entry);
    return entry;
  }

  /** Remembers an answer that is not an image (placeholder, not found) for `ttlMs`. */
  async putMarker(key: string, kind: 'placeholder' | 'missing', ttlMs: number): Promise<void> {
    const now = this.#now();
    await this.#record(key, { kind, storedAt: now, expiresAt: now + ttlMs });
  }

  /** Waits for pending index writes. */
  flush(): Promise<void> {
    return this.#writing;
  }

  #fileOf(entry: ImageEntry): string {
    return imageFile(join(this.#dir, 'files'), entry);
  }

  #record(key: string, entry: StoreEntry): Promise<void> {
    knownStateChanged();
    this.#entries.set(key, entry);
    // One chain: lines never interleave, and a compaction never races an append.
    this.#writing = this.#writing.then(async () => {
      try {
        if (this.#rewriteNeeded || this.#superseded() > this.#bound()) {
          await this.#compact();
        } else {
          await appendJournal(this.#journalFile, key, entry);
          this.#journalLines += 1;
        }
      } catch (error) {
        this.#rewriteNeeded = true;
        this.#logger.error(
          { err: error, file: this.#journalFile },
          'could not write the image index: the image is served from memory, but a restart now would download it (and pay for it) again',
        );
      }
    });
    return this.#writing;
  }

  /** Rewrites the journal with the live entries only. */
  async #compact(): Promise<void> {
    const now = this.#now();
    for (const [key, entry] of this.#entries) if (isExpired(entry, now)) this.#entries.delete(key);
    await rewriteJournal(this.#journalFile, this.#entries);
    this.#journalLines = this.#entries.size;
    this.#rewriteNeeded = false;
  }

  #superseded(): number {
    return this.#journalLines - this.#entries.size;
  }

  #bound(): number {
    return Math.max(this.#compactAfter, this.#entries.size);
  }

  get #journalFile(): string {
    return join(this.#dir, JOURNAL_FILE);
  }
}

function isExpired(entry: StoreEntry, now: number): boolean {
  return entry.expiresAt !== undefined && entry.expiresAt <= now;
}

function imageFile(filesDir: string, entry: ImageEntry): string {
  return join(filesDir, `${entry.hash}.${imageExtensions[entry.contentType] ?? 'bin'}`);
}

interface DroppedEntry {
  readonly key: string;
  readonly file: string;
  readonly problem: string;
}

/** Removes the image entries whose file is missing or not of the indexed size. */
async function dropEntriesWithoutFile(entries: Map<string, StoreEntry>, filesDir: string): Promise<DroppedEntry[]> {
  const sizes = new Map<string, Promise<number | undefined>>();
  const sizeOf = (file: string): Promise<number | undefined> => {
    let size = sizes.get(file);
    if (size === undefined) {
      size = stat(file).then(
        (stats) => (stats.isFile() ? stats.size : undefined),
        () => undefined,
      );
      sizes.set(file, size);
    }
    return size;
  };
  const checks = [...entries].map(async ([key, entry]): Promise<DroppedEntry | undefined> => {
    if (entry.kind !== 'image') return undefined;
    const file = imageFile(filesDir, entry);
    const size = await sizeOf(file);
    if (size === entry.size) return undefined;
    return { key, file, problem: size === undefined ? 'no such file' : `${size} bytes, indexed as ${entry.size}` };
  });
  const dropped = (await Promise.all(checks)).filter((drop): drop is DroppedEntry => drop !== undefined);
  for (const { key } of dropped) entries.delete(key);
  return dropped;
}

function warnDamage(logger: Logger, file: string, damaged: readonly DamagedLine[], truncatedTail: boolean): void {
  for (const { line, problem } of damaged.slice(0, DAMAGE_WARNINGS)) {
    logger.warn(
      { file, line, problem },
      `image store: ${file} line ${line} is damaged (${problem}); only its key is forgotten`,
    );
  }
  if (damaged.length > DAMAGE_WARNINGS) {
    logger.warn(
      { file, damagedLines: damaged.length },
      `image store: ${file} has ${damaged.length - DAMAGE_WARNINGS} more damaged lines`,
    );
  }
  if (truncatedTail)
    logger.warn(
      { file },
      `image store: ${file} ends inside a line (a write cut short by a crash); that line is ignored`,
    );
}

/** Turns a file-system failure about `path` into a StateFileError naming it. */
async function asStateError<T>(path: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw new StateFileError(
      path,
      `cannot be used (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      INDEX_REMEDY,
    );
  }
}
