import { describe, expect, it } from 'vitest';
import { loopsAlone } from './poll-loop.js';

describe('loopsAlone', () => {
  it('starts at once on the first join, halts on leave, and polls only in between', async () => {
    const calls: string[] = [];
    const loop = loopsAlone('ticker', 1_000, {
      start: () => calls.push('start'),
      run: () => calls.push('run'),
      halt: () => calls.push('halt'),
      receive: (value) => calls.push(`receive ${value}`),
    });
    expect(loop.running).toBe(false);
    loop.join();
    // The first poll begins within join, as a gateway alone always did.
    expect(calls).toEqual(['start']);
    expect(loop.running).toBe(true);
    loop.join();
    loop.publish('nobody hears this');
    expect(await loop.latest()).toBeUndefined();
    loop.leave();
    loop.leave();
    expect(calls).toEqual(['start', 'halt']);
    expect(loop.running).toBe(false);
  });
});
