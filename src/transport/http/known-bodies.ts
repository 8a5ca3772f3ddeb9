/**
 * What a request body sent before, byte for byte, by the same client,
 * turned into: its result-cache key (issue 34, the warm path).
 *
 * Why: a client of a live widget repeats the same few bodies, and for each
 * one the fast path (result-cache-hits.ts) parsed the JSON, walked the
 * input bounds and stringified the result key again: about a sixth of a
 * hit's CPU, spent to arrive at the same string. Here the same bytes from
 * the same client find that string (and the hash V8 keeps on it) at once.
 *
 * What is remembered is only what follows from the bytes and the
 * gateway's fixed configuration: bodies that name a persisted operation
 * are never kept, since the document a hash names depends on what the
 * APQ store holds now. Bounded by bytes (keys and values counted), and
 * bodies larger than `maxBodyBytes` are not kept at all: a client sending
 * a new large body each time cannot fill memory, it only misses.
 */
import { LRUCache } from 'lru-cache';

export interface KnownOperation {
  /** The result-cache key (src/results/result-cache.ts `resultKey`). */
  readonly key: string;
  readonly operationName: string | undefined;
}

export interface KnownBodiesOptions {
  /** @default 4 MiB */
  readonly maxBytes?: number;
  /** @default 8 KiB */
  readonly maxBodyBytes?: number;
}

export class KnownBodies {
  readonly #known: LRUCache<string, KnownOperation>;
  readonly #maxBodyBytes: number;

  constructor({ maxBytes = 4 * 1024 * 1024, maxBodyBytes = 8 * 1024 }: KnownBodiesOptions = {}) {
    this.#maxBodyBytes = maxBodyBytes;
    this.#known = new LRUCache<string, KnownOperation>({
      maxSize: maxBytes,
      // Strings of one-byte characters (latin1 identities, JSON keys of ASCII-escaped text) count a byte each; a key
      // with wider characters is undercounted by at most half, which the bound's margin absorbs.
      sizeCalculation: (operation, identity) => identity.length + operation.key.length + 64,
    });
  }

  /**
   * The identity `body` from `clientName` is remembered under, or undefined
   * when it is too large to remember. Latin-1 maps each byte to one
   * character: equal identities are equal bytes, with no UTF-8 decoding.
   */
  identityOf(clientName: string | undefined, body: Buffer): string | undefined {
    if (body.length > this.#maxBodyBytes) return undefined;
    const bytes = body.toString('latin1');
    // Length-prefixed: no client name and body can be read as another pair.
    return clientName === undefined ? `-${bytes}` : `${clientName.length}:${clientName}${bytes}`;
  }

  get(identity: string): KnownOperation | undefined {
    return this.#known.get(identity);
  }

  remember(identity: string, operation: KnownOperation): void {
    this.#known.set(identity, operation);
  }
}
