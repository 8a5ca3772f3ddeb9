/**
 * Where automatic persisted queries keep the documents clients registered,
 * by the SHA-256 hash of their text (Apollo's protocol: a client first sends
 * the hash alone; on PERSISTED_QUERY_NOT_FOUND it sends hash and text, which
 * yoga's APQ plugin checks and stores).
 *
 * `ApqStore` is the seam (DESIGN.md, "State"): alone, an LRU bounded by
 * entries and TTL (src/state/local/local-apq-store.ts); in a cluster the
 * same LRU in front of Redis (src/state/redis/redis-apq-store.ts), so a
 * document registered on one replica is found on every other. Both bound what anyone can make the
 * gateway hold: a TTL, a number of entries per replica, and a largest
 * document (a larger one still runs when its text is sent, it is only not
 * kept, so its client keeps sending the text).
 */
import { createHash } from 'node:crypto';

export interface ApqStore {
  /** This replica's own layer, synchronously (the result-cache fast path reads it). */
  getLocal(hash: string): string | undefined;
  /** The document registered under `hash`, from any layer; never rejects. */
  get(hash: string): string | undefined | Promise<string | undefined>;
  /** Keeps a document whose hash was checked; a document over the size bound is ignored. Never rejects. */
  set(hash: string, document: string): void | Promise<void>;
}

export interface ApqBounds {
  /** How long a document is kept after it was last registered. */
  readonly ttlMs: number;
  /** Documents held by this replica. */
  readonly maxEntries: number;
  /** Bytes of the largest document kept (UTF-8). */
  readonly maxDocumentBytes: number;
}

/** What Apollo's protocol sends: SHA-256, lower-case hex. Anything else names no stored document. */
export const isSha256Hex = (hash: string): boolean => /^[0-9a-f]{64}$/.test(hash);

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
