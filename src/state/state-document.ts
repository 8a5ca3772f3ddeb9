/**
 * One JSON document of local state (`DATA_DIR/quota.json`): named sections,
 * each owned by one module (the allowance ledger, the client budgets), read
 * at open and written together.
 *
 * Why one document: the allowance and the client budgets carved out of it
 * must agree after any crash. Two files could be lost or restored one
 * without the other ("every client gets its full budget again"); one
 * document is always one consistent moment.
 *
 * Two ways to the disk, in words, because the timing is the point:
 * - `soon()`: a change that may wait. Within `persistDelayMs` the whole
 *   document is written to `quota.json` atomically (temporary file and
 *   rename): the file an operator reads and edits. One write covers a burst,
 *   and changes that keep coming (every counted request commits one) are
 *   written at most once per window: a change made while a write is under
 *   way waits for the window counted from itself, not for the write's end,
 *   so back-to-back operations do not become back-to-back writes. Nothing
 *   that must survive a crash waits on this path: that is `durable()`'s.
 * - `durable()`: a change that must be on disk before the caller goes on (a
 *   counted request about to leave). The document is written in place, in
 *   one `pwrite` of one small buffer from this thread, to the write-ahead
 *   copy `quota.json.wal`, once the promise jobs queued meanwhile have run:
 *   every caller until then shares it (group commit), and it costs microseconds where the
 *   rename path costs half a millisecond of thread-pool round trips. A
 *   process killed at any moment leaves the write whole: the kernel has the
 *   bytes once the call returns. (Neither path calls fsync: this guards
 *   against a crashed or killed process, not a machine that loses power.)
 * - Every write carries a sequence number; at open the copy with the higher
 *   one wins, so the write-ahead copy is believed only when it is newer than
 *   the file. A clean close writes the file and removes the write-ahead
 *   copy, so an operator who edits a stopped gateway's file is not
 *   overruled by it.
 * - A write that fails is reported to `onPersistError` and its waiters go
 *   on: counting continues in memory (the process still refuses past the
 *   allowance); only what a crash would remember is at risk, and the error
 *   log says so. Reported once when writes start failing (a full disk
 *   fails every one of them), and `onPersistRecovered` once a write of each
 *   path that failed has succeeded again.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonState, StateFileError, writeAtomic } from './state-file.js';

const FORMAT_VERSION = 2;
export const WAL_SUFFIX = '.wal';

export interface StateDocumentOptions {
  file: string;
  /** What the operator should do when the file is invalid (part of every StateFileError). */
  remedy: string;
  /** Sections of the legacy format (version 1 had the allowance's fields at the top level). */
  legacy?: (raw: Record<string, unknown>) => Record<string, unknown> | undefined;
  /** Told when writes start failing (not again for every write while they keep failing). */
  onPersistError?: (error: unknown) => void;
  /** Told when writes succeed again after `onPersistError`. */
  onPersistRecovered?: () => void;
  /**
   * The `soon()` window. A second, not less: what a crash must keep is in
   * the write-ahead copy already, and each rewrite of the file costs about a
   * millisecond of main-thread work in thread-pool round trips (about 3 % of
   * a truly cold operation's main-thread CPU when it came every 100 ms).
   * @default 1_000
   */
  persistDelayMs?: number;
}

type Waiter = () => void;

interface Loaded {
  readonly sections: Record<string, unknown>;
  readonly seq: number;
  /** The file the sections were read from (the write-ahead copy after a crash). */
  readonly source: string;
  /** How it was read: nothing on disk, the version-1 layout, or this version. */
  readonly format: LoadedFormat;
}

export type LoadedFormat = 'absent' | 'legacy' | 'current';

export class StateDocument {
  readonly file: string;
  /** Where the state was read from at open: named in validation errors. */
  readonly source: string;
  /** Whether a document was on disk at open, and in which layout: owners check that their sections are there. */
  readonly format: LoadedFormat;
  readonly #remedy: string;
  readonly #loaded: Record<string, unknown>;
  readonly #sections = new Map<string, () => unknown>();
  readonly #onPersistError: (error: unknown) => void;
  readonly #onPersistRecovered: () => void;
  /** The write paths whose last write failed: reported when the first one fails, recovered when none is left. */
  readonly #failing = new Set<'wal' | 'file'>();
  readonly #persistDelayMs: number;
  #seq: number;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #loop: Promise<void> = Promise.resolve();
  #dirty = false;
  /** When the oldest change not yet being written was made (epoch ms): the window is counted from it. */
  #dirtySince = 0;
  #flushWaiters: Waiter[] = [];
  #lastWritten: string | undefined;
  #lastWriteOk = false;
  #writes = 0;
  #walFd: number | undefined;
  #walLength = 0;
  /** The write-ahead every `durable()` caller since the last one waits for, and its resolve: one promise per group. */
  #walPending: { readonly written: Promise<void>; readonly resolve: Waiter } | undefined;
  #walWrites = 0;

