/**
 * One abort signal per operation deadline, shared by every upstream request
 * in flight against it.
 *
 * The requests of one operation carry the same deadline (epoch ms) and
 * must all be cut when it passes; a controller and a timer of their own
 * per request (six for a typical cold operation) was measurable CPU for no
 * gain. The shared timer is cleared as soon as the last request holding it
 * has its answer, so it never fires for a deadline nothing waits on (and
 * never builds the DOMException an `AbortSignal.timeout` would). Two
 * operations with the same deadline share it too: it fires at the same
 * moment either way.
 */
import { setMaxListeners } from 'node:events';

export interface DeadlineSignal {
  readonly signal: AbortSignal;
  /** The request holding it has its answer (or failed): call once. */
  release(): void;
}

interface Shared {
  readonly controller: AbortController;
  readonly timer: NodeJS.Timeout;
  holders: number;
}

export class DeadlineSignals {
  readonly #byDeadline = new Map<number, Shared>();

  /** A signal that aborts at `deadline` (epoch ms), `remainingMs` from now. */
  hold(deadline: number, remainingMs: number): DeadlineSignal {
    const shared = this.#byDeadline.get(deadline) ?? this.#start(deadline, remainingMs);
    shared.holders += 1;
    let released = false;
    return {
      signal: shared.controller.signal,
      release: () => {
        if (released) return;
        released = true;
        shared.holders -= 1;
        if (shared.holders > 0) return;
        clearTimeout(shared.timer);
        if (this.#byDeadline.get(deadline) === shared) this.#byDeadline.delete(deadline);
      },
    };
  }

  #start(deadline: number, remainingMs: number): Shared {
    const controller = new AbortController();
    // Every request of a wide operation listens on it: not a leak.
    setMaxListeners(0, controller.signal);
    const timer = setTimeout(() => {
      // Aborted: a request asking for this deadline later gets a fresh signal (it is refused before sending anyway).
      if (this.#byDeadline.get(deadline) === shared) this.#byDeadline.delete(deadline);
      controller.abort();
    }, remainingMs);
    const shared: Shared = { controller, timer, holders: 0 };
    this.#byDeadline.set(deadline, shared);
    return shared;
  }
}
