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
 * before it. A counter's increments of its one label wait for that read
 * alone, tallied (AfterAnswerCounter).
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
    this.#scheduled ??= setImmediate(this.#applyPending);
  }

  /** Tallies applied only when the metrics are read (see AfterAnswerCounter). */
  readonly #onRead: Array<() => void> = [];

  /** Calls `apply` whenever the metrics are read (every `flush`). */
  applyOnRead(apply: () => void): void {
    this.#onRead.push(apply);
  }

  /** Applies every queued observation and tally now (a read of the metrics). */
  readonly flush = (): void => {
    for (const apply of this.#onRead) apply();
    this.#applyPending();
  };

  /**
   * Applies the queued observations (the check phase's turn): not the
   * tallies, which wait for a read. A tally is one number per label set,
   * however many increments it holds; applying it every turn, as the
   * observations queued beside it are, cost prom-client's label hashing
   * for nearly every increment again on a cold operation, whose answers
   * come back over several turns.
   */
  readonly #applyPending = (): void => {
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

/**
 * A prom-client Counter whose `inc` (and `labels(...).inc`) is applied after the answer.
 *
 * Increments by one of its only label (or of a counter without labels), the
 * common case by far (a cache hit per route), are tallied per label value
 * and applied when the metrics are read (a scrape, `get()`: every read
 * flushes): each result-cache hit hashed and validated its routes' labels
 * again, a few per cent of a hit's CPU. The tally holds one number per
 * label value. Anything else (another value, more labels, a label it does
 * not have) is queued as it is, so prom-client still judges it.
 */
export class AfterAnswerCounter<T extends string> extends Counter<T> {
  constructor(queue: AfterAnswer, configuration: Omit<CounterConfiguration<T>, 'collect'>) {
    super({ ...configuration, collect: queue.flush });
    // prom-client sets `inc` per instance (with or without exemplars): wrap what it chose.
    const inc = this.inc.bind(this) as Observe;
    const labelNames: readonly string[] = configuration.labelNames ?? [];
    const label = labelNames.length === 1 ? labelNames[0] : undefined;
    const tally = new Map<string | undefined, number>();
    const applyTally = (): void => {
      if (tally.size === 0) return;
      for (const [value, count] of tally) {
        if (value === undefined) inc(count);
        else inc({ [label as string]: value }, count);
      }
      tally.clear();
    };
    queue.applyOnRead(applyTally);
    const count = (value: string | undefined): void => {
      tally.set(value, (tally.get(value) ?? 0) + 1);
    };
    // Frozen label objects, tallied by identity: a caller that makes its label sets once (one per
    // route and status, src/upstream/client.ts) pays a map lookup per increment, not a hash of its labels.
    const byLabels = new Map<object, number>();
    const applyByLabels = (): void => {
      if (byLabels.size === 0) return;
      for (const [labels, times] of byLabels) {
        try {
          inc(labels, times);
        } catch (error) {
          // Judged by prom-client only now: a bad label set is a warning, as a queued one is (AfterAnswer.flush).
          process.emitWarning(error instanceof Error ? error : String(error), 'MetricsWarning');
        }
      }
      byLabels.clear();
    };
    queue.applyOnRead(applyByLabels);
    this.inc = ((...args: unknown[]) => {
      if (args.length === 0 && labelNames.length === 0) return count(undefined);
      if (args.length === 1) {
        const labels = args[0];
        if (label !== undefined) {
          const value = onlyLabel(labels, label);
          if (value !== undefined) return count(value);
        }
        if (typeof labels === 'object' && labels !== null && Object.isFrozen(labels)) {
          byLabels.set(labels, (byLabels.get(labels) ?? 0) + 1);
          // Bounded whether or not anything reads the metrics: a caller freezing a new set per increment is applied as it goes.
          if (byLabels.size > MAX_LABEL_SETS) applyByLabels();
          return;
        }
      }
      queue.defer(inc, args);
    }) as Counter<T>['inc'];
  }
}

/** Frozen label sets a counter tallies before applying them unread. */
const MAX_LABEL_SETS = 256;

/** The value of `labels` when it is an object holding `label` as a string and nothing else. */
function onlyLabel(labels: unknown, label: string): string | undefined {
  if (typeof labels !== 'object' || labels === null) return undefined;
  const value = (labels as Record<string, unknown>)[label];
  if (typeof value !== 'string') return undefined;
  let keys = 0;
  for (const key in labels) if (Object.hasOwn(labels, key)) keys += 1;
  return keys === 1 ? value : undefined;
}

/** A prom-client Histogram whose `observe` (and so `startTimer`'s end) is applied after the answer. */
export class AfterAnswerHistogram<T extends string> extends Histogram<T> {
  constructor(queue: AfterAnswer, configuration: Omit<HistogramConfiguration<T>, 'collect'>) {
    super({ ...configuration, collect: queue.flush });
    const observe = this.observe.bind(this) as Observe;
    this.observe = ((...args: unknown[]) => queue.defer(observe, args)) as Histogram<T>['observe'];
  }
}
