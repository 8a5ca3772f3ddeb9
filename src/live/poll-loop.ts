/**
 * The loop the live ticker and each baseball lineup watch poll through: it
 * says when this replica is the one to poll. Alone (`loopsAlone`), it is
 * whenever this replica has listeners; in a cluster (cluster-loop.ts), one
 * replica polls for all of them. The state backend (src/state/open-state.ts)
 * chooses which; the ticker and the lineup poller see only this interface.
 */

export interface LoopHandlers {
  /** This replica is the only one: it polls from now on, beginning at once. */
  start(): void;
  /** This replica polls from now on, going on from the last poll anybody made (it took the cluster's loop). */
  run(): void;
  /** Another replica polls from now on, or this one has no listeners left: stop polling. */
  halt(): void;
  /** What the polling replica published. */
  receive(value: string): void;
}

export interface PollLoop {
  /** True while this replica is the one to poll. */
  readonly running: boolean;
  /** This replica has listeners: it polls, or follows the replica that does. */
  join(): void;
  /** No listeners left here: stop polling (and let another replica take the loop). */
  leave(): void;
  /**
   * What a poll found, for the other replicas' listeners and (unless
   * `board` is false: an outcome only the present listeners should see)
   * the board.
   */
  publish(value: string, options?: { board?: boolean }): void;
  /** The last value the polling replica published, if any is kept. */
  latest(): Promise<string | undefined>;
}

/** Makes the loop of one name (`ticker`, `lineups:{matchId}`); `boardTtlMs`: how long its last value is kept. */
export type PollLoops = (name: string, boardTtlMs: number, handlers: LoopHandlers) => PollLoop;

/** A gateway alone polls while it has listeners, and has nobody to tell. */
class LoopAlone implements PollLoop {
  #joined = false;

  constructor(private readonly handlers: LoopHandlers) {}

  get running(): boolean {
    return this.#joined;
  }

  join(): void {
    if (this.#joined) return;
    this.#joined = true;
    this.handlers.start();
  }

  leave(): void {
    if (!this.#joined) return;
    this.#joined = false;
    this.handlers.halt();
  }

  publish(): void {}

  latest(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }
}

export const loopsAlone: PollLoops = (_name, _boardTtlMs, handlers) => new LoopAlone(handlers);
