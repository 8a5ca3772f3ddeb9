/**
 * Bus, leases and board on Redis (src/state/contracts.ts has the contracts):
 * pub/sub for the bus, keys with expiry for leases and board values.
 *
 * While Redis is away a publish is dropped, a lease cannot be taken or
 * renewed (the live services then act as a single node would, see
 * src/live), and the board reads nothing: each is a state the caller
 * already handles, never an exception.
 */
import type { Board, Bus, Leases } from '../contracts.js';
import { luaScript, type LuaScript } from './lua-script.js';
import type { RedisLink } from './redis-link.js';

export class RedisBus implements Bus {
  readonly #link: RedisLink;
  readonly #listeners = new Map<string, Set<(message: string) => void>>();

  constructor(link: RedisLink) {
    this.#link = link;
    link.subscriber.on('message', (channel: string, message: string) => {
      const listeners = this.#listeners.get(channel);
      if (listeners === undefined) return;
      for (const listener of [...listeners]) listener(message);
    });
  }

  publish(channel: string, message: string): void {
    if (!this.#link.up) return;
    this.#link.command.publish(this.channelKey(channel), message).catch(() => undefined);
  }

  subscribe(channel: string, listener: (message: string) => void): () => void {
    const name = this.channelKey(channel);
    let listeners = this.#listeners.get(name);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(name, listeners);
      void this.#link.listen(name);
    }
    listeners.add(listener);
    const own = listeners;
    return () => {
      own.delete(listener);
      if (own.size > 0 || this.#listeners.get(name) !== own) return;
      this.#listeners.delete(name);
      this.#link.unlisten(name);
    };
  }

  /** The Redis channel `channel` is published on: for a script that publishes in the same round trip as its write. */
  channelKey(channel: string): string {
    return this.#link.key(`bus:${channel}`);
  }
}

const ACQUIRE = `
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
elseif holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

export class RedisLeases implements Leases {
  readonly #link: RedisLink;
  readonly #acquire: LuaScript;
  readonly #renew: LuaScript;
  readonly #release: LuaScript;

  constructor(link: RedisLink) {
    this.#link = link;
    this.#acquire = luaScript(link.command, 'sgLeaseAcquire', 1, ACQUIRE);
    this.#renew = luaScript(link.command, 'sgLeaseRenew', 1, RENEW);
    this.#release = luaScript(link.command, 'sgLeaseRelease', 1, RELEASE);
  }

  acquire(name: string, ttlMs: number): Promise<boolean> {
    return this.#run(this.#acquire, name, ttlMs);
  }

  renew(name: string, ttlMs: number): Promise<boolean> {
    return this.#run(this.#renew, name, ttlMs);
  }

  async release(name: string): Promise<void> {
    await this.#run(this.#release, name, 0);
  }

  async holder(name: string): Promise<string | undefined> {
    if (!this.#link.up) return undefined;
    const value = await this.#link.command.get(this.#key(name)).catch(() => null);
    return value ?? undefined;
  }

  /** Every lease held now, by name (for `/healthz`); empty while Redis is away. */
  async all(): Promise<Record<string, string>> {
    if (!this.#link.up) return {};
    const prefix = this.#key('');
    const found: Record<string, string> = {};
    try {
      let cursor = '0';
      do {
        const [next, keys] = await this.#link.command.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', 200);
        cursor = next;
        if (keys.length === 0) continue;
        const holders = await this.#link.command.mget(...keys);
        keys.forEach((key, index) => {
          const holder = holders[index];
          if (holder != null) found[key.slice(prefix.length)] = holder;
        });
      } while (cursor !== '0');
    } catch {
      // Redis went away mid-scan: what was found is what can be said.
    }
    return found;
  }

  async #run(script: LuaScript, name: string, ttlMs: number): Promise<boolean> {
    if (!this.#link.up) return false;
    try {
      return (await script([this.#key(name)], [this.#link.replicaId, Math.max(1, Math.round(ttlMs))])) === 1;
    } catch {
      return false;
    }
  }

  #key(name: string): string {
    return this.#link.key(`lease:${name}`);
  }
}

export class RedisBoard implements Board {
  readonly #link: RedisLink;

  constructor(link: RedisLink) {
    this.#link = link;
  }

  async get(key: string): Promise<string | undefined> {
    if (!this.#link.up) return undefined;
    const value = await this.#link.command.get(this.#link.key(`board:${key}`)).catch(() => null);
    return value ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    if (!this.#link.up) return;
    await this.#link.command
      .set(this.#link.key(`board:${key}`), value, 'PX', Math.max(1, Math.round(ttlMs)))
      .catch(() => undefined);
  }
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
