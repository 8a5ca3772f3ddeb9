/**
 * The response cache's entries in memory over a durable file
 * (`CACHE_STORE=disk`, the default): every answer the upstream gave, fresh
 * or stale, outlives a restart or a `kill -9`, so a repeat of an operation
 * after one spends nothing while its resources are fresh, and a gateway
 * restarted during an upstream outage still has stale copies to answer with.
 *
 * - Memory in front (the same byte-bounded LRU as `CACHE_STORE=memory`):
 *   a hit costs what it always did, plus moving the key in the disk order.
 * - The file behind it (LMDB through cache-store-file.ts), bounded by
 *   `CACHE_DISK_MAX_MB` of encoded entries, least recently used out first.
 *   A memory miss reads it (a memory-mapped read, decoded once, then held
 *   in memory again).
 * - Nothing paid for is lost to a crash (issue 29 item 7): `set` queues
 *   the entry, and `durable()` (which the response cache awaits before an
 *   upstream answer with a TTL goes on to its callers; one with none, TTL
 *   0, could never spare a request after a restart and waits for the next
 *   timed batch instead, in memory meanwhile) writes the queue in one batch,
 *   once the promise jobs queued meanwhile have run, so every answer of a
 *   wave shares one commit; LMDB commits it on its own thread. The commit
 *   is what a `kill -9` cannot undo (the pages are the kernel's once it
 *   returns); the sync to the disk follows within a second, off the
 *   answer's path (cache-store-file.ts, syncSoon). Uses are recorded on a
 *   timer, batched: a crash loses only the recency of the last few, never
 *   an entry.
 * - A fault of the file is survived, not fatal (issue 35 item 4): the first
 *   failed read or write (a full disk, EIO, a page that fails LMDB's
 *   checks) is logged once and turns the file off until the next start;
 *   answers go on from memory and the upstream. A damaged page also leaves
 *   a marker, and the next start sets the file aside (cache-store-file.ts).
 * - At start only the small `used` records are read (key, last use, bytes,
 *   when the entry stops being of any use), which rebuilds the byte bound
 *   and the recency order and drops what can no longer answer even stale.
 *   Entries themselves are read when first asked for, so start-up does not
 *   grow with the file.
 */
import { EndedLastLru } from './ended-last-lru.js';
import type { Logger } from 'pino';
import type { CacheStoreFile } from '../state/cache-store-file.js';
import { causeOf, describeFailure, isDamage } from '../state/lmdb-failure.js';
import type { CacheEntries, Stored } from './cache-entries.js';
import { decodeEntry, encodeEntry } from './cache-entry-codec.js';
import { IMMUTABLE_TTL_MS } from './cache-ttls.js';
import { knownStateChanged } from './known-state.js';

/**
 * How long a use (or an entry nobody awaited as durable) waits to be
 * batched with others. Each batch is one LMDB commit, whatever it holds,
 * so a short delay costs a busy gateway more commits for the same uses: a
 * quarter of a second rather than 50 ms.
 */
const WRITE_DELAY_MS = 250;
/**
 * A use is written to the file only when the one recorded there is older
 * than this: the order in memory is exact, the file's is to the minute,
 * which is all an eviction order needs across a restart, and a hot key
 * costs one small write a minute instead of one per batch.
 */
const USE_RESOLUTION_MS = 60_000;

export interface DiskEntriesOptions {
  readonly store: CacheStoreFile;
  /** Bytes held in memory (`CACHE_MAX_BYTES`). */
  readonly memoryBytes: number;
  /** Bytes of encoded entries kept in the file (`CACHE_DISK_MAX_MB`). */
  readonly diskBytes: number;
  /** How long past its TTL an entry may still answer stale: past that it is of no use and is dropped. */
  readonly maxStaleMs: number;
  readonly logger: Logger;
  /** @default Date.now */
  readonly now?: () => number;
}

/** What the file holds, for the metrics and the tests. */
export interface DiskEntriesStats {
  readonly entries: number;
  readonly bytes: number;
  /** Entries and uses queued or written but not yet committed: 0 means everything so far survives a `kill -9`. */
  readonly pendingWrites: number;
  /** False once a fault turned the file off for the rest of this run. */
  readonly enabled: boolean;
}

interface Indexed {
  readonly bytes: number;
  readonly uselessAt: number;
  /** The last use the file records. */
  readonly savedUseAt: number;
}

type UsedRecord = [usedAt: number, bytes: number, uselessAt: number];

export class DiskEntries implements CacheEntries {
  private readonly memory: EndedLastLru<Stored>;
  /** Every entry in the file, least recently used first (a Map keeps insertion order: a use re-inserts). */
  private readonly index = new Map<string, Indexed>();
  private bytes = 0;
  private readonly queued = new Map<string, Stored>();
  private readonly usedSince = new Set<string>();
  /** Writes handed to LMDB and not yet committed: close() waits for every one before the file is closed. */
  private readonly uncommitted = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private durableWaiters: Array<() => void> = [];
  private closed = false;
  /** Set by the first fault: from then on, memory only. */
  private off = false;
  private readonly now: () => number;

