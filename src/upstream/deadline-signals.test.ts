import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineSignals } from './deadline-signals.js';

describe('DeadlineSignals', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('requests against one deadline share one timer while any of them holds it', () => {
    vi.useFakeTimers();
    const later = Date.now() + 60_000;
    const signals = new DeadlineSignals();
    const first = signals.hold(later, 60_000);
    const second = signals.hold(later, 60_000);
    expect(vi.getTimerCount()).toBe(1);
    const other = signals.hold(later + 1, 60_001);
    expect(vi.getTimerCount()).toBe(2);
    other.release();
    first.release();
    // Released twice by mistake: still only one holder gone.
    first.release();
    expect(vi.getTimerCount()).toBe(1);
    second.release();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('once the last holder has its answer, the timer is gone and the deadline starts afresh', () => {
    vi.useFakeTimers();
    const later = Date.now() + 60_000;
    const signals = new DeadlineSignals();
    const only = signals.hold(later, 60_000);
    const told = vi.fn();
    only.onAbort = told;
    only.release();
    const next = signals.hold(later, 60_000);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(next.aborted).toBe(true);
    expect(only.aborted).toBe(false);
    expect(told).not.toHaveBeenCalled();
    next.release();
  });

  it('tells every holder once when the deadline passes, and a later request gets a fresh signal', () => {
    vi.useFakeTimers();
    const signals = new DeadlineSignals();
    const deadline = Date.now() + 5;
    const held = [signals.hold(deadline, 5), signals.hold(deadline, 5), signals.hold(deadline, 5)];
    const told = held.map((entry) => {
      const onAbort = vi.fn();
      entry.onAbort = onAbort;
      return onAbort;
    });
    held[2]?.release();
    vi.advanceTimersByTime(5);
    // The deadline passed for all three; only those still waiting are told.
    expect(held.map((entry) => entry.aborted)).toEqual([true, true, true]);
    expect(told.map((onAbort) => onAbort.mock.calls.length)).toEqual([1, 1, 0]);
    expect(signals.hold(deadline, 1).aborted).toBe(false);
  });
});
