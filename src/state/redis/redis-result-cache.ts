/**
 * The operation-result cache of a cluster (issue 14, "one cache"): this
 * replica's LRU (src/results/result-cache.ts) in front, the cluster's Redis
 * behind it, so a result stored by one replica is a hit on every other.
 *
 * A local hit is answered as alone, synchronously. A local miss asks Redis
 * once (a script that returns the value and what is left of its expiry, one
 * round trip, bounded by the link's command timeout); a Redis hit is kept
 * locally for what is left, then served. Redis away, slow past the timeout,
 * or holding something unreadable: a miss, and the operation executes.
 *
 * What a hit promises: a stored result holds only while every resource it
 * used is fresh. That bound is computed once, by the replica that executed
 * the operation, and becomes the Redis entry's `PX`; no replica extends it.
 * A copy taken from Redis is kept locally for the remaining time measured
 * from before the lookup was sent, so it always expires no later than the
 * Redis entry does. The one slack left is the SET's own delivery: the entry
 * starts counting when Redis receives it, a loopback hop after the bound was
 * computed — the same order as the upstream cache's own, which counts
 * freshness from when a response arrived, not from when the upstream made it.
 *
 * Entries are keyed by a hash of the result key, which holds the client
 * name: a client-keyed result stays that client's on every replica.
 * Redis's memory is bounded by its own `maxmemory` policy; an entry larger
 * than the local layer's whole bound is not written either.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import type { ResultCache, StoredAnswer, StoredResult } from '../../results/result-cache.js';
import type { LocalResultCache } from '../local/local-result-cache.js';
import { ExpiringLookup } from './expiring-lookup.js';
import type { RedisLink } from './redis-link.js';

export interface RedisResultCacheOptions {
  /** This replica's layer, in front. */
  readonly local: LocalResultCache;
  readonly link: RedisLink;
  readonly logger: Logger;
  /** Counts local misses answered from Redis. */
  readonly sharedHits?: Pick<Counter, 'inc'>;
}

/** The Redis key of a result key: a hash, since result keys hold whole query texts. */
export function sharedResultKey(link: Pick<RedisLink, 'key'>, key: string): string {
  return link.key(`result:${createHash('sha256').update(key).digest('base64url')}`);
}

/**
 * `routes JSON`, a newline, `answers JSON` (an array) and a newline, then
 * `data JSON` (an object): the stored `data` is written as it was serialized
 * once, never again. JSON.stringify escapes every newline inside strings, so
 * each newline is a separator. An entry written before the answers were kept
 * has no answers line (its next part is an object).
 */
export function encodeStoredResult(result: StoredResult): string {
  return `${JSON.stringify(result.routes)}\n${JSON.stringify(result.answers ?? [])}\n${result.json}`;
}

const isAnswer = (value: unknown): value is StoredAnswer =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>)['route'] === 'string' &&
  typeof (value as Record<string, unknown>)['storedAt'] === 'number';

/** The stored result, or undefined for anything this module did not write. */
export function decodeStoredResult(value: string): StoredResult | undefined {
  const separator = value.indexOf('\n');
  if (separator < 0) return undefined;
  try {
    const routes: unknown = JSON.parse(value.slice(0, separator));
    if (!Array.isArray(routes) || !routes.every((route) => typeof route === 'string')) return undefined;
    let rest = value.slice(separator + 1);
    let answers: unknown = [];
    if (rest.startsWith('[')) {
      const next = rest.indexOf('\n');
      if (next < 0) return undefined;
      answers = JSON.parse(rest.slice(0, next));
      rest = rest.slice(next + 1);
    }
    if (!Array.isArray(answers) || !answers.every(isAnswer)) return undefined;
    const data: unknown = JSON.parse(rest);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
    return { data: data as Record<string, unknown>, json: rest, routes: routes as string[], answers };
  } catch {
    return undefined;
  }
}

export class RedisResultCache implements ResultCache {
  readonly #local: LocalResultCache;
  readonly #link: RedisLink;
  readonly #logger: Logger;
  readonly #sharedHits: Pick<Counter, 'inc'> | undefined;
  /** One lookup per result key at a time: operations arriving together on a cold replica ask Redis once. */
  readonly #shared: ExpiringLookup<StoredResult>;

  constructor(options: RedisResultCacheOptions) {
    this.#local = options.local;
    this.#link = options.link;
    this.#logger = options.logger;
    this.#sharedHits = options.sharedHits;
    this.#shared = new ExpiringLookup<StoredResult>({
      link: options.link,
      logger: options.logger,
      scriptName: 'sgResultGet',
      what: 'a result lookup',
      decode: (_key, value) => decodeStoredResult(value),
      keep: (key, stored, remainingMs) => {
        this.#local.set(key, stored, remainingMs);
        this.#sharedHits?.inc();
      },
    });
  }

  getLocal(key: string): StoredResult | undefined {
    return this.#local.getLocal(key);
  }

  get(key: string): StoredResult | undefined | Promise<StoredResult | undefined> {
    const local = this.#local.getLocal(key);
    if (local !== undefined) return local;
    // Away is a miss at once: no command is sent to a link that is down.
    if (!this.#link.up) return undefined;
    return this.#shared.lookUp(key, sharedResultKey(this.#link, key));
  }

  set(key: string, result: StoredResult, ttlMs: number): void {
    this.#local.set(key, result, ttlMs);
    const px = Math.floor(ttlMs);
    if (px < 1 || !this.#link.up) return;
    const value = encodeStoredResult(result);
    if (key.length + value.length > this.#local.maxBytes) return;
    this.#link.command.set(sharedResultKey(this.#link, key), value, 'PX', px).catch((error: unknown) => {
      // Not stored for the others: they execute, as they would have alone.
      this.#logger.debug({ err: error }, 'a result was not written to Redis');
    });
  }
}
