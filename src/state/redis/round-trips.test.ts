/**
 * The round-trip count on a real redis-server (issue 16, item 5): a command
 * is one round trip, a pipeline or MULTI one however many commands it
 * carries, a Lua script one under its own name even where two names share
 * the same Lua.
 */
import { Redis } from 'ioredis';
import { Counter, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../../../test/support/redis-server.js';
import { luaScript } from './lua-script.js';
import { countRoundTrips } from './round-trips.js';

describe('Redis round trips', () => {
  let redis: RedisServer;
  let client: Redis;
  let counter: Counter<'sender'>;

  const counts = async (): Promise<Record<string, number>> =>
    Object.fromEntries((await counter.get()).values.map((value) => [String(value.labels.sender), value.value]));

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url, { lazyConnect: true });
    await client.connect();
    counter = new Counter({
      name: 'round_trips_total',
      help: 'test',
      labelNames: ['sender'] as const,
      registers: [new Registry()],
    });
    countRoundTrips(client, counter);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('counts a command as one, a pipeline and a MULTI as one each, and names scripts', async () => {
    counter.reset();
    await client.set('k', '1');
    await client.get('k');
    await client.pipeline().get('k').set('k', '2').incr('k').exec();
    await client.multi().get('k').incr('k').exec();
    const same = 'return redis.call("GET", KEYS[1])';
    const first = luaScript(client, 'sgTestFirst', 1, same);
    const second = luaScript(client, 'sgTestSecond', 1, same);
    expect(await first(['k'], [])).toBe('4');
    expect(await second(['k'], [])).toBe('4');
    await second(['k'], []);
    expect(await counts()).toEqual({
      set: 1,
      get: 1,
      'pipeline:get': 1,
      'pipeline:multi': 1,
      sgTestFirst: 1,
      sgTestSecond: 2,
    });
  });
});
