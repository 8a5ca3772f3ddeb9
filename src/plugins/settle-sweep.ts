/**
 * One timer for every operation the settle deadline watches
 * (use-operation-timeout.ts), instead of a timer or an AbortSignal per
 * operation (issue 16: nothing per request that is not needed).
 *
 * Every watch gets the same bound after its start, so the oldest pending
 * watch is always the first due and watches are kept in insertion order.
 * The timer is armed for the oldest one only. An operation that settles in
 * time just leaves the set (no timer work): when the timer fires, the watches
 * already done are gone, the ones past due are told, and the timer is armed
 * again for the oldest left, or not at all when none is. Under steady load
 * that is one timer callback per bound's length; idle, none.
 */

export interface SettleWatch {
  /** Epoch ms at which the operation is late. */
  readonly at: number;
  readonly onLate: () => void;
}

export class SettleSweep {
  readonly #pending = new Set<SettleWatch>();
  #timer: NodeJS.Timeout | undefined;

  /** Watches an operation: `onLate` (which must not throw) is called once if it is still pending at `at` (epoch ms). */
  watch(at: number, onLate: () => void): SettleWatch {
    const watch: SettleWatch = { at, onLate };
    this.#pending.add(watch);
    if (this.#timer === undefined) this.#arm(at);
    return watch;
  }

  /**
   * The operation settled: stop watching it.
   * @returns false when it was already late (its `onLate` has been called).
   */
  done(watch: SettleWatch): boolean {
    return this.#pending.delete(watch);
  }

  /** Watches still pending (tests, metrics). */
  get size(): number {
    return this.#pending.size;
  }

  #arm(at: number): void {
    // Unref'd: a watch never keeps a process alive that has nothing else to do.
    this.#timer = setTimeout(this.#sweep, Math.max(0, at - Date.now())).unref();
  }

  readonly #sweep = (): void => {
    this.#timer = undefined;
    const now = Date.now();
    const late: SettleWatch[] = [];
    for (const watch of this.#pending) {
      if (watch.at > now) {
        this.#arm(watch.at);
        break;
      }
      this.#pending.delete(watch);
      late.push(watch);
    }
    // Re-armed first: a watcher that throws cannot leave the others unwatched.
    for (const watch of late) watch.onLate();
  };
}
