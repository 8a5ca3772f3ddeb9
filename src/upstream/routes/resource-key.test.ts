/**
 * resourceKey joins plain queries directly: the cache key of every route
 * call, so it must equal the URLSearchParams form it replaced for every
 * query (keys in code-unit order, undefined values left out, the form
 * encoding of anything not plain).
 */
import { describe, expect, it } from 'vitest';
import { resourceKey, type QueryValue } from './route.js';

function reference(path: string, query: Readonly<Record<string, QueryValue>>): string {
  const entries = Object.entries(query)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0
    ? path
    : `${path}?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}`;
}

const queries: ReadonlyArray<Readonly<Record<string, QueryValue>>> = [
  {},
  { limit: undefined },
  { seasonNum: 2025, competition: 11 },
  { z: 1, a: 2, M: 3, _: 4, b: undefined, 'a-b': 'x.y*z_', A: true },
  { q: 'Water polo Club A', sport: 'hockey' },
  { q: 'ü/é?&=+%#', n: -1.5, big: 1e21, empty: '', nan: Number.NaN },
  { 'key with space': 'v', k: false },
];

describe('resourceKey', () => {
  it('equals the URLSearchParams form for plain and non-plain queries', () => {
    for (const query of queries)
      expect(resourceKey({ path: '/v1/hockey/standings', query })).toBe(reference('/v1/hockey/standings', query));
  });
});
