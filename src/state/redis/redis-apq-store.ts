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
import { isSha256Hex, sha256Hex, type ApqStore } from '../../persisted/apq-store.js';
import type { LocalApqStore } from '../local/local-apq-store.js';
import { ExpiringLookup } from './expiring-lookup.js';
import type { RedisLink } from './redis-link.js';

export interface RedisApqStoreOptions {
  /** This replica's layer, in front. */
  readonly local: LocalApqStore;
  readonly link: RedisLink;
  readonly logger: Logger;
}

export class RedisApqStore implements ApqStore {
  readonly #local: LocalApqStore;
  readonly #link: RedisLink;
  readonly #logger: Logger;
  /** One lookup per hash at a time: a burst of hash-only requests on a cold replica asks Redis once. */
  readonly #shared: ExpiringLookup<string>;

  constructor(options: RedisApqStoreOptions) {
    this.#local = options.local;
    this.#link = options.link;
    this.#logger = options.logger;
    this.#shared = new ExpiringLookup<string>({
      link: options.link,
      logger: options.logger,
      scriptName: 'sgApqGet',
      what: 'a persisted-query lookup',
      // An entry this module did not write, or one damaged, does not match its hash.
      decode: (hash, document) => (sha256Hex(document) === hash ? document : undefined),
      keep: (hash, document, remainingMs) => this.#local.keep(hash, document, remainingMs),
    });
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
    return this.#shared.lookUp(hash, this.#key(hash));
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
}
