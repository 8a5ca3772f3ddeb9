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
 * Found without hashing the whole body: a JS string of the body as a map
 * key cost as much as the parse it saved (V8 hashes and compares every
 * character). Bodies are grouped by a number made of their length, their
 * last bytes (where a body's variables usually are) and a sample of the
 * rest, and a candidate counts only when its bytes are equal (one memcmp).
 *
 * What is remembered is only what follows from the bytes and the gateway's
 * fixed configuration (the caller decides: bodies that name a persisted
 * operation are never kept, since the document a hash names depends on
 * what the APQ store holds now). Bounded by bytes, and bodies larger than
 * `maxBodyBytes` are not kept at all: a client sending a new large body
 * each time cannot fill memory, it only misses.
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

interface KnownBody {
  readonly clientName: string | undefined;
  readonly bytes: Buffer;
  readonly operation: KnownOperation;
}

/** Bodies kept per group: past it, the group's oldest is forgotten (it is parsed again when sent). */
const PER_GROUP = 8;
const TAIL_BYTES = 32;
const SAMPLES = 16;

/** A 32-bit number of `body`'s length, last bytes and a sample of the rest: equal bodies always share it. */
export function groupOf(body: Buffer): number {
  const length = body.length;
  let hash = length | 0;
  const tailFrom = Math.max(0, length - TAIL_BYTES);
  for (let i = tailFrom; i < length; i += 1) hash = Math.imul(hash ^ (body[i] as number), 0x01000193);
  const step = Math.max(1, Math.floor(tailFrom / SAMPLES));
  for (let i = 0; i < tailFrom; i += step) hash = Math.imul(hash ^ (body[i] as number), 0x01000193);
  return hash;
}

export class KnownBodies {
  readonly #groups: LRUCache<number, readonly KnownBody[]>;
  readonly #maxBodyBytes: number;

  constructor({ maxBytes = 4 * 1024 * 1024, maxBodyBytes = 8 * 1024 }: KnownBodiesOptions = {}) {
    this.#maxBodyBytes = maxBodyBytes;
    this.#groups = new LRUCache<number, readonly KnownBody[]>({
      maxSize: maxBytes,
      // The body's bytes and the key's characters (a byte each for ASCII, as JSON keys mostly are), and a margin for the rest.
      sizeCalculation: (bodies) =>
        bodies.reduce((size, known) => size + known.bytes.length + known.operation.key.length + 128, 0),
    });
  }

  /** What `body` from `clientName` turned into when it was remembered, if it was. */
  get(clientName: string | undefined, body: Buffer): KnownOperation | undefined {
    if (body.length > this.#maxBodyBytes) return undefined;
    const group = this.#groups.get(groupOf(body));
    if (group === undefined) return undefined;
    for (const known of group) {
      if (known.clientName === clientName && known.bytes.equals(body)) return known.operation;
    }
    return undefined;
  }

  remember(clientName: string | undefined, body: Buffer, operation: KnownOperation): void {
    if (body.length > this.#maxBodyBytes) return;
    const id = groupOf(body);
    const group = this.#groups.get(id) ?? [];
    // Copied: the request's buffer may be a view of a larger one the socket read into.
    const known: KnownBody = { clientName, bytes: Buffer.from(body), operation };
    this.#groups.set(id, [known, ...group.slice(0, PER_GROUP - 1)]);
  }
}
