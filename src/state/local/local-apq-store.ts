import { LRUCache } from 'lru-cache';
import type { ApqBounds, ApqStore } from '../../persisted/apq-store.js';

/** The APQ documents of a gateway alone, and the front layer of a cluster's. */
export class LocalApqStore implements ApqStore {
  readonly bounds: ApqBounds;
  readonly #entries: LRUCache<string, string>;

  constructor(bounds: ApqBounds) {
    this.bounds = bounds;
    this.#entries = new LRUCache<string, string>({ max: bounds.maxEntries, ttl: bounds.ttlMs });
  }

  /** True when a document of this size may be kept. */
  fits(document: string): boolean {
    return Buffer.byteLength(document, 'utf8') <= this.bounds.maxDocumentBytes;
  }

  getLocal(hash: string): string | undefined {
    return this.#entries.get(hash);
  }

  get(hash: string): string | undefined {
    return this.#entries.get(hash);
  }

  set(hash: string, document: string): void {
    if (this.fits(document)) this.#entries.set(hash, document);
  }

  /** Keeps a copy for at most `ttlMs` (a document read from a shared tier, for what is left of its life there). */
  keep(hash: string, document: string, ttlMs: number): void {
    if (ttlMs > 0 && this.fits(document))
      this.#entries.set(hash, document, { ttl: Math.min(ttlMs, this.bounds.ttlMs) });
  }
}
