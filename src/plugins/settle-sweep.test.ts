import { describe, expect, it } from 'vitest';
import { SettleSweep } from './settle-sweep.js';

describe('SettleSweep: one timer for every watched operation', () => {
  it('tells only the watches still pending when their time comes, each once', async () => {
    const sweep = new SettleSweep();
    const late: string[] = [];
    const now = Date.now();
    const settled = sweep.watch(now + 20, () => late.push('settled'));
    sweep.watch(now + 30, () => late.push('a'));
    // Added while the timer is armed for an earlier watch: found when that one's time comes.
    sweep.watch(now + 40, () => late.push('b'));
    expect(sweep.done(settled)).toBe(true);
    await expect.poll(() => late.length, { timeout: 5_000, interval: 10 }).toBe(2);
    expect(late).toEqual(['a', 'b']);
    expect(sweep.size).toBe(0);
  });

  it('says whether a watch was already late when its operation settles', async () => {
    const sweep = new SettleSweep();
    let told = 0;
    const watch = sweep.watch(Date.now(), () => (told += 1));
    await expect.poll(() => told, { timeout: 5_000, interval: 10 }).toBe(1);
    expect(sweep.done(watch)).toBe(false);
    const next = sweep.watch(Date.now() + 60_000, () => (told += 1));
    expect(sweep.done(next)).toBe(true);
    expect(told).toBe(1);
  });
});