  private constructor(private readonly options: DiskEntriesOptions) {
    this.now = options.now ?? Date.now;
    // Ended matches' answers leave memory last too, as they leave the file last (evict below).
    this.memory = new EndedLastLru<Stored>({ maxBytes: options.memoryBytes });
  }

  /** Reads the `used` records back (see the file comment), then lets the store forget its opening marker. */
  static async open(options: DiskEntriesOptions): Promise<DiskEntries> {
    const entries = new DiskEntries(options);
    try {
      entries.readIndex();
    } catch (error) {
      // A damaged page in the index: this run goes on in memory, the next start sets the file aside.
      entries.turnOff(error);
    }
    await options.store.markRead();
    return entries;
  }

  get(key: string): Stored | undefined {
    const entry = this.memory.get(key) ?? this.read(key);
    if (entry !== undefined) this.markUsed(key);
    return entry;
  }

  peek(key: string): Stored | undefined {
    // A key the index does not hold is not read from the file: a miss costs a Map lookup.
    return this.memory.peek(key) ?? this.read(key);
  }

  set(key: string, entry: Stored): void {
    knownStateChanged();
    this.memory.set(key, entry);
    if (this.off) return;
    this.queued.set(key, entry);
    this.schedule();
  }

  durable(): Promise<void> {
    if (this.off || this.closed || (this.queued.size === 0 && this.uncommitted.size === 0)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.durableWaiters.push(resolve);
      // A tick, not a microtask: every answer of a wave of loads arrives over several promise turns, and they share one commit.
      if (this.durableWaiters.length === 1) process.nextTick(() => this.writeDurable());
    });
  }

  clear(): void {
    knownStateChanged();
    this.memory.clear();
    if (this.closed || this.off) return;
    this.queued.clear();
    this.usedSince.clear();
    this.index.clear();
    this.bytes = 0;
    this.track(this.options.store.entries.clearAsync());
    this.track(this.options.store.used.clearAsync());
  }

  deleteWhere(matches: (key: string) => boolean): number {
    const keys = new Set([...this.memory.keys(), ...this.index.keys(), ...this.queued.keys()].filter(matches));
    for (const key of keys) {
      this.memory.delete(key);
      this.queued.delete(key);
      this.usedSince.delete(key);
      this.remove(key);
    }
    return keys.size;
  }

  stats(): DiskEntriesStats {
    return {
      entries: this.index.size,
      bytes: this.bytes,
      pendingWrites: this.queued.size + this.usedSince.size + this.uncommitted.size,
      enabled: !this.off,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.write();
    this.closed = true;
    // LMDB starts a batch on a later turn: closing the file before it has would fail that batch outside any caller.
    await Promise.allSettled([...this.uncommitted]);
    this.resolveDurable();
    try {
      await this.options.store.close();
    } catch (error) {
      // A file that failed this run may fail its last commit too: already logged, and nothing to keep.
      if (!this.off) throw error;
    }
  }

  /** The first fault of the file: logged once, and the file is not touched again until the next start. */
  private turnOff(cause: unknown): void {
    if (this.off) return;
    this.off = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queued.clear();
    this.usedSince.clear();
    this.index.clear();
    this.bytes = 0;
    const damaged = isDamage(cause);
    const problem = describeFailure(cause);
    if (damaged) this.options.store.markDamaged(problem);
    this.options.logger.error(
      { err: cause, file: this.options.store.file, damaged },
      damaged
        ? 'the upstream cache file is damaged: it is off until the next start, which sets it aside; answers come from memory and the upstream'
        : 'could not write to the upstream cache file (full or failing disk?): it is off until the next start; answers come from memory and the upstream',
    );
    this.resolveDurable();
  }

  private writeDurable(): void {
    const waiters = this.durableWaiters;
    this.durableWaiters = [];
    if (this.queued.size > 0) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.write();
    }
    void Promise.allSettled([...this.uncommitted]).then(() => {
      for (const resolve of waiters) resolve();
    });
  }

  private resolveDurable(): void {
    const waiters = this.durableWaiters;
    this.durableWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private read(key: string): Stored | undefined {
    if (this.closed || this.off || !this.index.has(key)) return undefined;
    let bytes: Buffer | undefined;
    try {
      bytes = this.options.store.entries.getBinary(key);
    } catch (error) {
      this.turnOff(error);
      return undefined;
    }
    const entry = bytes === undefined ? undefined : decodeEntry(bytes);
    if (entry === undefined) {
      this.options.logger.warn(
        { file: this.options.store.file },
        'an upstream cache entry in the file could not be read: dropped (it is fetched again)',
      );
      this.remove(key);
      return undefined;
    }
    this.memory.set(key, entry);
    return entry;
  }

  private markUsed(key: string): void {
    const indexed = this.index.get(key);
    if (indexed === undefined) return;
    this.index.delete(key);
    this.index.set(key, indexed);
    if (this.now() - indexed.savedUseAt < USE_RESOLUTION_MS) return;
    this.usedSince.add(key);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.closed || this.off) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, WRITE_DELAY_MS);
    // Pending writes never hold the process open: close() writes them.
    this.timer.unref();
  }

  /** Encodes and writes the queue and the uses in one batch, then evicts down to the bound. */
  private write(): void {
    if (this.closed || this.off) return;
    try {
      const batch = this.options.store.batch(() => this.writeBatch());
      this.track(batch);
      batch.then(
        () => this.options.store.syncSoon().catch((error: unknown) => this.turnOff(error)),
        () => undefined,
      );
    } catch (error) {
      // LMDB refuses a write at once when its environment is already broken.
      this.turnOff(error);
    }
  }

  private writeBatch(): void {
    const { store, diskBytes, maxStaleMs } = this.options;
    const now = this.now();
    for (const [key, entry] of this.queued) {
      const encoded = encodeEntry(entry);
      this.dropFromIndex(key);
      // One answer larger than the whole file bound is kept in memory only.
      if (encoded.length > diskBytes) {
        this.track(store.entries.remove(key));
        this.track(store.used.remove(key));
        continue;
      }
      const uselessAt = entry.storedAt + entry.ttlMs + (entry.kind === 'value' ? maxStaleMs : 0);
      this.index.set(key, { bytes: encoded.length, uselessAt, savedUseAt: now });
      this.bytes += encoded.length;
      this.track(store.entries.put(key, encoded));
      this.track(store.used.put(key, [now, encoded.length, uselessAt] satisfies UsedRecord));
    }
    for (const key of this.usedSince) {
      const indexed = this.index.get(key);
      if (indexed === undefined || this.queued.has(key)) continue;
      this.index.set(key, { ...indexed, savedUseAt: now });
      this.track(store.used.put(key, [now, indexed.bytes, indexed.uselessAt] satisfies UsedRecord));
    }
    this.queued.clear();
    this.usedSince.clear();
    this.evict();
  }

  /**
   * Least recently used out first, but an ended match's answers last
   * (issue 33): they cost a request each to get back and never go stale,
   * while anything else is soon fetched again anyway. They are told by their
   * TTL (cache-ttls.ts `IMMUTABLE_TTL_MS`), which the file's use records hold
   * as `uselessAt`, so the order survives a restart.
   */
  private evict(): void {
    if (this.bytes <= this.options.diskBytes) return;
    const lastingFrom = this.now() + IMMUTABLE_TTL_MS / 2;
    for (const [key, indexed] of this.index) {
      if (this.bytes <= this.options.diskBytes) return;
      if (indexed.uselessAt < lastingFrom) this.remove(key);
    }
    for (const key of this.index.keys()) {
      if (this.bytes <= this.options.diskBytes) return;
      this.remove(key);
    }
  }

  /** Every removal from the file (eviction to the byte bound, a deletion, an unreadable entry). */
  private remove(key: string): void {
    knownStateChanged();
    this.dropFromIndex(key);
    if (this.closed || this.off) return;
    this.track(this.options.store.entries.remove(key));
    this.track(this.options.store.used.remove(key));
  }

  private dropFromIndex(key: string): void {
    const indexed = this.index.get(key);
    if (indexed === undefined) return;
    this.bytes -= indexed.bytes;
    this.index.delete(key);
  }

  /** Counts a write until LMDB has committed it; a failed one turns the file off (turnOff), it is never thrown. */
  private track(write: Promise<unknown>): void {
    const settled = write
      .catch(async (error: unknown) => this.turnOff(await causeOf(error)))
      .finally(() => this.uncommitted.delete(settled));
    this.uncommitted.add(settled);
  }

  private readIndex(): void {
    const now = this.now();
    const found: Array<{ key: string; usedAt: number; bytes: number; uselessAt: number }> = [];
    for (const { key, value } of this.options.store.used.getRange()) {
      if (typeof key !== 'string') continue;
      const record = usedRecordOf(value);
      if (record === undefined || record[2] <= now) {
        // Unreadable, or unable to answer even stale: of no use to keep.
        this.track(this.options.store.entries.remove(key));
        this.track(this.options.store.used.remove(key));
        continue;
      }
      found.push({ key, usedAt: record[0], bytes: record[1], uselessAt: record[2] });
    }
    found.sort((a, b) => a.usedAt - b.usedAt);
    for (const { key, usedAt, bytes, uselessAt } of found) {
      this.index.set(key, { bytes, uselessAt, savedUseAt: usedAt });
      this.bytes += bytes;
    }
    // A smaller CACHE_DISK_MAX_MB than the file was written under.
    this.evict();
  }
}

function usedRecordOf(value: unknown): UsedRecord | undefined {
  if (!Array.isArray(value) || value.length !== 3) return undefined;
  const [usedAt, bytes, uselessAt] = value as unknown[];
  if (typeof usedAt !== 'number' || typeof bytes !== 'number' || typeof uselessAt !== 'number') return undefined;
  if (!Number.isFinite(usedAt) || !Number.isSafeInteger(bytes) || bytes <= 0 || Number.isNaN(uselessAt))
    return undefined;
  return [usedAt, bytes, uselessAt];
}
