/**
 * Dead peers on the gateway's WebSockets, found by one shared timer instead
 * of graphql-ws's `useServer` pair of timers per socket (a ping interval
 * and a pong deadline, with their closures: a few hundred bytes a socket,
 * 10,000 of them for one match's subscribers).
 *
 * Sockets are dealt round-robin into `slices` groups; each tick (every
 * `intervalMs / slices`) visits one group, so every socket is visited once
 * per `intervalMs`, and the pings of 10,000 sockets are spread over the
 * interval rather than sent in one burst. A visit terminates a socket that
 * has not answered the ping of its previous visit, and pings the others: as
 * with `useServer`, a peer gets `intervalMs` to answer each ping, and a
 * silent one is gone at most two intervals after it stopped answering.
 */
import type { WebSocket } from 'ws';

export class KeepAliveSweep {
  readonly #slices: Array<Set<WebSocket>>;
  /** Pinged and not yet answered. */
  readonly #awaiting = new Set<WebSocket>();
  readonly #timer: NodeJS.Timeout;
  #nextSlice = 0;
  #nextTick = 0;
  /** Shared by every socket (`this` is the socket): no closure per socket. */
  readonly #answered: (this: WebSocket) => void;
  readonly #gone: (this: WebSocket) => void;

  constructor(intervalMs: number, slices = 12) {
    this.#slices = Array.from({ length: slices }, () => new Set<WebSocket>());
    const awaiting = this.#awaiting;
    const groups = this.#slices;
    this.#answered = function answered(this: WebSocket): void {
      awaiting.delete(this);
    };
    this.#gone = function gone(this: WebSocket): void {
      awaiting.delete(this);
      for (const group of groups) group.delete(this);
    };
    this.#timer = setInterval(() => this.#tick(), Math.max(1, Math.floor(intervalMs / slices)));
    this.#timer.unref();
  }

  add(socket: WebSocket): void {
    this.#slices[this.#nextSlice]?.add(socket);
    this.#nextSlice = (this.#nextSlice + 1) % this.#slices.length;
    socket.on('pong', this.#answered);
    // ws emits 'close' once: `on` spares each socket once()'s wrapper (state object and bound function).
    socket.on('close', this.#gone);
  }

  /** Sockets watched (open ones; a socket is forgotten when it closes). */
  get size(): number {
    return this.#slices.reduce((sum, group) => sum + group.size, 0);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #tick(): void {
    const group = this.#slices[this.#nextTick];
    this.#nextTick = (this.#nextTick + 1) % this.#slices.length;
    if (group === undefined) return;
    const silent: WebSocket[] = [];
    for (const socket of group) {
      if (socket.readyState !== socket.OPEN) continue;
      if (this.#awaiting.has(socket)) silent.push(socket);
      else {
        this.#awaiting.add(socket);
        socket.ping();
      }
    }
    // Timers run before the loop reads its sockets: after a stall longer than a tick, a pong may be waiting unread.
    // It is read before `setImmediate` runs, so only a peer still silent then is terminated.
    if (silent.length > 0) {
      setImmediate(() => {
        for (const socket of silent) if (this.#awaiting.has(socket)) socket.terminate();
      });
    }
  }
}
