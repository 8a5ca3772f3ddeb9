/**
 * Request body size, enforced on the raw Node request before yoga reads
 * it: a declared `content-length` over the bound is answered 413 at once,
 * and a chunked body that grows past it is cut off.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { guarded, type ReportError } from './http/request-guard.js';
import { writeRefusal, type Refusal } from './http/refusal.js';

const tooLarge: Refusal = { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body too large.' };

export function limitRequestBody(maxBytes: number, next: RequestListener, report: ReportError): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      writeRefusal(req, res, tooLarge);
      return;
    }
    let seen = 0;
    req.on(
      'data',
      guarded(req, res, report, (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > maxBytes) {
          writeRefusal(req, res, tooLarge);
          req.destroy();
        }
      }),
    );
    next(req, res);
  };
}
