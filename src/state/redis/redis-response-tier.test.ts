/**
 * The response cache's Redis tier and the cluster-wide single flight over it
 * (src/upstream/cluster-flight.ts), with a real redis-server: two
 * ResponseCaches, each on its own RedisLink, stand for two replicas. The
 * loads are counted callbacks, as in src/upstream/cache.test.ts; a shared
 * fake clock decides freshness, so nothing here waits for a TTL.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../../../test/support/redis-server.js';
import { ResponseCache } from '../../upstream/cache.js';
import { GatewayError } from '../../upstream/errors.js';
import { RedisBus } from './redis-coordination.js';
import { RedisLink } from './redis-link.js';
import { RedisResponseTier } from './redis-response-tier.js';

const logger = pino({ level: 'silent' });
const PREFIX = 'tier-test:';
const TTL_MS = 1_000;
const LOCK_MS = 400;

interface Replica {
  link: RedisLink;
  cache: ResponseCache;
}

/** A load that settles when told to, counting its calls. */
function gate<T>(): {
  load: () => Promise<{ value: T; size: number }>;
  calls: () => number;
  open: (value: T) => void;
  fail: (error: Error) => void;
} {
  let calls = 0;
  const waiting: Array<{ resolve: (v: { value: T; size: number }) => void; reject: (e: Error) => void }> = [];
  let settled: { value: T } | { error: Error } | undefined;
  return {
    load: () => {
      calls += 1;
      if (settled !== undefined)
        return 'error' in settled ? Promise.reject(settled.error) : Promise.resolve({ value: settled.value, size: 10 });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    calls: () => calls,
    open: (value) => {
      settled = { value };
      for (const one of waiting.splice(0)) one.resolve({ value, size: 10 });
    },
    fail: (error) => {
      settled = { error };
      for (const one of waiting.splice(0)) one.reject(error);
    },
  };
}

/** Resolves once `condition` holds, checking every 10 ms; fails after `boundMs`. */
async function until(what: string, condition: () => boolean | Promise<boolean>, boundMs = 10_000): Promise<void> {
  const giveUpAt = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(`not within ${boundMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const unavailable = (): GatewayError => new GatewayError('UPSTREAM_UNAVAILABLE', 'down', { status: 502 });

describe('the response cache over a Redis tier', () => {
  let redis: RedisServer;
  let admin: Redis;
  let clock = 1_000_000;
  const replicas: Replica[] = [];
  let keyNumber = 0;
  let key = '';

  async function replica(id: string, staleIfSlowMs?: number): Promise<Replica> {
    const link = await RedisLink.open({
      url: redis.url,
      keyPrefix: PREFIX,
      replicaId: id,
      logger,
      commandTimeoutMs: 500,
    });
    const tier = new RedisResponseTier({
      link,
      bus: new RedisBus(link),
      maxStaleMs: 60_000,
      lockMs: LOCK_MS,
      renewMs: 100,
    });
    const cache = new ResponseCache({
      maxBytes: 1_000_000,
      maxStaleMs: 60_000,
      now: () => clock,
      ...(staleIfSlowMs === undefined ? {} : { staleIfSlowMs }),
      shared: { tier, maxWaitMs: 10_000, pollMs: 50 },
    });
    const made = { link, cache };
    replicas.push(made);
    return made;
  }

  /** True while some replica holds the load of the current key. */
  const lockHeld = async (): Promise<boolean> => (await admin.exists(`${PREFIX}cache:lock:${key}`)) === 1;

  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    for (const { link } of replicas) await link.close();
    admin?.disconnect();
    await redis?.stop();
  });
  beforeEach(() => {
    keyNumber += 1;
    key = `GET /thing/${keyNumber}`;
  });

  it('a value loaded by one replica is a cache hit on the other, and kept in its own layer after', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const load = gate<string>();
    load.open('one');
    expect(await a.cache.get(key, TTL_MS, load.load)).toMatchObject({ value: 'one', source: 'upstream' });
    await until('the entry is in Redis', async () => (await admin.exists(`${PREFIX}cache:entry:${key}`)) === 1);
    expect(b.cache.isFresh(key)).toBe(false);
    expect(await b.cache.get(key, TTL_MS, load.load)).toEqual({ value: 'one', source: 'cache' });
    expect(b.cache.isFresh(key)).toBe(true);
    expect(load.calls()).toBe(1);
  });

  it('asked on both at once: one load; the waiter answers when the holder stores', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const load = gate<string>();
    const first = a.cache.get(key, TTL_MS, load.load);
    await until('replica a holds the lock', lockHeld);
    const second = b.cache.get(key, TTL_MS, load.load);
    load.open('shared');
    expect(await first).toMatchObject({ value: 'shared', source: 'upstream' });
    expect(await second).toMatchObject({ value: 'shared', source: 'cache' });
    expect(load.calls()).toBe(1);
  });

  it('a failed load is one request for the cluster: the waiter answers the same coded error', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const load = gate<string>();
    const first = a.cache.get(key, TTL_MS, load.load);
    await until('replica a holds the lock', lockHeld);
    const second = b.cache.get(key, TTL_MS, load.load);
    load.fail(unavailable());
    await expect(first).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    await expect(second).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { status: 502 } });
    expect(load.calls()).toBe(1);
  });

  it("a late failure notice of an earlier load is not taken for the current holder's", async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const load = gate<string>();
    const first = a.cache.get(key, TTL_MS, load.load);
    await until('replica a holds the lock', lockHeld);
    const second = b.cache.get(key, TTL_MS, load.load);
    // What a replica whose earlier load of the key failed would send, arriving now.
    const late = JSON.stringify({
      k: key,
      o: 'failed',
      t: 'an-earlier-lock',
      e: { code: 'UPSTREAM_UNAVAILABLE', message: 'down', details: {} },
    });
    await until('replica b listens', async () => (await admin.publish(`${PREFIX}bus:cache:landed`, late)) >= 2);
    load.open('current');
    expect(await first).toMatchObject({ value: 'current', source: 'upstream' });
    expect(await second).toMatchObject({ value: 'current', source: 'cache' });
    expect(load.calls()).toBe(1);
  });

  it('a 404 stored by one replica is a negative entry for the other', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const load = gate<string>();
    load.fail(new GatewayError('NOT_FOUND', 'gone', { version: 'v1', route: '/thing/{id}' }));
    await expect(a.cache.get(key, TTL_MS, load.load)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await until('the entry is in Redis', async () => (await admin.exists(`${PREFIX}cache:entry:${key}`)) === 1);
    await expect(b.cache.get(key, TTL_MS, load.load)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      details: { route: '/thing/{id}' },
    });
    expect(load.calls()).toBe(1);
  });

  it("another replica's stale copy answers a failed refresh here, and a slow one (stale beats slow)", async () => {
    const a = await replica('a');
    const b = await replica('b', 100);
    const c = await replica('c');
    const first = gate<string>();
    first.open('old');
    await a.cache.get(key, TTL_MS, first.load);
    await until('the entry is in Redis', async () => (await admin.exists(`${PREFIX}cache:entry:${key}`)) === 1);
    clock += TTL_MS + 5_000;

    // c never held it: the refresh fails, the stale copy from Redis answers.
    const failing = gate<string>();
    failing.fail(unavailable());
    expect(await c.cache.get(key, TTL_MS, failing.load)).toMatchObject({
      value: 'old',
      source: 'stale',
      stale: { reason: 'UPSTREAM_UNAVAILABLE', ageSeconds: 6 },
    });

    // a refreshes slowly; b, which never held it either, waits for a at most 100 ms, then answers stale.
    const slow = gate<string>();
    const refreshing = a.cache.get(key, TTL_MS, slow.load);
    await until('replica a holds the lock', lockHeld);
    expect(await b.cache.get(key, TTL_MS, slow.load)).toMatchObject({
      value: 'old',
      source: 'stale',
      stale: { reason: 'UPSTREAM_SLOW' },
    });
    slow.open('new');
    expect(await refreshing).toMatchObject({ value: 'new', source: 'upstream' });
    expect(failing.calls() + slow.calls()).toBe(2);
  });

  it('a holder that dies without storing is taken over once its lock expires: one more load, not one per waiter', async () => {
    const [b, c] = [await replica('b'), await replica('c')];
    // What a crashed replica leaves: its lock, no entry, no notice, no renewal.
    await admin.set(`${PREFIX}cache:lock:${key}`, 'dead-replica', 'PX', LOCK_MS);
    const load = gate<string>();
    load.open('taken over');
    const answers = await Promise.all([b.cache.get(key, TTL_MS, load.load), c.cache.get(key, TTL_MS, load.load)]);
    expect(answers.map((answer) => answer.value)).toEqual(['taken over', 'taken over']);
    expect(answers.map((answer) => answer.source).sort()).toEqual(['cache', 'upstream']);
    expect(load.calls()).toBe(1);
  });

  it('a holder that outlives its lock time keeps it by renewal: nobody else loads', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const load = gate<string>();
    const first = a.cache.get(key, TTL_MS, load.load);
    await until('replica a holds the lock', lockHeld);
    const second = b.cache.get(key, TTL_MS, load.load);
    // Several lock times pass while the load runs; the lock must still be a's.
    const heldSince = Date.now();
    await until('three lock times passed', () => Date.now() > heldSince + 3 * LOCK_MS);
    expect(await lockHeld()).toBe(true);
    load.open('late');
    expect((await Promise.all([first, second])).map((answer) => answer.value)).toEqual(['late', 'late']);
    expect(load.calls()).toBe(1);
  });

  it('Redis away: the cache answers as a single gateway would, without an error', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const cached = gate<string>();
    cached.open('kept');
    await a.cache.get(key, TTL_MS, cached.load);
    await redis.kill();
    try {
      await until('both links are down', () => !a.link.up && !b.link.up);
      expect(await a.cache.get(key, TTL_MS, cached.load)).toMatchObject({ value: 'kept', source: 'cache' });
      const alone = gate<string>();
      alone.open('alone');
      expect(await b.cache.get(`${key}/other`, TTL_MS, alone.load)).toMatchObject({
        value: 'alone',
        source: 'upstream',
      });
      expect(await b.cache.get(key, TTL_MS, alone.load)).toMatchObject({ value: 'alone', source: 'upstream' });
      expect(alone.calls()).toBe(2);
    } finally {
      await redis.restart();
      await until('the links are back', () => a.link.up && b.link.up);
    }
  });
});
