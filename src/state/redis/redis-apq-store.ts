/**
 * The automatic-persisted-query store of a cluster: this replica's LRU
 * (src/persisted/apq-store.ts) in front, the cluster's Redis behind it, so
 * a client that registered a document on one replica may send only its hash
 * to any other (a load balancer spreads a client's requests over replicas).
 *
 * A registration is written to Redis before the operation answers (one SET
 * with `PX` = the TTL, bounded by the link's command timeout), so the
 * client's next request finds it wherever it lands. A local miss asks Redis
 * once (value and remaining expiry in one script) and keeps the copy
 * locally for what is left of it. What Redis returns is checked against its
 * hash: an entry this module did not write, or one damaged, is a miss.
 * Redis away or slow: a miss, and the client sends the text again (Apollo's
 * protocol recovers by itself), never an error.
 *
 * Bounds: documents over the size bound are not stored anywhere; every Redis
 * entry expires after the TTL, so Redis holds at most what clients
 * registered within one TTL (give Redis a `maxmemory`, as for the result
 * cache: every key has an expiry).
 */
import type { Logger } from 'pino';
import { isSha256Hex, sha256Hex, type ApqStore, type LocalApqStore } from '../../persisted/apq-store.js';
import { luaScript, type LuaScript } from './lua-script.js';
import type { RedisLink } from './redis-link.js';

export interface RedisApqStoreOptions {
  /** This replica's layer, in front. */
  readonly local: LocalApqStore;
  readonly link: RedisLink;
  readonly logger: Logger;
}

const GET_WITH_TTL = `
local value = redis.call('GET', KEYS[1])
if not value then return nil end
local left = redis.call('PTTL', KEYS[1])
if left <= 0 then return nil end
return {value, left}
`;

export class RedisApqStore implements ApqStore {
  readonly #local: LocalApqStore;
  readonly #link: RedisLink;
  readonly #logger: Logger;
  readonly #getWithTtl: LuaScript;
  /** Lookups under way, by hash: a burst of hash-only requests on a cold replica asks Redis once. */
  readonly #pending = new Map<string, Promise<string | undefined>>();

  constructor(options: RedisApqStoreOptions) {
    this.#local = options.local;
    this.#link = options.link;
    this.#logger = options.logger;
    this.#getWithTtl = luaScript(options.link.command, 'sgApqGet', 1, GET_WITH_TTL);
  }

  #key(hash: string): string {
    return this.#link.key(`apq:${hash}`);
  }

  getLocal(hash: string): string | undefined {
    return this.#local.getLocal(hash);
  }

  get(hash: string): string | undefined | Promise<string | undefined> {
    const local = this.#local.getLocal(hash);
    if (local !== undefined) return local;
    if (!isSha256Hex(hash) || !this.#link.up) return undefined;
    let pending = this.#pending.get(hash);
    if (pending === undefined) {
      pending = this.#lookUp(hash).finally(() => this.#pending.delete(hash));
      this.#pending.set(hash, pending);
    }
    return pending;
  }

  async set(hash: string, document: string): Promise<void> {
    this.#local.set(hash, document);
    if (!this.#local.fits(document) || !this.#link.up) return;
    try {
      await this.#link.command.set(this.#key(hash), document, 'PX', this.#local.bounds.ttlMs);
    } catch (error) {
      // Only this replica has it: a client sent elsewhere registers again.
      this.#logger.debug({ err: error }, 'a persisted query was not written to Redis');
    }
  }

  async #lookUp(hash: string): Promise<string | undefined> {
    const sentAt = performance.now();
    let reply: unknown;
    try {
      reply = await this.#getWithTtl([this.#key(hash)], []);
    } catch (error) {
      this.#logger.debug({ err: error }, 'Redis did not answer a persisted-query lookup: not found');
      return undefined;
    }
    if (!Array.isArray(reply) || reply.length !== 2) return undefined;
    const [document, left] = reply as [unknown, unknown];
    if (typeof document !== 'string' || typeof left !== 'number') return undefined;
    if (sha256Hex(document) !== hash) {
      this.#logger.warn('a persisted query in Redis does not match its hash: not found');
      return undefined;
    }
    // Measured from before the lookup was sent, so the copy never outlives the entry.
    this.#local.keep(hash, document, left - (performance.now() - sentAt));
    return document;
  }
}
