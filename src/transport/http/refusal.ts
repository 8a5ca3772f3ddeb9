/**
 * Coded answers written straight to a Node response, for the parts of the
 * front door that run before yoga (host check, body limit, request guard,
 * HTTP parse errors). The body has the shape the client of that path reads:
 * `{"error": {"code", "message"}}` under `/images` (the image routes' own
 * shape), a GraphQL `{"errors": [{message, extensions: {code}}]}` elsewhere.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Code } from '../../codes/error-codes.js';

export interface Refusal {
  readonly status: number;
  /** Stable: registered in src/codes/error-codes.ts, documented in docs/errors.md. */
  readonly code: Code;
  readonly message: string;
}

const imagePath = /^\/images(?:[/?]|$)/;

/** The JSON body of a refusal for a request to `url` (path and query). */
export function refusalBody(url: string | undefined, refusal: Refusal): string {
  if (url !== undefined && imagePath.test(url))
    return JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
  return JSON.stringify({ errors: [{ message: refusal.message, extensions: { code: refusal.code } }] });
}

/**
 * Answers `refusal` and closes the connection, since the request body may
 * not have been read. A response already under way cannot change its
 * status: the socket is cut instead, which the client sees as an error.
 */
export function writeRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const body = refusalBody(req.url, refusal);
  res.writeHead(refusal.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    connection: 'close',
  });
  res.end(body);
}

/**
 * Answers `refusal` on a bare socket (an upgrade request, or a request Node
 * could not parse: there is no response object), then closes it once the
 * answer is flushed.
 */
export function writeRawRefusal(
  socket: Duplex,
  url: string | undefined,
  refusal: Refusal,
  headers: Record<string, string> = {},
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = refusalBody(url, refusal);
  const lines = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    'connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.once('finish', () => socket.destroy());
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
