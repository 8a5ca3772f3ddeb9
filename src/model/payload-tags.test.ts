import { describe, expect, it } from 'vitest';
import { listedAt, listingOf } from './listing.js';
import { tagType, typeOf } from './typename.js';

describe('tags kept on upstream payload objects', () => {
  it('are invisible to JSON, Object.keys and a spread copy', () => {
    const payload = { id: 7, name: 'Oilers' };
    listedAt(tagType(payload, 'V1HockeyCompetitor'), { competitions: 11, season: undefined });
    expect(typeOf(payload)).toBe('V1HockeyCompetitor');
    expect(listingOf(payload)).toEqual({ competitions: '11' });
    expect(JSON.stringify(payload)).toBe('{"id":7,"name":"Oilers"}');
    expect(Object.keys(payload)).toEqual(['id', 'name']);
    const copy = { ...payload };
    expect(typeOf(copy)).toBeNull();
    expect(listingOf(copy)).toBeUndefined();
  });

  it('take the newest type, and the first listing (the same cached object is always listed at the same place)', () => {
    const payload = {};
    tagType(payload, 'A');
    tagType(payload, 'B');
    expect(typeOf(payload)).toBe('B');
    const first = { gameId: 1 };
    listedAt(payload, first);
    listedAt(payload, { gameId: 2 });
    expect(listingOf(payload)).toEqual({ gameId: '1' });
  });

  it('leave an untagged object without a type or listing', () => {
    expect(typeOf({})).toBeNull();
    expect(listingOf({})).toBeUndefined();
  });
});
