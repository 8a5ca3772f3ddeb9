/**
 * Request body size, enforced on the raw Node request before yoga reads
 * it: a declared `content-length` over the bound is answered 413 at once,
 * and a chunked body that grows past it is cut off.
 *
 * A body within the bound is read here, whole, and handed on as the
 * request's `body` (a Buffer): @whatwg-node/server reads that instead of
 * the stream, so yoga's own body limit, which wraps every request in a new
 * Request, a TransformStream and an AbortSignal, is off (src/gateway/graphql-yoga.ts), and
 * the result-cache fast path reads the same Buffer. The bound is at most
 * LIMIT_MAX_BODY_BYTES (100 KiB by default), so holding it costs nothing
 * a stream would have saved.
 *
 * The body of a POST that yoga would parse as JSON (json-post.ts) is kept
 * aside instead, where `bufferedBody` finds it: yoga's parser for it is
 * src/plugins/use-buffered-json.ts, which parses these bytes, and
 * @whatwg-node/server, given a Buffer as `body`, would first list its
 * every index (`Object.keys`) to see that it is not empty, a visible part
 * of an executed operation's CPU. No yoga plugin reads such a body
 * through its Fetch `Request`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Code } from '../../codes/error-codes.js';
import { isJsonPost } from './json-post.js';
import { guarded, type ReportError } from './request-guard.js';
import { writeRefusal, type Refusal } from './refusal.js';

const tooLarge: Refusal = { status: 413, code: Code.PAYLOAD_TOO_LARGE, message: 'Request body too large.' };

/**
 * Where a JSON POST's body is kept, out of @whatwg-node/server's sight (see
 * above): a symbol-keyed property, which it never reads, rather than a
 * WeakMap entry per request (measurably dearer on the warm path).
 */
const jsonBody = Symbol('sports-graph.jsonBody');
type WithBodies = IncomingMessage & { body?: unknown; [jsonBody]?: Buffer };

/** The request's body as read by `limitRequestBody`: absent when it was empty. */
export function bufferedBody(req: IncomingMessage): Buffer | undefined {
  const { body, [jsonBody]: json } = req as WithBodies;
  return json ?? (Buffer.isBuffer(body) ? body : undefined);
}

/** The body of a POST yoga would parse as JSON, when it was not empty: its parser's (src/plugins/use-buffered-json.ts). */
export function jsonPostBody(req: IncomingMessage): Buffer | undefined {
  return (req as WithBodies)[jsonBody];
}

/** Whether the request announces a body: a positive length or a transfer coding (chunked). */
function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

export function limitRequestBody(maxBytes: number, next: RequestListener, report: ReportError): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      writeRefusal(req, res, tooLarge);
      return;
    }
    // No body to read: yoga reads the (empty) stream as it always has.
    if (!announcesBody(req)) {
      next(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    let seen = 0;
    req.on(
      'data',
      guarded(req, res, report, (chunk: Buffer) => {
        if (seen > maxBytes) return;
        seen += chunk.length;
        if (seen > maxBytes) {
          chunks.length = 0;
          writeRefusal(req, res, tooLarge);
          req.destroy();
          return;
        }
        chunks.push(chunk);
      }),
    );
    // An aborted or over-long body never ends: nothing is handed on.
    req.once(
      'end',
      guarded(req, res, report, () => {
        if (res.headersSent || res.destroyed) return;
        const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        // @whatwg-node/server takes a non-empty `body` as the request's body; an empty one is left unset (the ended stream reads as empty).
        if (body.length > 0) {
          if (isJsonPost(req.method, req.headers['content-type'])) (req as WithBodies)[jsonBody] = body;
          else Object.assign(req, { body });
        }
        next(req, res);
      }),
    );
  };
}
