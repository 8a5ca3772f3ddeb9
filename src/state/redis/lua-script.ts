/**
 * A Lua script run atomically by Redis (ioredis sends it by SHA and falls
 * back to the source once per connection). Scripts are how the cluster
 * makes read-check-write steps (a reservation, a lease renewal) atomic
 * across replicas without locks of its own.
 *
 * Scripts read Redis's own clock (`TIME`): replicas' clocks may disagree,
 * the one Redis has one.
 */
import type { Redis } from 'ioredis';

export type LuaScript = (keys: readonly string[], args: ReadonlyArray<string | number>) => Promise<unknown>;

/** Milliseconds since the epoch on Redis's clock, for the start of a script. */
export const REDIS_NOW_MS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

export function luaScript(client: Redis, name: string, numberOfKeys: number, lua: string): LuaScript {
  client.defineCommand(name, { numberOfKeys, lua });
  const command = (client as unknown as Record<string, (...args: Array<string | number>) => Promise<unknown>>)[name];
  if (command === undefined) throw new Error(`ioredis did not define ${name}`);
  return (keys, args) => command.call(client, ...keys, ...args);
}
