import { describe, expect, it } from 'vitest';
import { groupOf, KnownBodies } from './known-bodies.js';

const body = (text: string): Buffer => Buffer.from(text, 'utf8');
const operation = (key: string) => ({ key, operationName: undefined });

/** A body of `length` bytes whose byte `at` is `byte`: bodies that differ only there share a group when it is not sampled. */
function bodyWith(length: number, at: number, byte: string): Buffer {
  const bytes = Buffer.alloc(length, 'a');
  bytes.write(byte, at);
  return bytes;
}

describe('KnownBodies', () => {
  it('finds a body remembered for the same client, byte for byte, and nothing for another client', () => {
    const known = new KnownBodies();
    known.remember('web', body('{"query":"{ a }"}'), operation('k1'));
    expect(known.get('web', body('{"query":"{ a }"}'))).toEqual(operation('k1'));
    expect(known.get(undefined, body('{"query":"{ a }"}'))).toBeUndefined();
    expect(known.get('app', body('{"query":"{ a }"}'))).toBeUndefined();
    expect(known.get('web', body('{"query":"{ b }"}'))).toBeUndefined();
  });

  it('never confuses two bodies of one group: equal bytes decide, not the group', () => {
    // Byte 1 of a 1,000-byte body is not among the sampled ones: both bodies fall in one group.
    const first = bodyWith(1000, 1, 'x');
    const second = bodyWith(1000, 1, 'y');
    expect(groupOf(first)).toBe(groupOf(second));
    const known = new KnownBodies();
    known.remember(undefined, first, operation('first'));
    expect(known.get(undefined, second)).toBeUndefined();
    known.remember(undefined, second, operation('second'));
    expect(known.get(undefined, first)?.key).toBe('first');
    expect(known.get(undefined, second)?.key).toBe('second');
  });

  it('keeps a few bodies per group, forgetting the oldest past them', () => {
    const known = new KnownBodies();
    const bodies = Array.from({ length: 9 }, (_, i) => bodyWith(1000, 1, String.fromCharCode(98 + i)));
    for (const [i, bytes] of bodies.entries()) known.remember(undefined, bytes, operation(`k${i}`));
    expect(known.get(undefined, bodies[0] as Buffer)).toBeUndefined();
    expect(known.get(undefined, bodies[8] as Buffer)?.key).toBe('k8');
    expect(known.get(undefined, bodies[1] as Buffer)?.key).toBe('k1');
  });

  it('does not keep bodies past its bound, nor more bytes than its budget', () => {
    const known = new KnownBodies({ maxBodyBytes: 100, maxBytes: 2_000 });
    const large = Buffer.alloc(101, 'a');
    known.remember(undefined, large, operation('large'));
    expect(known.get(undefined, large)).toBeUndefined();
    const many = Array.from({ length: 50 }, (_, i) => body(`{"query":"{ a }","variables":{"id":${i}}}`));
    for (const [i, bytes] of many.entries()) known.remember(undefined, bytes, operation(`k${i}`));
    const kept = many.filter((bytes) => known.get(undefined, bytes) !== undefined).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(50);
    expect(known.get(undefined, many[49] as Buffer)?.key).toBe('k49');
  });

  it('keeps its own copy of the bytes: the request buffer changing later changes nothing', () => {
    const known = new KnownBodies();
    const bytes = body('{"query":"{ a }"}');
    known.remember(undefined, bytes, operation('k'));
    bytes.write('b', 12);
    expect(known.get(undefined, bytes)).toBeUndefined();
    expect(known.get(undefined, body('{"query":"{ a }"}'))?.key).toBe('k');
  });
});
