/**
 * docs/caching-and-allowance.md's table of cache classes is
 * src/upstream/cache-ttls.ts: the same classes, each with its default TTL.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCacheTtls, defaultMatchStateTtls, IMMUTABLE } from '../src/upstream/cache-ttls.js';
import { tableUnder } from './support/markdown.js';

const root = resolve(import.meta.dirname, '..');
const unitSeconds: Readonly<Record<string, number>> = { s: 1, min: 60, h: 3600, days: 86_400 };

/** "5 min" -> 300; "24 h" -> 86400; "immutable" -> IMMUTABLE. */
function seconds(ttl: string): number {
  if (ttl.trim() === 'immutable') return IMMUTABLE;
  const match = /^(\d+) (s|min|h|days)$/.exec(ttl.trim());
  if (match === null) throw new Error(`not a TTL: ${ttl}`);
  return Number(match[1]) * unitSeconds[match[2]!]!;
}

describe('docs: cache classes', () => {
  it('lists every class of cache-ttls.ts with its default TTL, and no other', () => {
    const [header, ...rows] = tableUnder(join(root, 'docs/caching-and-allowance.md'), 'Cache classes and their TTLs');
    expect(header).toEqual(['class', 'routes', 'TTL']);
    const documented: Record<string, number> = {};
    for (const [classes = '', , ttl = ''] of rows) {
      for (const [, name] of classes.matchAll(/`([a-zA-Z0-9]+)`/g)) documented[name!] = seconds(ttl);
    }
    expect(documented).toEqual({ ...defaultCacheTtls });
  });
});

describe('docs: freshness by match state', () => {
  it('lists every row of the match-state table with its default, and no other', () => {
    const [header, ...rows] = tableUnder(join(root, 'docs/caching-and-allowance.md'), 'Freshness by match state');
    expect(header).toEqual(['state', 'when', 'fresh for']);
    const documented: Record<string, number> = {};
    for (const [state = '', , ttl = ''] of rows) documented[state.replaceAll('`', '').trim()] = seconds(ttl);
    expect(documented).toEqual({ ...defaultMatchStateTtls });
  });
});
