/**
 * Requests Node's HTTP parser rejects before any handler sees them (a
 * malformed request line or header, headers over the size bound, a body
 * shorter or longer than its `content-length` followed by garbage) get a
 * coded JSON answer instead of Node's bare `400 Bad Request`, when nothing
 * has been written on the connection yet. The connection is then closed, as
 * Node does.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Code } from '../../codes/error-codes.js';
import { writeRawRefusal, type Refusal } from './refusal.js';

function refusalFor(error: NodeJS.ErrnoException): Refusal {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: Code.REQUEST_HEADERS_TOO_LARGE, message: 'The request headers are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: Code.REQUEST_TIMEOUT, message: 'The request was not received in time.' };
    default:
      return { status: 400, code: Code.BAD_HTTP_REQUEST, message: 'The request is not valid HTTP.' };
  }
}

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    // Closed once the answer is flushed: the parser cannot read past the error.
    if (error.code !== 'ECONNRESET' && socket.bytesWritten === 0) writeRawRefusal(socket, undefined, refusalFor(error));
    else socket.destroy();
  });
}
