/**
 * Counters and histograms whose observations wait until the answer is out.
 *
 * An operation observes a dozen metrics on its critical path (each upstream
 * request's status and duration, cache misses, yoga's request counter and
 * durations): prom-client hashes the labels and finds the bucket each time,
 * about a tenth of the CPU between the last upstream answer and the
 * response. None of it changes the answer, so each observation is queued
 * and applied in the check phase of the same event-loop turn (after the
 * response was handed to the socket), or at once when anything reads the
 * metrics: every metric made here flushes the queue when collected, so a
 * scrape (or a test's `metric.get()`) always sees everything observed
 * before it.
 */
import { Counter, Histogram, type CounterConfiguration, type HistogramConfiguration } from 'prom-client';

type Observe = (...args: unknown[]) => void;

export class AfterAnswer {
  // Pairs of (observe, its arguments), flat: no closure per observation.
  #pending: unknown[] = [];
  #scheduled: NodeJS.Immediate | undefined;

  /** Calls `observe(...args)` after the current turn's answers are written (or at the next read of the metrics). */
  defer(observe: Observe, args: unknown[]): void {
    this.#pending.push(observe, args);
    this.#scheduled ??= setImmediate(this.flush);
  }

  /** Applies every queued observation now. */
  readonly flush = (): void => {
    if (this.#scheduled !== undefined) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    for (let i = 0; i < pending.length; i += 2) {
      try {
        (pending[i] as Observe)(...(pending[i + 1] as unknown[]));
      } catch (error) {
        // A bad label or value threw at the caller before; here it would end the process from the check phase.
        process.emitWarning(error instanceof Error ? error : String(error), 'MetricsWarning');
      }
    }
  };
}

/** A prom-client Counter whose `inc` (and `labels(...).inc`) is applied after the answer. */
export class AfterAnswerCounter<T extends string> extends Counter<T> {
  constructor(queue: AfterAnswer, configuration: Omit<CounterConfiguration<T>, 'collect'>) {
    super({ ...configuration, collect: queue.flush });
    // prom-client sets `inc` per instance (with or without exemplars): wrap what it chose.
    const inc = this.inc.bind(this) as Observe;
    this.inc = ((...args: unknown[]) => queue.defer(inc, args)) as Counter<T>['inc'];
  }
}

/** A prom-client Histogram whose `observe` (and so `startTimer`'s end) is applied after the answer. */
export class AfterAnswerHistogram<T extends string> extends Histogram<T> {
  constructor(queue: AfterAnswer, configuration: Omit<HistogramConfiguration<T>, 'collect'>) {
    super({ ...configuration, collect: queue.flush });
    const observe = this.observe.bind(this) as Observe;
    this.observe = ((...args: unknown[]) => queue.defer(observe, args)) as Histogram<T>['observe'];
  }
}
