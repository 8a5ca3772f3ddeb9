/**
 * A process's CPU time sampled every few milliseconds while a scenario runs
 * (bench/thread-cpu.ts, every thread), so that the CPU of an interval known
 * only afterwards (from the clients' receipt times) can be read: the
 * cumulative time at any moment is interpolated between the two samples
 * around it. A frame's CPU is then read over the frame alone, not over
 * everything the bench waited through to learn that it was delivered.
 */
import { threadCpuNs } from './thread-cpu.js';

/** Milliseconds since the epoch, with a fraction: the clients' `Date.now()` clock, finer. */
const nowMs = (): number => performance.timeOrigin + performance.now();

export class CpuTrace {
  readonly #at: number[] = [];
  readonly #ns: number[] = [];
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 5,
  ) {
    this.#sample();
    this.#timer = setInterval(() => this.#sample(), everyMs);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#sample();
  }

  /** CPU time (ns) between two moments of the epoch clock (ms). */
  between(fromMs: number, toMs: number): number {
    return this.#cumulative(toMs) - this.#cumulative(fromMs);
  }

  /** CPU time per wall millisecond between two moments (ns/ms). */
  rate(fromMs: number, toMs: number): number {
    return this.between(fromMs, toMs) / Math.max(1, toMs - fromMs);
  }

  #sample(): void {
    this.#at.push(nowMs());
    this.#ns.push(threadCpuNs(this.pid));
  }

  #cumulative(atMs: number): number {
    const at = this.#at;
    const ns = this.#ns;
    if (atMs <= at[0]!) return ns[0]!;
    if (atMs >= at[at.length - 1]!) return ns[ns.length - 1]!;
    let low = 0;
    let high = at.length - 1;
    while (high - low > 1) {
      const middle = (low + high) >> 1;
      if (at[middle]! <= atMs) low = middle;
      else high = middle;
    }
    const span = at[high]! - at[low]!;
    return span === 0 ? ns[low]! : ns[low]! + ((ns[high]! - ns[low]!) * (atMs - at[low]!)) / span;
  }
}
