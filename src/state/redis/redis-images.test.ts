/**
 * The cluster's shared images on a real redis-server: what one replica puts
 * another reads, bytes intact; the byte bound holds at every put, dropping
 * the least recently used; an image over the per-image bound is not shared;
 * Redis away is a miss, never an error.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../../../test/support/redis-server.js';
import { RedisImages } from './redis-images.js';
import { RedisLink } from './redis-link.js';

const logger = pino({ level: 'silent' });

describe('shared images on Redis', () => {
  let redis: RedisServer;
  let admin: Redis;
  const links: RedisLink[] = [];
  let prefixes = 0;

  /** Two replicas' views of one fresh key space. */
  async function pair(
    options: { maxBytes?: number; maxImageBytes?: number } = {},
  ): Promise<{ a: RedisImages; b: RedisImages; prefix: string; links: RedisLink[] }> {
    prefixes += 1;
    const prefix = `images-test-${prefixes}:`;
    const made = await Promise.all(
      ['a', 'b'].map((replicaId) => RedisLink.open({ url: redis.url, keyPrefix: prefix, replicaId, logger })),
    );
    links.push(...made);
    // A clock that moves on every reading: recency is never a tie.
    let clock = Date.now();
    const [a, b] = made.map((link) => new RedisImages({ link, now: () => (clock += 1), ...options }));
    return { a: a!, b: b!, prefix, links: made };
  }

  const bytesOf = (n: number, fill: number): Buffer => Buffer.alloc(n, fill);

  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    for (const link of links) await link.close();
    admin?.disconnect();
    await redis?.stop();
  });

  it('an image, a placeholder and a miss put by one replica are read by the other', async () => {
    const { a, b } = await pair();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    await a.put('v2/football/teams/1', { kind: 'image', contentType: 'image/png', bytes: png, expiresAt: undefined });
    await a.put('v1/competitors/2@-', {
      kind: 'placeholder',
      bytes: bytesOf(1_466, 7),
      expiresAt: Date.now() + 60_000,
    });
    await a.put('v2/football/teams/3', { kind: 'missing', expiresAt: Date.now() + 60_000 });
    const image = await b.get('v2/football/teams/1');
    expect(image).toMatchObject({ kind: 'image', contentType: 'image/png', expiresAt: undefined });
    expect(image?.kind === 'image' && image.bytes.equals(png)).toBe(true);
    expect(await b.get('v1/competitors/2@-')).toMatchObject({ kind: 'placeholder' });
    expect(await b.get('v2/football/teams/3')).toMatchObject({ kind: 'missing' });
    expect(await b.get('v2/football/teams/4')).toBeUndefined();
  });

  it('holds no more than its byte bound: the least recently used go first', async () => {
    const { a, b, prefix } = await pair({ maxBytes: 10_000 });
    for (const n of [1, 2, 3])
      await a.put(`k${n}`, { kind: 'image', contentType: 'image/png', bytes: bytesOf(3_000, n), expiresAt: undefined });
    // Read k1: now k2 is the least recently used.
    expect(await b.get('k1')).toBeDefined();
    // The read's touch is not awaited by `get`.
    await until(
      async () =>
        Number(await admin.zscore(`${prefix}images:lru`, 'k1')) >
        Number(await admin.zscore(`${prefix}images:lru`, 'k3')),
    );
    await a.put('k4', { kind: 'image', contentType: 'image/png', bytes: bytesOf(3_000, 4), expiresAt: undefined });
    expect(await b.get('k2')).toBeUndefined();
    for (const key of ['k1', 'k3', 'k4']) expect(await b.get(key)).toBeDefined();
    expect(Number(await admin.get(`${prefix}images:bytes`))).toBe(9_000);

    // Replacing a key counts its new size once.
    await a.put('k4', { kind: 'image', contentType: 'image/png', bytes: bytesOf(1_000, 5), expiresAt: undefined });
    expect(Number(await admin.get(`${prefix}images:bytes`))).toBe(7_000);
  });

  it('does not share an image over the per-image bound, nor one that has expired', async () => {
    const { a, b } = await pair({ maxImageBytes: 1_000 });
    await a.put('big', { kind: 'image', contentType: 'image/png', bytes: bytesOf(1_001, 1), expiresAt: undefined });
    await a.put('gone', { kind: 'image', contentType: 'image/png', bytes: bytesOf(10, 1), expiresAt: Date.now() - 1 });
    expect(await b.get('big')).toBeUndefined();
    expect(await b.get('gone')).toBeUndefined();
  });

  it('Redis away: a get is a miss and a put does nothing, neither throws', async () => {
    const { a, links: own } = await pair();
    await a.put('kept', { kind: 'image', contentType: 'image/png', bytes: bytesOf(10, 1), expiresAt: undefined });
    await redis.kill();
    try {
      await until(() => own.every((link) => !link.up));
      expect(await a.get('kept')).toBeUndefined();
      await expect(a.put('other', { kind: 'missing', expiresAt: Date.now() + 1_000 })).resolves.toBeUndefined();
    } finally {
      await redis.restart();
      await until(() => links.every((link) => link.up));
    }
  });
});

/** Resolves once `condition` holds, checking every 10 ms; fails after 10 s. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  const giveUpAt = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
