import { describe, expect, it } from 'vitest';
import { ResponseCache } from './cache.js';
import { GatewayError } from './errors.js';

const make = (now: () => number) => new ResponseCache({ maxBytes: 1_000_000, maxStaleMs: 60_000, now });

describe('ResponseCache', () => {
  it('peek reads a fresh entry without a hit, a load or a recency refresh', async () => {
    let clock = 0;
    // Room for two 10-byte entries: the third evicts the least recently used.
    const cache = new ResponseCache({ maxBytes: 20, maxStaleMs: 60_000, now: () => clock });
    const load = (value: string) => async () => ({ value, size: 10 });
    await cache.get('a', 1_000, load('A'));
    await cache.get('b', 1_000, load('B'));
    let hits = 0;
    expect(await cache.peek('a')).toEqual({ kind: 'value', value: 'A' });
    expect(await cache.peek('missing')).toBeUndefined();
    // A get would have made `a` the most recent; after a peek `a` is still the oldest and goes first.
    await cache.get('c', 1_000, load('C'), { onHit: () => (hits += 1) });
    expect(await cache.peek('a')).toBeUndefined();
    expect(await cache.peek('b')).toEqual({ kind: 'value', value: 'B' });
    expect(hits).toBe(0);
    // Past its TTL an entry is not known (it would cost a request), though it may still answer stale.
    clock = 1_000;
    expect(await cache.peek('b')).toBeUndefined();
    expect(cache.canAnswer('b')).toBe(true);
  });

  it('peek gives a fresh 404 as the error it holds', async () => {
    const cache = make(() => 0);
    await expect(
      cache.get('gone', 1_000, async () => Promise.reject(new GatewayError('NOT_FOUND', 'no such thing'))),
    ).rejects.toThrow('no such thing');
    const peeked = await cache.peek('gone');
    expect(peeked?.kind).toBe('error');
  });

  it('shares one load among concurrent callers and answers from the cache inside the TTL', async () => {
    let clock = 0;
    const cache = make(() => clock);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { value: { n: loads }, size: 10 };
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', 1_000, load)));
    expect(loads).toBe(1);
    expect(results.filter((r) => r.source === 'upstream')).toHaveLength(1);
    expect(results.filter((r) => r.source === 'shared')).toHaveLength(19);
    clock = 999;
    expect((await cache.get('k', 1_000, load)).source).toBe('cache');
    clock = 1_000;
    expect((await cache.get('k', 1_000, load)).source).toBe('upstream');
    expect(loads).toBe(2);
  });

  it('answers a failed refresh from the stale entry, with its age and reason', async () => {
    let clock = 0;
    const cache = make(() => clock);
    await cache.get('k', 1_000, async () => ({ value: 'old', size: 3 }));
    clock = 5_000;
    const result = await cache.get('k', 1_000, async () => {
      throw new GatewayError('UPSTREAM_UNAVAILABLE', 'down');
    });
    expect(result).toEqual({
      value: 'old',
      source: 'stale',
      stale: { ageSeconds: 5, reason: 'UPSTREAM_UNAVAILABLE' },
      ageSeconds: 5,
    });
  });

  it('does not answer a 404 or a too-old entry with stale data', async () => {
    let clock = 0;
    const cache = make(() => clock);
    await cache.get('k', 1_000, async () => ({ value: 'old', size: 3 }));
    clock = 2_000;
    await expect(
      cache.get('k', 1_000, async () => {
        throw new GatewayError('NOT_FOUND', 'gone');
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await cache.get('j', 1_000, async () => ({ value: 'old', size: 3 }));
    clock = 2_000 + 62_000;
    await expect(
      cache.get('j', 1_000, async () => {
        throw new GatewayError('UPSTREAM_TIMEOUT', 'slow');
      }),
    ).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
  });

  it('caches a 404 for the TTL, so a wrong ID is paid once', async () => {
    const cache = make(() => 0);
    let loads = 0;
    const load = async (): Promise<{ value: string; size: number }> => {
      loads += 1;
      throw new GatewayError('NOT_FOUND', 'gone');
    };
    await expect(cache.get('k', 1_000, load)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(cache.get('k', 1_000, load)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(loads).toBe(1);
  });

  it('fresh() answers what get() would answer at once, and nothing once the TTL is over', async () => {
    let clock = 0;
    const cache = make(() => clock);
    expect(cache.fresh('k')).toBeUndefined();
    await cache.get('k', 1_000, async () => ({ value: 'v', size: 1 }));
    let hits = 0;
    expect(cache.fresh('k', { onHit: () => (hits += 1) })).toEqual({ value: 'v', source: 'cache', ageSeconds: 0 });
    expect(hits).toBe(1);
    clock = 1_000;
    // Expired: the caller goes through get(), which refreshes or answers stale.
    expect(cache.fresh('k', { onHit: () => (hits += 1) })).toBeUndefined();
    expect(hits).toBe(1);

    await expect(
      cache.get('gone', 1_000, async () => Promise.reject(new GatewayError('NOT_FOUND', 'gone'))),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(() => cache.fresh('gone')).toThrow(GatewayError);
  });
});
