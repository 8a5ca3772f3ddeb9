import { describe, expect, it } from 'vitest';
import { IMMUTABLE_TTL_MS } from './cache-ttls.js';
import { EndedLastLru } from './ended-last-lru.js';

const live = (size: number) => ({ size, ttlMs: 15_000 });
const ended = (size: number) => ({ size, ttlMs: IMMUTABLE_TTL_MS });

describe('EndedLastLru', () => {
  it("evicts every other answer, least recently used first, before an ended match's", () => {
    const lru = new EndedLastLru<{ size: number; ttlMs: number }>({ maxBytes: 100 });
    lru.set('ended', ended(30));
    lru.set('a', live(30));
    lru.set('b', live(30));
    lru.get('a');
    lru.set('c', live(30)); // 120 bytes: b, the least recently used of the others, goes; not the older `ended`
    expect(lru.keys().sort()).toEqual(['a', 'c', 'ended']);
    lru.set('d', live(30));
    expect(lru.keys().sort()).toEqual(['c', 'd', 'ended']);
    expect(lru.bytes).toBe(90);
  });

  it('keeps room for live answers: ended ones past their share go, least recently used first', () => {
    const lru = new EndedLastLru<{ size: number; ttlMs: number }>({ maxBytes: 100, lastingShare: 0.5 });
    lru.set('e1', ended(20));
    lru.set('e2', ended(20));
    lru.get('e1');
    lru.set('e3', ended(20));
    expect(lru.keys().sort()).toEqual(['e1', 'e3']);
    lru.set('live', live(60));
    expect(lru.keys().sort()).toEqual(['e1', 'e3', 'live']);
  });

  it('moves a key to the ended kind when its answer is refetched after full time', () => {
    const lru = new EndedLastLru<{ size: number; ttlMs: number }>({ maxBytes: 100 });
    lru.set('game', live(40));
    lru.set('game', ended(40));
    lru.set('x', live(40));
    lru.set('y', live(40));
    expect(lru.keys().sort()).toEqual(['game', 'y']);
    expect(lru.peek('game')?.ttlMs).toBe(IMMUTABLE_TTL_MS);
  });

  it('refuses an entry larger than the whole bound, as one LRU would', () => {
    const lru = new EndedLastLru<{ size: number; ttlMs: number }>({ maxBytes: 100 });
    lru.set('small', live(10));
    lru.set('huge', ended(101));
    expect(lru.keys()).toEqual(['small']);
  });
});
