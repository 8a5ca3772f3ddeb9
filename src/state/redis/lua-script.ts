/**
 * A Lua script run atomically by Redis (ioredis sends it by SHA and falls
 * back to the source once per connection). Scripts are how the cluster
 * makes read-check-write steps (a reservation, a lease renewal) atomic
 * across replicas without locks of its own.
 *
 * Scripts read Redis's own clock (`TIME`): replicas' clocks may disagree,
 * the one Redis has one.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export type LuaScript = (keys: readonly string[], args: ReadonlyArray<string | number>) => Promise<unknown>;

/** Milliseconds since the epoch on Redis's clock, for the start of a script. */
export const REDIS_NOW_MS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** Scripts' names by the SHA1 ioredis sends them by, for the round-trip count's label (round-trips.ts). */
const names = new Map<string, string>();

export function scriptNameOf(sha: string): string | undefined {
  return names.get(sha);
}

/**
 * Defines `name` on `client`. The name goes first in the script's text as a
 * comment, so that two names for the same Lua (the result cache's and the
 * persisted queries' lookups) are two SHA1s, and each round trip is told by
 * its own name.
 */
export function defineScript(client: Redis, name: string, numberOfKeys: number, lua: string): void {
  const named = `-- ${name}\n${lua}`;
  client.defineCommand(name, { numberOfKeys, lua: named });
  names.set(createHash('sha1').update(named).digest('hex'), name);
}

export function luaScript(client: Redis, name: string, numberOfKeys: number, lua: string): LuaScript {
  defineScript(client, name, numberOfKeys, lua);
  const command = (client as unknown as Record<string, (...args: Array<string | number>) => Promise<unknown>>)[name];
  if (command === undefined) throw new Error(`ioredis did not define ${name}`);
  return (keys, args) => command.call(client, ...keys, ...args);
}
