/**
 * graphql-ws's server (`makeServer`, its supported transport-neutral API)
 * on the gateway's ws server: what graphql-ws's own `useServer` for ws does,
 * with three differences that matter at 10,000 sockets:
 *
 * - the connection's `extra` keeps what later code reads of the upgrade
 *   request (src/transport/ws/upgrade-request.ts), not the `IncomingMessage`;
 * - dead peers are found by one shared sweep (src/transport/ws/keep-alive.ts), not
 *   by a ping interval and a pong timer per socket, and the wait for
 *   `connection_init` (4408 after 3 s) is one shared sweep too
 *   (src/transport/ws/init-wait.ts), not a timer per socket that graphql-ws
 *   keeps for the socket's whole life;
 * - each socket's adapter is one small object whose methods are shared,
 *   rather than a set of closures.
 *
 * The rest is `useServer`'s, unchanged: the subprotocol negotiation, an
 * error on a socket closes it with 4500 (src/transport/ws/ws-peer-errors.ts relies
 * on that listener), a failing message handler closes with 4500, and
 * `dispose` closes every socket with 1001 Going Away before stopping the
 * ws server.
 */
import type { IncomingMessage } from 'node:http';
import { handleProtocols, makeServer, type ServerOptions, type WebSocket as ProtocolSocket } from 'graphql-ws';
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';
import { CloseCode } from '../../codes/close-codes.js';
import { InitWait } from './init-wait.js';
import { KeepAliveSweep } from './keep-alive.js';
import { keptOfUpgrade, type UpgradeRequest } from './upgrade-request.js';

export interface WsExtra {
  readonly socket: WebSocket;
  readonly request: UpgradeRequest;
}

export interface GraphqlWsOnWs {
  /** Closes every socket with 1001 Going Away, then stops the ws server. */
  dispose(): Promise<void>;
  /** Stops the keep-alive sweep's timer. */
  stop(): void;
}

/** `useServer`'s default: a ping every 12 s, each given 12 s to be answered. */
const KEEP_ALIVE_MS = 12_000;
/** graphql-ws's default wait for `connection_init`. */
const CONNECTION_INIT_WAIT_MS = 3_000;

/** `useServer`'s close reason for an internal error, limited as it limits it (a close reason is at most 123 bytes). */
function internalReason(error: unknown, isProd: boolean): string {
  if (isProd) return 'Internal server error';
  const message = error instanceof Error ? error.message : String(error);
  return message.length < 124 ? message : 'Internal server error';
}

/** graphql-ws's view of one ws socket. */
class SocketAdapter implements ProtocolSocket {
  readonly protocol: string;

  constructor(
    private readonly socket: WebSocket,
    private readonly isProd: boolean,
    private readonly logger: Logger,
  ) {
    this.protocol = socket.protocol;
  }

  send(data: string): Promise<void> {
    const socket = this.socket;
    return new Promise((resolve, reject) => {
      if (socket.readyState !== socket.OPEN) {
        resolve();
        return;
      }
      socket.send(data, (error) => (error ? reject(error) : resolve()));
    });
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  onMessage(handle: (data: string) => Promise<void>): void {
    const { socket, isProd, logger } = this;
    const failed = (error: unknown): void => {
      logger.error({ err: error }, 'graphql-ws: a message handler failed; the socket is closed with 4500');
      socket.close(CloseCode.InternalServerError, internalReason(error, isProd));
    };
    // Not an async function awaiting the handler: a subscribe's handler runs for as long as the
    // subscription lasts, and a suspended frame here would hold the message's Buffer (and a
    // generator and its registers) for all that time: about 800 bytes per idle subscriber.
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      handle(String(data)).catch(failed);
    });
  }
}

export interface OnWsOptions {
  /** Where `useServer` wrote to the console: an error on the server, a socket or a message handler. */
  readonly logger: Logger;
  /** @default 12_000, useServer's */
  readonly keepAliveMs?: number;
}

export function serveOnWs<P extends Record<string, unknown>>(
  options: ServerOptions<P, WsExtra>,
  wsServer: WebSocketServer,
  { logger, keepAliveMs = KEEP_ALIVE_MS }: OnWsOptions,
): GraphqlWsOnWs {
  const isProd = process.env['NODE_ENV'] === 'production';
  const initWait = new InitWait(options.connectionInitWaitTimeout ?? CONNECTION_INIT_WAIT_MS);
  const server = makeServer({
    ...options,
    // The wait is InitWait's: graphql-ws's own timer would live as long as each socket.
    connectionInitWaitTimeout: 0,
    onConnect: (ctx) => {
      initWait.initialised(ctx.extra.socket);
      return options.onConnect === undefined ? true : options.onConnect(ctx);
    },
  });
  const keepAlive = new KeepAliveSweep(keepAliveMs);
  wsServer.options.handleProtocols = handleProtocols;
  wsServer.once('error', (error: unknown) => {
    logger.error({ err: error }, 'graphql-ws: the WebSocket server failed; every socket is closed with 4500');
    for (const client of wsServer.clients) client.close(CloseCode.InternalServerError, internalReason(error, isProd));
  });
  // Shared by every socket (`this` is the socket).
  function onSocketError(this: WebSocket, error: Error): void {
    logger.error({ err: error }, 'graphql-ws: a socket failed; it is closed with 4500');
    this.close(CloseCode.InternalServerError, internalReason(error, isProd));
  }
  wsServer.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    socket.once('error', onSocketError);
    keepAlive.add(socket);
    initWait.watch(socket);
    const closed = server.opened(new SocketAdapter(socket, isProd, logger), {
      socket,
      request: keptOfUpgrade(request),
    });
    // ws emits 'close' once: `on` spares each socket once()'s wrapper.
    socket.on('close', (code: number, reason: Buffer) => {
      void closed(code, String(reason));
    });
  });
  return {
    dispose: async () => {
      keepAlive.stop();
      initWait.stop();
      for (const client of wsServer.clients) client.close(CloseCode.GoingAway, 'Going away');
      wsServer.removeAllListeners();
      await new Promise<void>((resolve, reject) => wsServer.close((error) => (error ? reject(error) : resolve())));
    },
    stop: () => {
      keepAlive.stop();
      initWait.stop();
    },
  };
}
