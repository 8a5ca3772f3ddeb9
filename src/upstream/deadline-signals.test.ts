import { describe, expect, it } from 'vitest';
import { DeadlineSignals } from './deadline-signals.js';

describe('DeadlineSignals', () => {
  const later = Date.now() + 60_000;

  it('requests against one deadline share one signal while any of them holds it', () => {
    const signals = new DeadlineSignals();
    const first = signals.hold(later, 60_000);
    const second = signals.hold(later, 60_000);
    expect(second.signal).toBe(first.signal);
    expect(signals.hold(later + 1, 60_001).signal).not.toBe(first.signal);
    first.release();
    // Released twice by mistake: still only one holder gone.
    first.release();
    expect(signals.hold(later, 60_000).signal).toBe(second.signal);
  });

  it('once the last holder has its answer, the timer is gone and the deadline starts afresh', () => {
    const signals = new DeadlineSignals();
    const only = signals.hold(later, 60_000);
    only.release();
    const next = signals.hold(later, 60_000);
    expect(next.signal).not.toBe(only.signal);
    expect(only.signal.aborted).toBe(false);
    next.release();
  });

  it('aborts every holder when the deadline passes, and a later request gets a fresh signal', async () => {
    const signals = new DeadlineSignals();
    const deadline = Date.now() + 5;
    const held = [signals.hold(deadline, 5), signals.hold(deadline, 5)];
    await new Promise((resolve) => held[0]?.signal.addEventListener('abort', resolve, { once: true }));
    expect(held.map((entry) => entry.signal.aborted)).toEqual([true, true]);
    expect(signals.hold(deadline, 1).signal.aborted).toBe(false);
  });
});
