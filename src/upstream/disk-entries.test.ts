/**
 * The durable entries on a real LMDB file in a temporary directory: the
 * byte bound evicts the least recently used, the order and the bound come
 * back after a reopen, and entries of no use any more are dropped at start.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheStoreFile } from '../state/cache-store-file.js';
import { DiskEntries } from './disk-entries.js';
import { ResponseCache } from './cache.js';
import type { Stored } from './cache-entries.js';
import { GatewayError } from './errors.js';

const logger = pino({ level: 'silent' });
/** An answer of about `bytes` encoded bytes. */
const answer = (name: string, bytes: number, storedAt = 0): Stored => ({
  kind: 'value',
  value: { name, pad: 'x'.repeat(bytes) },
  storedAt,
  ttlMs: 60_000,
  size: bytes,
});

describe('DiskEntries', () => {
  let dir: string;
  let clock: number;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'disk-entries-'));
    clock = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const openEntries = async (diskBytes: number): Promise<DiskEntries> =>
    DiskEntries.open({
      store: await openCacheStoreFile(dir, logger),
      memoryBytes: 1_000_000,
      diskBytes,
      maxStaleMs: 60_000,
      logger,
      now: () => clock,
    });

  it('keeps the byte bound by evicting the least recently used, and reopens with the same order', async () => {
    let entries = await openEntries(10_000);
    for (const name of ['a', 'b', 'c']) entries.set(name, answer(name, 3_000));
    await entries.close();

    entries = await openEntries(10_000);
    expect(entries.stats()).toMatchObject({ entries: 3, pendingWrites: 0 });
    // A use moves `a` to the recent end: `b` is now the oldest.
    expect(entries.get('a')).toMatchObject({ value: { name: 'a' } });
    entries.set('d', answer('d', 3_000));
    await entries.close();

    entries = await openEntries(10_000);
    const stats = entries.stats();
    expect(stats.entries).toBe(3);
    expect(stats.bytes).toBeLessThanOrEqual(10_000);
    expect(entries.peek('b')).toBeUndefined();
    for (const name of ['a', 'c', 'd']) expect(entries.peek(name)).toMatchObject({ kind: 'value', value: { name } });
    await entries.close();
  });

  it('a smaller bound at start evicts down to it, oldest first', async () => {
    let entries = await openEntries(100_000);
    for (const name of ['a', 'b', 'c', 'd']) {
      clock += 1;
      entries.set(name, answer(name, 3_000));
      await entries.close();
      entries = await openEntries(100_000);
    }
    await entries.close();
    entries = await openEntries(7_000);
    expect(entries.stats().entries).toBe(2);
    expect(entries.peek('a')).toBeUndefined();
    expect(entries.peek('b')).toBeUndefined();
    expect(entries.peek('d')).toMatchObject({ value: { name: 'd' } });
    await entries.close();
  });

  it('keeps 404s with their code, and drops at start what can answer neither fresh nor stale', async () => {
    let entries = await openEntries(100_000);
    const notFound = new GatewayError('NOT_FOUND', 'No such team.', {
      version: 'v2',
      route: 'GET /v2/team/{id}',
      status: 404,
    });
    entries.set('missing', { kind: 'error', error: notFound, storedAt: 0, ttlMs: 1_000, size: 256 });
    entries.set('old', answer('old', 100));
    await entries.close();

    entries = await openEntries(100_000);
    const kept = entries.peek('missing');
    expect(kept?.kind === 'error' && kept.error).toMatchObject({
      code: 'NOT_FOUND',
      message: 'No such team.',
      details: notFound.details,
    });
    await entries.close();

    // Past TTL + maxStale for the answer, past TTL for the 404 (a 404 never answers stale).
    clock = 60_000 + 60_000 + 1;
    entries = await openEntries(100_000);
    expect(entries.stats().entries).toBe(0);
    expect(entries.peek('old')).toBeUndefined();
    expect(entries.peek('missing')).toBeUndefined();
    await entries.close();
  });

  it('close right after a clear and a set waits for LMDB to take the batch: nothing fails after it, the set is kept', async () => {
    let entries = await openEntries(100_000);
    entries.set('a', answer('a', 100));
    entries.clear();
    entries.set('b', answer('b', 100));
    await entries.close();
    // Used after close (an operation still finishing at shutdown): memory only, never the closed file.
    entries.clear();
    entries.set('c', answer('c', 100));
    expect(entries.peek('b')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 100));
    entries = await openEntries(100_000);
    expect(entries.peek('a')).toBeUndefined();
    expect(entries.peek('b')).toMatchObject({ value: { name: 'b' } });
    expect(entries.peek('c')).toBeUndefined();
    await entries.close();
  });

  it('one answer larger than the whole bound stays in memory only', async () => {
    let entries = await openEntries(2_000);
    entries.set('big', answer('big', 5_000));
    expect(entries.get('big')).toMatchObject({ value: { name: 'big' } });
    await entries.close();
    entries = await openEntries(2_000);
    expect(entries.stats().entries).toBe(0);
    expect(entries.peek('big')).toBeUndefined();
    await entries.close();
  });
  it('an answer with a TTL is committed before it is answered; one with none (TTL 0) follows in the next batch, standing in as stale meanwhile', async () => {
    const entries = await openEntries(100_000);
    const cache = new ResponseCache({ maxBytes: 1_000_000, maxStaleMs: 60_000, entries, now: () => clock });
    await cache.get('lasting', 1_000, async () => ({ value: 'L', size: 10 }));
    expect(entries.stats()).toMatchObject({ entries: 1, pendingWrites: 0 });

    await cache.get('passing', 0, async () => ({ value: 'P', size: 10 }));
    // Answered before any commit of its own: it could never answer a repeat fresh after a restart.
    expect(entries.stats()).toMatchObject({ entries: 1, pendingWrites: 1 });
    expect(cache.canAnswer('passing')).toBe(true);
    // Its next answers replace it in the queue: one write for the newest, not one commit per answer.
    await cache.get('passing', 0, async () => ({ value: 'P2', size: 10 }));
    expect(entries.stats().pendingWrites).toBe(1);
    while (entries.stats().pendingWrites > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(entries.stats().entries).toBe(2);
    await entries.close();

    const reopened = await openEntries(100_000);
    expect(reopened.peek('passing')).toMatchObject({ kind: 'value', value: 'P2', ttlMs: 0 });
    await reopened.close();
  });
});
