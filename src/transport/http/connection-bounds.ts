/**
 * How many connections the gateway holds, and for how long.
 *
 * - **Slow requests.** Node's `headersTimeout` and `requestTimeout`, set
 *   explicitly (Node's own request bound is 300 s), checked every second
 *   rather than Node's 30 s, so that a request whose body trickles in a
 *   byte at a time is cut within about `requestTimeoutMs`. Node answers
 *   408 through `clientError`, which src/transport/http/client-errors.ts codes
 *   `REQUEST_TIMEOUT`.
 * - **A cap on open connections** (HTTP and WebSocket alike: an upgraded
 *   socket stays counted until it closes). A connection past the cap is
 *   answered 503 `TOO_MANY_CONNECTIONS` on its first request or upgrade,
 *   with `Retry-After`, and closed; one that sends nothing is closed after
 *   `refusalGraceMs`. So that refusing costs little, Node's own
 *   `maxConnections` drops (unanswered) any beyond the cap plus a tenth.
 *   Node's `maxConnections` alone would close every connection past the
 *   cap without a word, and a client could not tell it from a network fault.
 */
import type { IncomingMessage, RequestListener, Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Code } from '../../codes/error-codes.js';
import { writeRawRefusal, writeRefusal, type Refusal } from './refusal.js';

export interface ConnectionBoundsOptions {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxConnections: number;
  /** How long a connection past the cap may take to send its request before it is closed unanswered. @default 1_000 */
  readonly refusalGraceMs?: number;
}

export const tooManyConnections: Refusal = {
  status: 503,
  code: Code.TOO_MANY_CONNECTIONS,
  message: 'The gateway holds as many connections as it may; try again shortly.',
};
const RETRY_AFTER = { 'retry-after': '1' };

/** The options `createServer` must be given (Node reads the checking interval only there). */
export function serverTimeouts(
  options: Pick<ConnectionBoundsOptions, 'headersTimeoutMs' | 'requestTimeoutMs'>,
): Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'> {
  return {
    headersTimeout: options.headersTimeoutMs,
    requestTimeout: options.requestTimeoutMs,
    // Node's default checks every 30 s: a 10 s bound would act after up to 40 s.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(options.headersTimeoutMs / 2))),
  };
}

export class ConnectionCap {
  readonly #max: number;
  readonly #graceMs: number;
  /** Connections past the cap, waiting to be answered 503. */
  readonly #refused = new WeakSet<Duplex>();
  #served = 0;

  constructor(options: ConnectionBoundsOptions) {
    this.#max = options.maxConnections;
    this.#graceMs = options.refusalGraceMs ?? 1_000;
  }

  /** Counts `server`'s connections from now on. */
  attach(server: Server): void {
    server.maxConnections = this.#max + Math.max(16, Math.ceil(this.#max / 10));
    server.on('connection', (socket: Socket) => this.#accept(socket));
  }

  /** Connections served now (not counting those being refused). */
  get served(): number {
    return this.#served;
  }

  /** `next`, except on a connection past the cap: answered 503 `TOO_MANY_CONNECTIONS` and closed. */
  guard(next: RequestListener): RequestListener {
    return (req, res) => {
      if (!this.#refused.has(req.socket)) {
        next(req, res);
        return;
      }
      req.resume();
      res.setHeader('retry-after', RETRY_AFTER['retry-after']);
      writeRefusal(req, res, tooManyConnections);
    };
  }

  /** True when the upgrade came on a connection past the cap: it has been answered 503 and is closing. */
  refusesUpgrade(req: IncomingMessage, socket: Duplex): boolean {
    if (!this.#refused.has(socket)) return false;
    writeRawRefusal(socket, req.url, tooManyConnections, RETRY_AFTER);
    return true;
  }

  readonly #release = (): void => {
    this.#served -= 1;
  };

  #accept(socket: Socket): void {
    if (this.#served < this.#max) {
      this.#served += 1;
      // One shared listener ('close' is emitted once): no closure and no once() wrapper per connection.
      socket.on('close', this.#release);
      return;
    }
    this.#refused.add(socket);
    const grace = setTimeout(() => socket.destroy(), this.#graceMs);
    grace.unref();
    socket.once('close', () => clearTimeout(grace));
  }
}
