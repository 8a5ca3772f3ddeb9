/**
 * A subscriber's queue: what a subscribe resolver returns for a feed it
 * listens to (resolvers/odds.ts adapts the odds hub's listeners with it),
 * and what each member of a shared execution reads
 * (src/transport/ws/shared-subscriptions.ts). Plain async-iterator
 * plumbing: it knows neither the feeds nor the transports.
 */

/** A subscriber's own way to deliver a result, bypassing its iterator (the WebSocket transport's: src/transport/ws/direct-next.ts). */
export interface Delivery<T> {
  /**
   * Delivers `result` and returns true, or returns false when the
   * subscriber's own loop must send it. Asked only while that loop waits
   * with nothing queued.
   */
  write(result: T): boolean;
}

/**
 * One subscriber's view of a source: a bounded queue that keeps the newest
 * results (a slow reader skips to the latest rather than holding every
 * frame), as a plain async iterator (lighter than a Repeater per subscriber,
 * which matters at 10,000 subscribers). Also what the odds resolvers return:
 * unlike a Repeater, whose executor runs only on the first `next()`, it
 * listens from the moment it is made, so their feed is opened (and its caps
 * checked) inside the subscribe resolver, and `return()` always stops it.
 */
export class MemberQueue<T> implements AsyncIterableIterator<T> {
  readonly #buffer: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #failWaiting: ((error: unknown) => void) | undefined;
  #done = false;
  #error: unknown;

  constructor(
    private readonly size: number,
    private readonly onLeave: () => void,
    /**
     * Offered a result while the reader waits with nothing queued: when it
     * delivers the result itself, the reader goes on waiting. Anything else
     * (queued results, the end) still reaches the reader, in order.
     */
    private readonly delivery?: Delivery<T>,
  ) {}

  push(result: T): void {
    if (this.#done) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      if (this.delivery?.write(result) === true) return;
      this.#waiting = undefined;
      this.#failWaiting = undefined;
      waiting({ value: result, done: false });
      return;
    }
    this.#buffer.push(result);
    if (this.#buffer.length > this.size) this.#buffer.shift();
  }

  /** The source ended (or failed): what is queued is still delivered, then the end. */
  end(error?: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#error = error;
    const waiting = this.#waiting;
    const fail = this.#failWaiting;
    this.#waiting = undefined;
    this.#failWaiting = undefined;
    if (error !== undefined) fail?.(error);
    else waiting?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    const queued = this.#buffer.shift();
    if (queued !== undefined) return Promise.resolve({ value: queued, done: false });
    if (this.#done) {
      if (this.#error !== undefined) {
        const error = this.#error;
        this.#error = undefined;
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.#waiting = resolve;
      this.#failWaiting = reject;
    });
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.#done) {
      this.#done = true;
      this.#buffer.length = 0;
      this.#waiting?.({ value: undefined, done: true });
      this.#waiting = undefined;
      this.#failWaiting = undefined;
      this.onLeave();
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
