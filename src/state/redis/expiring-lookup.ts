/**
 * A replica's read of an entry another replica wrote with an expiry (a
 * stored result, a persisted query): the value and what is left of its
 * expiry in one round trip, one lookup per key however many callers miss
 * locally at once, and the remaining time measured from before the lookup
 * was sent, so that the local copy `keep` takes never outlives the entry.
 *
 * Redis away, slow past the link's command timeout, or holding something
 * `decode` refuses: undefined, a miss. The caller decides what a miss means.
 */
import type { Logger } from 'pino';
import { luaScript, type LuaScript } from './lua-script.js';
import type { RedisLink } from './redis-link.js';

/** The value and its remaining milliseconds; nothing when the key is absent or has no expiry. */
const GET_WITH_TTL = `
local value = redis.call('GET', KEYS[1])
if not value then return nil end
local left = redis.call('PTTL', KEYS[1])
if left <= 0 then return nil end
return {value, left}
`;

export interface ExpiringLookupOptions<T> {
  readonly link: RedisLink;
  readonly logger: Logger;
  /** Names the Lua command on the connection (one per kind of entry). */
  readonly scriptName: string;
  /** What is logged (debug) when Redis does not answer. */
  readonly what: string;
  /** The value, or undefined for anything this kind of entry never holds (logged as a warning). */
  readonly decode: (key: string, text: string) => T | undefined;
  /** Once per lookup that found a value: `remainingMs` (> 0) is counted from before the lookup was sent. */
  readonly keep: (key: string, value: T, remainingMs: number) => void;
}

export class ExpiringLookup<T> {
  readonly #options: ExpiringLookupOptions<T>;
  readonly #getWithTtl: LuaScript;
  readonly #pending = new Map<string, Promise<T | undefined>>();

  constructor(options: ExpiringLookupOptions<T>) {
    this.#options = options;
    this.#getWithTtl = luaScript(options.link.command, options.scriptName, 1, GET_WITH_TTL);
  }

  /** `key` is the caller's own; `redisKey` the full Redis key it is stored under. */
  lookUp(key: string, redisKey: string): Promise<T | undefined> {
    let pending = this.#pending.get(key);
    if (pending === undefined) {
      pending = this.#read(key, redisKey).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    return pending;
  }

  async #read(key: string, redisKey: string): Promise<T | undefined> {
    const sentAt = performance.now();
    let reply: unknown;
    try {
      reply = await this.#getWithTtl([redisKey], []);
    } catch (error) {
      this.#options.logger.debug({ err: error }, `Redis did not answer ${this.#options.what}: a miss`);
      return undefined;
    }
    if (!Array.isArray(reply) || reply.length !== 2) return undefined;
    const [text, left] = reply as [unknown, unknown];
    if (typeof text !== 'string' || typeof left !== 'number') return undefined;
    const value = this.#options.decode(key, text);
    if (value === undefined) {
      this.#options.logger.warn(`${this.#options.what}: Redis holds something unreadable, a miss`);
      return undefined;
    }
    const remainingMs = left - (performance.now() - sentAt);
    if (remainingMs <= 0) return undefined;
    this.#options.keep(key, value, remainingMs);
    return value;
  }
}
