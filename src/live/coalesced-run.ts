/**
 * One asynchronous step that never overlaps itself: asked while it runs, it
 * runs once more right after, however many times it was asked meanwhile.
 * The lease loops (cluster-feed-source.ts, cluster-loop.ts) tick on a timer
 * and on events; a tick must see the outcome of the one before it.
 */
export class CoalescedRun {
  readonly #step: () => Promise<void>;
  /** False stops a rerun (the owner closed or went idle). */
  readonly #active: () => boolean;
  readonly #onError: (error: unknown) => void;
  #running = false;
  #again = false;

  constructor(step: () => Promise<void>, active: () => boolean, onError: (error: unknown) => void) {
    this.#step = step;
    this.#active = active;
    this.#onError = onError;
  }

  request(): void {
    if (!this.#active()) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    void (async () => {
      try {
        do {
          this.#again = false;
          await this.#step();
        } while (this.#again && this.#active());
      } catch (error) {
        this.#onError(error);
      } finally {
        this.#running = false;
      }
    })();
  }
}
