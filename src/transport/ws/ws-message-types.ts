/**
 * A client that sends graphql-ws a message only a server may send
 * (`connection_ack`, `next`, `error`) passes graphql-ws's shape check and
 * then makes it throw "Unexpected message", which its ws adapter answers
 * by closing with 4500 Internal Server Error. Such a message is a bad
 * request: the socket is closed with 4400 before graphql-ws reads it (its
 * own close then finds the socket closing and sends nothing).
 */
import type { WebSocket, WebSocketServer } from 'ws';
import { CloseCode } from '../../codes/close-codes.js';

const serverOnlyTypes = new Set(['connection_ack', 'next', 'error']);
// Only a message that names one of them is parsed here; every other one is graphql-ws's alone.
const mentionsServerType = /"(?:connection_ack|next|error)"/;

export function refuseServerMessageTypes(wsServer: WebSocketServer): void {
  wsServer.on('connection', (socket: WebSocket) => {
    // Prepended: runs before graphql-ws's own listener, whatever the order the two were added in.
    socket.prependListener('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const text = String(data);
      if (!mentionsServerType.test(text)) return;
      let type: unknown;
      try {
        type = (JSON.parse(text) as { type?: unknown } | null)?.type;
      } catch {
        // Not JSON: graphql-ws closes with 4400 itself.
        return;
      }
      if (typeof type === 'string' && serverOnlyTypes.has(type))
        socket.close(CloseCode.BadRequest, 'Invalid message received');
    });
  });
}
