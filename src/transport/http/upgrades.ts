/**
 * WebSocket upgrades are routed here rather than by ws's own `upgrade`
 * listener, so that every refusal is coded like any other answer of the
 * gateway: an upgrade to another path (ws answered a bare 400), a malformed
 * upgrade request (ws's `wsClientError`: an HTTP method other than GET, a
 * missing or invalid key, version or subprotocol header), and an exception
 * in the upgrade itself, which ws would let escape as an uncaught one. The
 * host and origin checks run inside, as ws's `verifyClient`
 * (src/transport/http/host-check.ts).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { Code } from '../../codes/error-codes.js';
import type { ReportError } from './request-guard.js';
import { writeRawRefusal, type Refusal } from './refusal.js';

const notFound: Refusal = { status: 404, code: Code.NOT_FOUND, message: 'No WebSocket is served at this path.' };
const internalError: Refusal = {
  status: 500,
  code: Code.INTERNAL_SERVER_ERROR,
  message: 'The gateway could not answer this request.',
};

/** ws names what was wrong in its error's message; only the method has a status of its own. */
function upgradeRefusal(error: Error): { refusal: Refusal; headers: Record<string, string> } {
  if (error.message === 'Invalid HTTP method')
    return {
      refusal: { status: 405, code: Code.METHOD_NOT_ALLOWED, message: 'A WebSocket upgrade is a GET.' },
      headers: { allow: 'GET' },
    };
  const headers: Record<string, string> = error.message.includes('Sec-WebSocket-Version')
    ? { 'sec-websocket-version': '13, 8' }
    : {};
  return {
    refusal: {
      status: 400,
      code: Code.BAD_WEBSOCKET_UPGRADE,
      message: `The WebSocket upgrade request is not valid: ${error.message}.`,
    },
    headers,
  };
}

/**
 * Shared by every upgraded socket (`this` is the socket). A closure made in
 * the upgrade listener would share its scope with the one that hands ws the
 * request, and so keep the whole `IncomingMessage` alive for as long as the
 * socket lives.
 */
function destroyOnError(this: Duplex): void {
  this.destroy();
}

/** Answers an upgrade before routing it (a connection past the cap, src/transport/http/connection-bounds.ts); true when it did. */
export type UpgradeGate = (req: IncomingMessage, socket: Duplex) => boolean;

export function routeUpgrades(
  server: Server,
  wsServer: WebSocketServer,
  report: ReportError,
  gate?: UpgradeGate,
): void {
  wsServer.on('wsClientError', (error: Error, socket: Duplex, req: IncomingMessage) => {
    const { refusal, headers } = upgradeRefusal(error);
    writeRawRefusal(socket, req.url, refusal, headers);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node lets go of the socket for an upgrade: a reset with no listener would be an uncaught error.
    socket.on('error', destroyOnError);
    try {
      if (gate?.(req, socket) === true) return;
      if (!wsServer.shouldHandle(req)) {
        writeRawRefusal(socket, req.url, notFound);
        return;
      }
      wsServer.handleUpgrade(req, socket, head, (client: WebSocket) => wsServer.emit('connection', client, req));
    } catch (error) {
      report(error, req);
      writeRawRefusal(socket, req.url, internalError);
    }
  });
}
