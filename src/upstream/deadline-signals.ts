/**
 * One timer per operation deadline, shared by every upstream request in
 * flight against it.
 *
 * The requests of one operation carry the same deadline (epoch ms) and
 * must all be cut when it passes; a timer of their own per request (six
 * for a typical cold operation) was measurable CPU for no gain. The shared
 * timer is cleared as soon as the last request holding it has its answer,
 * so it never fires for a deadline nothing waits on. Two operations with
 * the same deadline share it too: it fires at the same moment either way.
 *
 * No AbortController: each holder is told through its own `onAbort`, set
 * by the request it belongs to. An AbortSignal cost an EventTarget per
 * deadline and a listener added and removed per request (undici's), about
 * as much CPU as the timer it replaced.
 */

export interface DeadlineSignal {
  /** True once its deadline's timer has fired (also read after `release`, by a request that failed: was it the deadline?). */
  readonly aborted: boolean;
  /** Called once when the deadline passes while this is held, never after `release`. */
  onAbort: (() => void) | undefined;
  /** The request holding it has its answer (or failed): call once. */
  release(): void;
}

interface Shared {
  readonly deadline: number;
  readonly timer: NodeJS.Timeout;
  /** Every hold of this deadline (released ones too: the list goes with the deadline, six or so entries). */
  readonly holders: Held[];
  /** Holds not released yet. */
  held: number;
  aborted: boolean;
}

class Held implements DeadlineSignal {
  onAbort: (() => void) | undefined = undefined;
  #released = false;

  constructor(
    private readonly shared: Shared,
    /** The deadlines with a timer running (DeadlineSignals'): the last holder's release takes its deadline out. */
    private readonly running: Map<number, Shared>,
  ) {}

  get aborted(): boolean {
    return this.shared.aborted;
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.onAbort = undefined;
    const shared = this.shared;
    shared.held -= 1;
    if (shared.held > 0) return;
    clearTimeout(shared.timer);
    if (this.running.get(shared.deadline) === shared) this.running.delete(shared.deadline);
  }
}

export class DeadlineSignals {
  readonly #byDeadline = new Map<number, Shared>();

  /** A signal that aborts at `deadline` (epoch ms), `remainingMs` from now. */
  hold(deadline: number, remainingMs: number): DeadlineSignal {
    const shared = this.#byDeadline.get(deadline) ?? this.#start(deadline, remainingMs);
    const held = new Held(shared, this.#byDeadline);
    shared.holders.push(held);
    shared.held += 1;
    return held;
  }

  #start(deadline: number, remainingMs: number): Shared {
    const timer = setTimeout(() => {
      // Aborted: a request asking for this deadline later gets a fresh signal (it is refused before sending anyway).
      if (this.#byDeadline.get(deadline) === shared) this.#byDeadline.delete(deadline);
      shared.aborted = true;
      // A released hold has no onAbort left.
      for (const held of shared.holders) held.onAbort?.();
    }, remainingMs);
    const shared: Shared = { deadline, timer, holders: [], held: 0, aborted: false };
    this.#byDeadline.set(deadline, shared);
    return shared;
  }
}
