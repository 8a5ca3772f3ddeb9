/**
 * ws reports a client's protocol violation on its socket (a message over
 * `maxPayload`, invalid UTF-8, an unmasked frame, a bad close code) as an
 * `error` event, after it has already closed the socket with the code that
 * says so (1009, 1007, 1002). graphql-ws's ws adapter prints every socket
 * error with its stack as "Internal error emitted on a WebSocket socket.
 * Please check your implementation." and tries to close with 4500: an
 * alarming trace in the logs for what is the client's mistake, answered
 * correctly. Those errors are logged at debug level instead and never
 * reach graphql-ws's listener; any other socket error still does.
 */
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';

/** ws's receiver codes: each names something the peer sent (node_modules/ws/lib/receiver.js). */
export function isPeerProtocolError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('WS_ERR_');
}

/**
 * Must be called after graphql-ws's `useServer` on the same server: it takes
 * over the `error` listeners graphql-ws adds to each socket it is given.
 */
export function quietPeerProtocolErrors(wsServer: WebSocketServer, logger: Pick<Logger, 'debug'>): void {
  wsServer.on('connection', (socket: WebSocket) => {
    const others = socket.listeners('error') as Array<(error: Error) => void>;
    socket.removeAllListeners('error');
    socket.on('error', (error: Error) => {
      if (isPeerProtocolError(error)) {
        logger.debug(
          { code: (error as Error & { code: string }).code, reason: error.message },
          'a WebSocket client broke the protocol; its socket is closed',
        );
        return;
      }
      for (const listener of others) listener.call(socket, error);
    });
  });
}
