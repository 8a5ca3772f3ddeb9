import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nextResetAt, resetAfterSeconds, upstreamAssumptions } from '../../upstream/assumptions.js';
import { GatewayError } from '../../upstream/errors.js';
import { LocalLedger } from './local-ledger.js';

const route = { version: 'v1', route: '/v1/hockey/standings' };

describe('LocalLedger', () => {
  let dir: string;
  let file: string;
  const opened: LocalLedger[] = [];
  const open = async (options: Omit<Parameters<typeof LocalLedger.open>[0], 'file'>) => {
    const ledger = await LocalLedger.open({ ...options, file });
    opened.push(ledger);
    return ledger;
  };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ledger-'));
    file = join(dir, 'quota.json');
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((ledger) => ledger.flush()));
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses the request that would pass the allowance, counting requests in flight', async () => {
    const ledger = await open({ plan: 'free' });
    const held = Array.from({ length: 100 }, () => ledger.reserve(route));
    expect(() => ledger.reserve(route)).toThrowError(GatewayError);
    try {
      ledger.reserve(route);
    } catch (error) {
      expect((error as GatewayError).code).toBe('QUOTA_EXHAUSTED');
      expect((error as GatewayError).details.resetsAt).toMatch(/T00:00:00.000Z$/);
    }
    held[0]?.release();
    expect(ledger.available()).toBe(1);
    for (const reservation of held.slice(1)) reservation.commit();
    expect(ledger.snapshot()).toMatchObject({ limit: 100, used: 99, remaining: 1 });
  });

  it('persists what was spent across a restart', async () => {
    const first = await open({ plan: 'pro' });
    for (let i = 0; i < 7; i += 1) first.reserve(route).commit();
    await first.flush();
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ version: 2, allowance: { used: 7 } });
    const second = await open({ plan: 'pro' });
    expect(second.snapshot()).toMatchObject({ plan: 'pro', limit: 7_500, used: 7, remaining: 7_493 });
  });

  /** What a gateway restarted after a crash right now would read: the newest copy on disk, as the ledger opens it. */
  const onDisk = async (): Promise<number | undefined> => {
    try {
      return (await LocalLedger.open({ plan: 'pro', file })).snapshot().used;
    } catch {
      return undefined;
    }
  };

  it('a reservation is on disk before its request may leave, counted as spent while in flight', async () => {
    const ledger = await open({ plan: 'pro', persistDelayMs: 60_000 });
    const reservation = ledger.reserve(route);
    await reservation.durable;
    // A crash now must not forget a request that may already have reached the upstream.
    expect(await onDisk()).toBe(1);
    reservation.commit();
    await ledger.flush();
    expect(await onDisk()).toBe(1);
    const released = ledger.reserve(route);
    await released.durable;
    expect(await onDisk()).toBe(2);
    released.release();
    await ledger.flush();
    expect(await onDisk()).toBe(1);
  });

  it('reservations that arrive together share writes (group commit), never one write per request', async () => {
    const ledger = await open({ plan: 'pro', persistDelayMs: 60_000 });
    const reservations = Array.from({ length: 50 }, () => ledger.reserve(route));
    await Promise.all(reservations.map((reservation) => reservation.durable));
    expect(await onDisk()).toBe(50);
    expect(ledger.stateDocument.writes).toBeLessThanOrEqual(2);
    for (const reservation of reservations) reservation.commit();
    await ledger.flush();
    expect(await onDisk()).toBe(50);
  });

  it('reservations made over several promise turns of one task share one write', async () => {
    const ledger = await open({ plan: 'pro', persistDelayMs: 60_000 });
    const before = ledger.stateDocument.writes;
    const first = ledger.reserve(route);
    // As an operation's resolvers do: a later field reserves after awaiting something already known.
    const later = (async () => {
      for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
      return ledger.reserve(route);
    })();
    const second = await later;
    await Promise.all([first.durable, second.durable]);
    expect(ledger.stateDocument.writes - before).toBe(1);
    expect(await onDisk()).toBe(2);
  });

  it('writes other changes once the persist window passes, and at once on flush', async () => {
    const ledger = await open({ plan: 'pro', persistDelayMs: 150 });
    const held = ledger.reserve(route);
    await held.durable;
    const writes = ledger.stateDocument.writes;
    held.release();
    ledger.markExhausted(undefined);
    expect(ledger.stateDocument.writes).toBe(writes);
    await ledger.flush();
    expect(await onDisk()).toBe(7_500);
    expect(ledger.stateDocument.writes).toBe(writes + 1);
  });

  it('a change made while a write is under way waits for its own window, not for that write to end', async () => {
    const ledger = await open({ plan: 'pro', persistDelayMs: 60_000 });
    const held = ledger.reserve(route);
    await held.durable;
    held.commit();
    const writes = ledger.stateDocument.writes;
    const flushed = ledger.flush();
    // Made after the write above took its snapshot: back-to-back operations must not become back-to-back writes.
    ledger.markExhausted(undefined);
    await flushed;
    expect(ledger.stateDocument.writes).toBe(writes + 1);
    expect(await onDisk()).toBe(1);
    await ledger.flush();
    expect(ledger.stateDocument.writes).toBe(writes + 2);
    expect(await onDisk()).toBe(7_500);
  });

  it('takes the upstream rate-limit headers as the truth', async () => {
    const ledger = await open({ plan: 'free' });
    const names = upstreamAssumptions.rateLimitHeaders;
    const headers: Record<string, string> = { [names.limit]: '100', [names.remaining]: '40', [names.reset]: '3600' };
    ledger.reserve(route).commit((name) => headers[name]);
    const snapshot = ledger.snapshot();
    expect(snapshot.used).toBe(60);
    expect(Math.abs(snapshot.resetsAt - (Date.now() + 3_600_000))).toBeLessThan(5_000);
  });

  it('the last answer of a burst may carry the oldest count: it does not lower what a newer one said', async () => {
    const ledger = await open({ plan: 'free' });
    const names = upstreamAssumptions.rateLimitHeaders;
    const count = (used: number) => (name: string) =>
      ({ [names.limit]: '100', [names.remaining]: String(100 - used) })[name];
    const first = ledger.reserve(route);
    const second = ledger.reserve(route);
    // The upstream counted `first` as its 1st and `second` as its 2nd request, but `second` answers first.
    second.commit(count(2));
    first.commit(count(1));
    expect(ledger.snapshot().used).toBe(2);
  });

  it("a lower count from a request that had the upstream to itself is the upstream's correction", async () => {
    const ledger = await open({ plan: 'free' });
    const names = upstreamAssumptions.rateLimitHeaders;
    const count = (used: number) => (name: string) =>
      ({ [names.limit]: '100', [names.remaining]: String(100 - used) })[name];
    ledger.reserve(route).commit(count(10));
    ledger.reserve(route).commit(count(3));
    expect(ledger.snapshot().used).toBe(3);
  });

  it('resets at the daily boundary', async () => {
    let now = Date.UTC(2026, 10, 22, 23, 59, 0);
    const ledger = await open({ plan: 'free', now: () => now });
    ledger.reserve(route).commit();
    expect(ledger.snapshot().used).toBe(1);
    expect(ledger.snapshot().resetsAt).toBe(Date.UTC(2026, 10, 23));
    now = Date.UTC(2026, 10, 23, 0, 0, 1);
    expect(ledger.snapshot()).toMatchObject({ used: 0, resetsAt: Date.UTC(2026, 10, 24) });
  });

  it('a 429 spends what is left until Retry-After', async () => {
    const ledger = await open({ plan: 'free' });
    ledger.markExhausted(120);
    expect(ledger.available()).toBe(0);
    expect(ledger.snapshot().resetsAt - Date.now()).toBeGreaterThan(110_000);
  });
});

describe('resetAfterSeconds', () => {
  const noon = Date.UTC(2026, 10, 23, 12, 0, 0, 347);
  const midnight = nextResetAt(noon);

  it('is the daily reset when the seconds land within their rounding of it', () => {
    expect(resetAfterSeconds(noon, 43_200)).toBe(midnight);
    expect(resetAfterSeconds(noon, 43_199)).toBe(midnight);
    expect(resetAfterSeconds(noon + 800, 43_200)).toBe(midnight);
  });

  it('is otherwise the nearest whole second, never with milliseconds of the clock', () => {
    expect(resetAfterSeconds(noon, 120)).toBe(Date.UTC(2026, 10, 23, 12, 2, 0));
    expect(resetAfterSeconds(noon + 200, 120)).toBe(Date.UTC(2026, 10, 23, 12, 2, 1));
    expect(resetAfterSeconds(noon, 3_600) % 1_000).toBe(0);
  });
});