  private constructor(options: StateDocumentOptions, loaded: Loaded) {
    this.file = options.file;
    this.source = loaded.source;
    this.format = loaded.format;
    this.#remedy = options.remedy;
    this.#loaded = loaded.sections;
    this.#seq = loaded.seq;
    this.#onPersistError = options.onPersistError ?? (() => undefined);
    this.#onPersistRecovered = options.onPersistRecovered ?? (() => undefined);
    this.#persistDelayMs = options.persistDelayMs ?? 1_000;
  }

  /** @throws StateFileError when the file or its write-ahead copy exists and is not a valid document. */
  static async open(options: StateDocumentOptions): Promise<StateDocument> {
    const file = await readDocument(options.file, options);
    const wal = await readDocument(options.file + WAL_SUFFIX, { remedy: options.remedy });
    const newest = wal !== undefined && (file === undefined || wal.seq > file.seq) ? wal : file;
    return new StateDocument(options, newest ?? { sections: {}, seq: 0, source: options.file, format: 'absent' });
  }

  /** Opens `DATA_DIR/<name>`. */
  static at(dataDir: string, name: string, options: Omit<StateDocumentOptions, 'file'>): Promise<StateDocument> {
    return StateDocument.open({ ...options, file: join(dataDir, name) });
  }

  /** Writes completed so far, both paths: group commit shows as far fewer writes than durable changes. */
  get writes(): number {
    return this.#writes + this.#walWrites;
  }

  /** The section as it was on disk at open (undefined when absent); its owner validates it. */
  loaded(name: string): unknown {
    return this.#loaded[name];
  }

