/**
 * HTTP/1.1 spoken by hand over a TCP socket, for tests that must send what
 * fetch and node:http refuse to send (a `content-length` that lies, bytes
 * that are not UTF-8, any `Host`). One request per connection
 * (`connection: close`): the answer is everything the server writes until
 * it closes.
 */
import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  path: string;
  /** Sent as given, in order; `connection: close` is added unless a `connection` header is given. */
  headers: Array<[string, string]>;
  body?: Buffer;
  /** Half-close after sending: the server sees the end of the stream (a body shorter than declared ends there). */
  endAfterSend?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Everything the server wrote, or an error when the connection failed before any byte. */
export function sendRaw(
  port: number,
  request: RawRequest,
): Promise<{ response: RawResponse | undefined; bytes: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      const raw = Buffer.concat(chunks);
      resolve({ response: parseResponse(raw)?.response, bytes: raw.length });
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (parseResponse(Buffer.concat(chunks))?.complete === true) finish();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // A reset after an answer is the server closing a connection it will not read further.
      if (chunks.length > 0 || error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
      reject(error);
    });
    socket.once('close', finish);
    socket.once('connect', () => {
      const ownConnection = request.headers.some(([name]) => name.toLowerCase() === 'connection');
      const head = [
        `${request.method} ${request.path} HTTP/1.1`,
        ...request.headers.map(([name, value]) => `${name}: ${value}`),
        ...(ownConnection ? [] : ['connection: close']),
        '',
        '',
      ].join('\r\n');
      socket.write(Buffer.concat([Buffer.from(head, 'latin1'), request.body ?? Buffer.alloc(0)]));
      if (request.endAfterSend === true) socket.end();
    });
  });
}

/** The chunks of a chunked body so far, and whether the last (empty) chunk arrived. */
function decodeChunked(body: Buffer): { body: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) return { body: Buffer.concat(parts), complete: false };
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return { body: Buffer.concat(parts), complete: false };
    if (size === 0) return { body: Buffer.concat(parts), complete: true };
    if (body.length < lineEnd + 2 + size + 2) return { body: Buffer.concat(parts), complete: false };
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The final (non-1xx, or 101) response in `raw` so far, and whether all of it arrived; undefined before its headers. */
export function parseResponse(raw: Buffer): { response: RawResponse; complete: boolean } | undefined {
  let rest = raw;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const [statusLine = '', ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = Number(statusLine.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const body = rest.subarray(headEnd + 4);
    // What follows a 101 is another protocol: the answer is the switch itself.
    if (status === 101) return { response: { status, headers, body: Buffer.alloc(0) }, complete: true };
    if (status >= 100 && status < 200) {
      rest = body;
      continue;
    }
    if ((headers['transfer-encoding'] ?? '').toLowerCase().includes('chunked')) {
      const chunked = decodeChunked(body);
      return { response: { status, headers, body: chunked.body }, complete: chunked.complete };
    }
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      return { response: { status, headers, body: body.subarray(0, length) }, complete: body.length >= length };
    }
    // Neither: the body ends when the server closes.
    return { response: { status, headers, body }, complete: false };
  }
}
