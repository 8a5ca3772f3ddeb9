/**
 * graphql-ws sockets with no operation running are closed after a while.
 * A peer that answers pings but never subscribes would otherwise hold its
 * socket (and a file descriptor) for as long as it likes; the keep-alive
 * sweep (keep-alive.ts) only finds peers that stopped answering.
 *
 * Only idle sockets are in the map, each with when it became idle, and one
 * timer visits them: 10,000 subscribed sockets cost nothing here. The close
 * is 1000 Normal Closure with the reason `Idle timeout`: graphql-ws's client
 * takes 1000 as no error, and reconnects when it next has an operation to
 * run (or at once, if it keeps its connection open on purpose).
 */
import type { WebSocket } from 'ws';
import { CloseCode } from '../../codes/close-codes.js';

export const IDLE_CLOSE = { code: CloseCode.NormalClosure, reason: 'Idle timeout' } as const;

export class IdleSockets {
  readonly #idleMs: number;
  /** Idle sockets and when they became idle. */
  readonly #since = new Map<WebSocket, number>();
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #forget: (this: WebSocket) => void;

  /** `idleMs` 0 turns the bound off. */
  constructor(idleMs: number) {
    this.#idleMs = idleMs;
    const since = this.#since;
    this.#forget = function forget(this: WebSocket): void {
      since.delete(this);
    };
    if (idleMs > 0) {
      // A quarter of the bound: a socket goes between idleMs and 1.25 × idleMs after its last operation ended.
      this.#timer = setInterval(() => this.#sweep(), Math.max(10, Math.floor(idleMs / 4)));
      this.#timer.unref();
    }
  }

  /** A new socket: idle until its first operation. */
  watch(socket: WebSocket): void {
    if (this.#timer === undefined) return;
    this.#since.set(socket, Date.now());
    // ws emits 'close' once: `on` spares each socket once()'s wrapper.
    socket.on('close', this.#forget);
  }

  /** An operation started on `socket`. */
  busy(socket: WebSocket): void {
    this.#since.delete(socket);
  }

  /** The last operation on `socket` ended. */
  idle(socket: WebSocket): void {
    if (this.#timer === undefined || socket.readyState !== socket.OPEN) return;
    this.#since.set(socket, Date.now());
  }

  /** Sockets idle now. */
  get size(): number {
    return this.#since.size;
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #sweep(): void {
    const before = Date.now() - this.#idleMs;
    for (const [socket, since] of this.#since) {
      if (since > before) continue;
      this.#since.delete(socket);
      if (socket.readyState === socket.OPEN) socket.close(IDLE_CLOSE.code, IDLE_CLOSE.reason);
    }
  }
}