  /** An error about this file, for a section owner whose validation failed. */
  invalid(problem: string): StateFileError {
    return new StateFileError(this.source, problem, this.#remedy);
  }

  /** Makes `read` the source of section `name` in every write from now on. */
  register(name: string, read: () => unknown): void {
    if (this.#sections.has(name)) throw new TypeError(`state section "${name}" already has an owner`);
    this.#sections.set(name, read);
  }

  /** A change that may reach `quota.json` within the persist window. */
  soon(): void {
    if (!this.#dirty) this.#dirtySince = Date.now();
    this.#dirty = true;
    if (this.#running || this.#timer !== undefined) return;
    this.#arm(this.#persistDelayMs);
  }

  /**
   * Resolves once the state as of this call is on disk (the write-ahead
   * copy, shared by every caller until the promise jobs queued now have
   * run). The write is a `process.nextTick`, which Node runs once the
   * microtask queue is empty, not a microtask of its own: one operation's
   * resolvers reserve over several promise turns (a V2 field awaits its
   * sport's slug first), and a microtask write taken after the first of
   * them left the others a write of their own.
   */
  durable(): Promise<void> {
    this.soon();
    if (this.#walPending === undefined) {
      // One promise for the whole group (not one per caller): every request of a cold operation reserves here.
      let resolve: Waiter = () => undefined;
      const written = new Promise<void>((settle) => {
        resolve = settle;
      });
      this.#walPending = { written, resolve };
      process.nextTick(() => this.#writeAhead());
    }
    return this.#walPending.written;
  }

  /** Writes what is pending to `quota.json` now and waits for it. */
  async flush(): Promise<void> {
    if (this.#timer !== undefined || this.#dirty) {
      this.#dirty = true;
      await new Promise<void>((resolve) => {
        this.#flushWaiters.push(resolve);
        this.#start();
      });
    }
    await this.#loop;
  }

  /** Flushes, then removes the write-ahead copy: the file alone is the truth of a stopped process. */
  async close(): Promise<void> {
    this.#dirty = true;
    await this.flush();
    if (this.#walFd !== undefined) {
      closeSync(this.#walFd);
      this.#walFd = undefined;
    }
    if (this.#lastWriteOk) await rm(this.file + WAL_SUFFIX, { force: true });
  }

  #writeAhead(): void {
    const pending = this.#walPending;
    this.#walPending = undefined;
    try {
      const body = this.#withSeq(this.#sectionsJson());
      // Padded to the longest copy written so far: a shorter document leaves spaces, which JSON allows, never old bytes.
      const bytes = Buffer.from(body.padEnd(this.#walLength, ' '));
      this.#walFd ??= openSync(this.file + WAL_SUFFIX, 'w');
      writeSync(this.#walFd, bytes, 0, bytes.length, 0);
      this.#walLength = bytes.length;
      this.#walWrites += 1;
      // The write-ahead copy is now newer than the file: the next snapshot must be written even if its sections look unchanged.
      this.#lastWritten = undefined;
      this.#succeeded('wal');
    } catch (error) {
      this.#failed('wal', error);
    }
    pending?.resolve();
  }

  #failed(path: 'wal' | 'file', error: unknown): void {
    const reported = this.#failing.size > 0;
    this.#failing.add(path);
    if (!reported) this.#onPersistError(error);
  }

  #succeeded(path: 'wal' | 'file'): void {
    if (this.#failing.delete(path) && this.#failing.size === 0) this.#onPersistRecovered();
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#start();
    }, delayMs);
  }

  #start(): void {
    if (this.#running) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#running = true;
    this.#loop = this.#writeWhilePending();
  }

  async #writeWhilePending(): Promise<void> {
    try {
      // The first write is due (its window passed, or someone flushes); another right after it only for a flush.
      for (let first = true; this.#dirty && (first || this.#flushWaiters.length > 0); first = false) {
        const waiters = this.#flushWaiters;
        this.#flushWaiters = [];
        this.#dirty = false;
        const sections = this.#sectionsJson();
        if (sections !== this.#lastWritten) {
          try {
            await writeAtomic(this.file, this.#withSeq(sections));
            this.#lastWritten = sections;
            this.#lastWriteOk = true;
            this.#writes += 1;
            this.#succeeded('file');
          } catch (error) {
            this.#lastWriteOk = false;
            this.#failed('file', error);
          }
        }
        for (const resolve of waiters) resolve();
      }
    } finally {
      this.#running = false;
      // Changes made during the write: written once their own window has passed.
      if (this.#dirty && this.#timer === undefined)
        this.#arm(Math.max(0, this.#dirtySince + this.#persistDelayMs - Date.now()));
    }
  }

  /** The sections as JSON, without version or sequence: what decides whether a write is needed. */
  #sectionsJson(): string {
    const sections: Record<string, unknown> = {};
    // Sections nobody owns in this process (the importer has no budgets) are kept as they were read.
    for (const [name, value] of Object.entries(this.#loaded)) sections[name] = value;
    for (const [name, read] of this.#sections) sections[name] = read();
    return JSON.stringify(sections);
  }

  /** The whole document: every write gets the next sequence number. */
  #withSeq(sections: string): string {
    this.#seq += 1;
    const head = `{"version":${FORMAT_VERSION},"seq":${this.#seq}`;
    return sections === '{}' ? `${head}}` : `${head},${sections.slice(1)}`;
  }
}

/** A document file's sections and sequence number; undefined when it does not exist. */
async function readDocument(
  file: string,
  options: Pick<StateDocumentOptions, 'remedy' | 'legacy'>,
): Promise<Loaded | undefined> {
  const raw = await readJsonState(file, options.remedy);
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new StateFileError(file, 'is not a JSON object', options.remedy);
  }
  const record = raw as Record<string, unknown>;
  if (record['version'] === FORMAT_VERSION) {
    const { version: _version, seq, ...sections } = record;
    if (seq !== undefined && !(typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0)) {
      throw new StateFileError(
        file,
        `"seq" must be a whole number of at least 0, got ${JSON.stringify(seq)}`,
        options.remedy,
      );
    }
    return { sections, seq: seq ?? 0, source: file, format: 'current' };
  }
  const legacy = record['version'] === undefined ? options.legacy?.(record) : undefined;
  if (legacy === undefined) {
    throw new StateFileError(
      file,
      `has an unknown format (version ${JSON.stringify(record['version'])})`,
      options.remedy,
    );
  }
  return { sections: legacy, seq: 0, source: file, format: 'legacy' };
}
