/**
 * Request body size, enforced on the raw Node request before yoga reads
 * it: a declared `content-length` over the bound is answered 413 at once,
 * and a chunked body that grows past it is cut off.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

function refuse(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ errors: [{ message: 'Request body too large.', extensions: { code: 'PAYLOAD_TOO_LARGE' } }] });
  res.writeHead(413, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(body);
}

export function limitRequestBody(maxBytes: number, next: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      refuse(res);
      return;
    }
    let seen = 0;
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) {
        refuse(res);
        req.destroy();
      }
    });
    next(req, res);
  };
}
