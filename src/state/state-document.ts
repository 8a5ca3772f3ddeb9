/**
 * One JSON document of local state (`DATA_DIR/quota.json`): named sections,
 * each owned by one module (the allowance ledger, the client budgets), read
 * at open and written together, atomically (state-file.ts).
 *
 * Why one document: the allowance and the client budgets carved out of it
 * must agree after any crash. Two files could be lost or restored one
 * without the other ("every client gets its full budget again"); one file
 * is always one consistent moment.
 *
 * Writes, in words, because the timing is the point:
 * - `soon()`: a change that may wait. One write within `persistDelayMs`
 *   covers a whole burst.
 * - `durable()`: a change that must be on disk before the caller goes on
 *   (a counted request about to leave). It resolves after a write that
 *   *started after the call*, so it holds the caller's change. Callers that
 *   arrive while a write is running share the next one: group commit, never
 *   a write per request, and at most one write in flight.
 * - Each write reads every section's current value at the moment it starts;
 *   a write whose bytes equal the last one written is skipped.
 * - A write that fails is reported to `onPersistError` and its waiters go
 *   on: counting continues in memory (the process still refuses past the
 *   allowance); only what a crash would remember is at risk, and the error
 *   log says so.
 */
import { join } from 'node:path';
import { readJsonState, StateFileError, writeAtomic } from './state-file.js';

const FORMAT_VERSION = 2;

export interface StateDocumentOptions {
  file: string;
  /** What the operator should do when the file is invalid (part of every StateFileError). */
  remedy: string;
  /** Sections of the legacy format (version 1 had the allowance's fields at the top level). */
  legacy?: (raw: Record<string, unknown>) => Record<string, unknown> | undefined;
  /** Told when a write failed. */
  onPersistError?: (error: unknown) => void;
  /** @default 100 */
  persistDelayMs?: number;
}

type Waiter = () => void;

export class StateDocument {
  readonly file: string;
  readonly #remedy: string;
  readonly #loaded: Record<string, unknown>;
  readonly #sections = new Map<string, () => unknown>();
  readonly #onPersistError: (error: unknown) => void;
  readonly #persistDelayMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #loop: Promise<void> = Promise.resolve();
  #dirty = false;
  #waiters: Waiter[] = [];
  #lastWritten: string | undefined;
  #writes = 0;

  private constructor(options: StateDocumentOptions, loaded: Record<string, unknown>) {
    this.file = options.file;
    this.#remedy = options.remedy;
    this.#loaded = loaded;
    this.#onPersistError = options.onPersistError ?? (() => undefined);
    this.#persistDelayMs = options.persistDelayMs ?? 100;
  }

  /** @throws StateFileError when the file exists and is not a valid document. */
  static async open(options: StateDocumentOptions): Promise<StateDocument> {
    const raw = await readJsonState(options.file, options.remedy);
    if (raw === undefined) return new StateDocument(options, {});
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new StateFileError(options.file, 'is not a JSON object', options.remedy);
    }
    const record = raw as Record<string, unknown>;
    if (record['version'] === FORMAT_VERSION) {
      const { version: _version, ...sections } = record;
      return new StateDocument(options, sections);
    }
    const legacy = record['version'] === undefined ? options.legacy?.(record) : undefined;
    if (legacy === undefined) {
      throw new StateFileError(options.file, `has an unknown format (version ${JSON.stringify(record['version'])})`, options.remedy);
    }
    return new StateDocument(options, legacy);
  }

  /** Opens `DATA_DIR/<name>`. */
  static at(dataDir: string, name: string, options: Omit<StateDocumentOptions, 'file'>): Promise<StateDocument> {
    return StateDocument.open({ ...options, file: join(dataDir, name) });
  }

  /** Writes completed so far: group commit shows as far fewer writes than durable changes. */
  get writes(): number {
    return this.#writes;
  }

  /** The section as it was on disk at open (undefined when absent); its owner validates it. */
  loaded(name: string): unknown {
    return this.#loaded[name];
  }

  /** An error about this file, for a section owner whose validation failed. */
  invalid(problem: string): StateFileError {
    return new StateFileError(this.file, problem, this.#remedy);
  }

  /** Makes `read` the source of section `name` in every write from now on. */
  register(name: string, read: () => unknown): void {
    if (this.#sections.has(name)) throw new TypeError(`state section "${name}" already has an owner`);
    this.#sections.set(name, read);
  }

  /** A change that may reach the disk within the persist window. */
  soon(): void {
    this.#dirty = true;
    if (this.#running || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#start();
    }, this.#persistDelayMs);
  }

  /** Resolves once a write that started after this call has finished. */
  durable(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#waiters.push(resolve);
      this.#start();
    });
  }

  /** Writes what is pending now and waits for it. */
  async flush(): Promise<void> {
    if (this.#timer !== undefined || this.#dirty) await this.durable();
    await this.#loop;
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
      while (this.#dirty || this.#waiters.length > 0) {
        const waiters = this.#waiters;
        this.#waiters = [];
        this.#dirty = false;
        const body = this.#serialize();
        if (body !== this.#lastWritten) {
          try {
            await writeAtomic(this.file, body);
            this.#lastWritten = body;
            this.#writes += 1;
          } catch (error) {
            this.#onPersistError(error);
          }
        }
        for (const resolve of waiters) resolve();
      }
    } finally {
      this.#running = false;
    }
  }

  #serialize(): string {
    const sections: Record<string, unknown> = { version: FORMAT_VERSION };
    // Sections nobody owns in this process (the importer has no budgets) are kept as they were read.
    for (const [name, value] of Object.entries(this.#loaded)) sections[name] = value;
    for (const [name, read] of this.#sections) sections[name] = read();
    return JSON.stringify(sections);
  }
}
