/**
 * graphql-ws's bound on the wait for `connection_init` (4408 Connection
 * initialisation timeout, 3 s after the upgrade), kept by one shared timer
 * instead of graphql-ws's timer per socket. graphql-ws clears its timer only
 * when the socket closes, and its closure keeps the timer object for as long
 * as the socket lives: a couple of hundred bytes on every idle subscriber.
 *
 * Sockets wait in insertion order, so the sweep stops at the first socket
 * still within its bound; a socket leaves when its `connection_init`
 * arrives or it closes. The sweep runs every tenth of the bound: a socket
 * that never initialises is closed between 3 s and 3.3 s after the upgrade.
 */
import type { WebSocket } from 'ws';
import { CloseCode } from '../../codes/close-codes.js';

export const INIT_TIMEOUT_CLOSE = {
  code: CloseCode.ConnectionInitialisationTimeout,
  reason: 'Connection initialisation timeout',
} as const;

export class InitWait {
  readonly #waitMs: number;
  /** Sockets with no `connection_init` yet, and when they opened, oldest first. */
  readonly #since = new Map<WebSocket, number>();
  readonly #timer: NodeJS.Timeout;
  /** Shared by every socket (`this` is the socket): no closure per socket. */
  readonly #forget: (this: WebSocket) => void;

  constructor(waitMs: number) {
    this.#waitMs = waitMs;
    const since = this.#since;
    this.#forget = function forget(this: WebSocket): void {
      since.delete(this);
    };
    this.#timer = setInterval(() => this.#sweep(), Math.max(10, Math.floor(waitMs / 10)));
    this.#timer.unref();
  }

  /** A new socket: it has `waitMs` to send `connection_init`. */
  watch(socket: WebSocket): void {
    this.#since.set(socket, Date.now());
    socket.on('close', this.#forget);
  }

  /** `connection_init` arrived on `socket`. */
  initialised(socket: WebSocket): void {
    this.#since.delete(socket);
  }

  /** Sockets waiting now. */
  get size(): number {
    return this.#since.size;
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #sweep(): void {
    const before = Date.now() - this.#waitMs;
    for (const [socket, since] of this.#since) {
      if (since > before) return;
      this.#since.delete(socket);
      if (socket.readyState === socket.OPEN) socket.close(INIT_TIMEOUT_CLOSE.code, INIT_TIMEOUT_CLOSE.reason);
    }
  }
}
