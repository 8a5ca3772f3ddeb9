/**
 * Learned counterparts of a cluster: one Redis hash (`<prefix>counterparts`,
 * a field per finding, no expiry: a finding is small and re-learning it
 * costs requests), with this replica's copy in front. A link one replica
 * learned answers on every other without a request.
 *
 * Redis away or slow: a read is a miss (the entity is searched for, as on a
 * cold gateway) and a write stays in this replica's memory; neither fails
 * the field. A value this module did not write is a miss.
 *
 * The replica's copy holds the most recently used findings only (Redis
 * holds them all): a replica that runs for months must not keep every
 * entity anyone ever linked. A finding it lets go is read from Redis again
 * (no upstream request); only one learned while Redis was away, and let go
 * before Redis came back, is learned again.
 */
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { Finding } from '../../identity/entity-ref.js';
import { isFinding, type LinkStore } from '../../identity/link-store.js';
import type { RedisLink } from './redis-link.js';

/** Findings a replica keeps in front of Redis: a few hundred bytes each, so a few MiB at most. */
export const LOCAL_FINDINGS = 10_000;

export class RedisLinkStore implements LinkStore {
  readonly #local: LRUCache<string, Finding>;
  readonly #link: RedisLink;
  readonly #logger: Logger;

  constructor(link: RedisLink, logger: Logger, localFindings = LOCAL_FINDINGS) {
    this.#link = link;
    this.#logger = logger;
    this.#local = new LRUCache({ max: localFindings });
  }

  get #hash(): string {
    return this.#link.key('counterparts');
  }

  async get(key: string): Promise<Finding | undefined> {
    const local = this.#local.get(key);
    if (local !== undefined || !this.#link.up) return local;
    try {
      const text = await this.#link.command.hget(this.#hash, key);
      if (text === null) return undefined;
      const parsed: unknown = JSON.parse(text);
      if (!isFinding(parsed)) return undefined;
      this.#local.set(key, parsed);
      return parsed;
    } catch (error) {
      this.#logger.debug({ err: error }, 'a learned counterpart was not read from Redis');
      return undefined;
    }
  }

  async put(key: string, finding: Finding): Promise<void> {
    this.#local.set(key, finding);
    if (!this.#link.up) return;
    try {
      await this.#link.command.hset(this.#hash, key, JSON.stringify(finding));
    } catch (error) {
      this.#logger.warn({ err: error }, 'a learned counterpart was not written to Redis');
    }
  }
}
