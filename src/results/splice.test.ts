import { describe, expect, it } from 'vitest';
import { encodedBody, splicedBody, splicedTail } from './splice.js';
import type { StoredResult } from './result-cache.js';

const stored = (data: Record<string, unknown>): StoredResult => ({ data, json: JSON.stringify(data), routes: [] });

describe('a hit body as one buffer', () => {
  it('is the bytes yoga writes for the hit, kept while the tail is the same', () => {
    const result = stored({ team: { name: 'Zürich' } });
    const tail = splicedTail({ cost: { upstreamRequests: 0, cacheHits: 1, allowanceRemaining: 99 } });
    const bytes = encodedBody(result, tail);
    expect(bytes?.toString('utf8')).toBe(
      splicedBody(result, { cost: { upstreamRequests: 0, cacheHits: 1, allowanceRemaining: 99 } }),
    );
    expect(encodedBody(result, tail)).toBe(bytes);
    const later = splicedTail({ cost: { upstreamRequests: 0, cacheHits: 1, allowanceRemaining: 98 } });
    const again = encodedBody(result, later);
    expect(again).not.toBe(bytes);
    expect(again?.toString('utf8')).toBe(`{"data":${result.json}${later}`);
  });

  it('is not made for a result too large to copy on every changed tail', () => {
    const result = stored({ text: 'x'.repeat(20_000) });
    expect(encodedBody(result, '}')).toBeUndefined();
  });
});
