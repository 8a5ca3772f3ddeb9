/**
 * The response cache's memory: bounded by bytes, least recently used out
 * first, but an ended match's answers last (issue 33). They are told by
 * their TTL (cache-ttls.ts `IMMUTABLE_TTL_MS`, what the freshness policy
 * stores an ended match's answer with), as the cache file tells them
 * (disk-entries.ts): they cost a request each to get back and never go
 * stale, while anything else is soon fetched again anyway.
 *
 * Why they may take only `lastingShare` of the bound: a memory full of
 * ended answers would evict every new live answer at once (it would be the
 * only one left to evict), and a live match would then pay a request per
 * read. Past their share, the least recently used ended answer goes first.
 */
import { LRUCache } from 'lru-cache';
import { IMMUTABLE_TTL_MS } from './cache-ttls.js';

/** What the memory holds: anything with a size and its TTL. */
export interface Sized {
  readonly size: number;
  readonly ttlMs: number;
}

export interface EndedLastLruOptions {
  /** Bytes held, both kinds together. */
  readonly maxBytes: number;
  /** The share of `maxBytes` ended answers may take. @default 0.75 */
  readonly lastingShare?: number;
}

/** An answer stored for at least half of `IMMUTABLE_TTL_MS`: an ended match's (as disk-entries.ts reads it). */
export const isLasting = (entry: Sized): boolean => entry.ttlMs >= IMMUTABLE_TTL_MS / 2;

export class EndedLastLru<V extends Sized> {
  readonly #maxBytes: number;
  readonly #passing: LRUCache<string, V>;
  readonly #lasting: LRUCache<string, V>;

  constructor({ maxBytes, lastingShare = 0.75 }: EndedLastLruOptions) {
    this.#maxBytes = maxBytes;
    const sizeCalculation = (entry: V): number => entry.size;
    // Each tier refuses an entry larger than the whole bound, as one LRU would.
    this.#passing = new LRUCache<string, V>({ maxSize: maxBytes, sizeCalculation });
    this.#lasting = new LRUCache<string, V>({
      maxSize: Math.max(1, Math.floor(maxBytes * lastingShare)),
      maxEntrySize: maxBytes,
      sizeCalculation,
    });
  }

  /** The entry, its recency refreshed. */
  get(key: string): V | undefined {
    return this.#passing.get(key) ?? this.#lasting.get(key);
  }

  /** The entry, its recency untouched. */
  peek(key: string): V | undefined {
    return this.#passing.peek(key) ?? this.#lasting.peek(key);
  }

  set(key: string, entry: V): void {
    const lasting = isLasting(entry);
    // A key moves between kinds when its answer does (refetched once its match ended).
    (lasting ? this.#passing : this.#lasting).delete(key);
    (lasting ? this.#lasting : this.#passing).set(key, entry);
    // Over the bound together: the passing answers go first, least recently used first.
    while (this.#passing.calculatedSize + this.#lasting.calculatedSize > this.#maxBytes) {
      if (this.#passing.pop() === undefined && this.#lasting.pop() === undefined) return;
    }
  }

  delete(key: string): void {
    this.#passing.delete(key);
    this.#lasting.delete(key);
  }

  clear(): void {
    this.#passing.clear();
    this.#lasting.clear();
  }

  keys(): string[] {
    return [...this.#passing.keys(), ...this.#lasting.keys()];
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#passing.calculatedSize + this.#lasting.calculatedSize;
  }
}
