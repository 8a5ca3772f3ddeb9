/**
 * Response compression for every answer the gateway writes over HTTP
 * (yoga's, the result-cache fast path's, refusals), by the `compression`
 * middleware on Node's own zlib: brotli or gzip as the client's
 * `Accept-Encoding` prefers (brotli when it weighs them equally), only
 * above a size threshold (below it the headers would outweigh the saving),
 * and never for streams whose events must reach the client when written.
 *
 * A request with no `Accept-Encoding` at all (most API clients, curl,
 * load generators) can only be answered as it is: it skips the middleware,
 * whose header hooks and negotiation cost about 5 % of an executed
 * operation's CPU, and gets the `Vary: Accept-Encoding` the middleware
 * would have added, set once before the handler runs (a handler that sets
 * its own `Vary` replaces it).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { constants } from 'node:zlib';
import compression from 'compression';

export interface CompressionOptions {
  /** Bodies smaller than this are sent as they are. @default 1_024 */
  readonly thresholdBytes?: number;
}

/**
 * Server-sent events (subscriptions over SSE) and multipart answers
 * (incremental delivery, subscriptions over multipart) are streams: a
 * compressor would hold each event until it had a block to emit.
 */
const streamingType = /^\s*(?:text\/event-stream|multipart\/)/i;

/** connect-style middleware; `compression` works on Node's own request and response. */
type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export function compressResponses(
  { thresholdBytes = 1_024 }: CompressionOptions,
  next: RequestListener,
): RequestListener {
  const middleware = compression({
    threshold: thresholdBytes,
    // Fast enough for answers made per request (brotli's default quality, 11, takes seconds on a few MB).
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    level: 6,
    filter: (req, res) => {
      const type = res.getHeader('content-type');
      if (typeof type === 'string' && streamingType.test(type)) return false;
      return compression.filter(req, res);
    },
  }) as unknown as Middleware;
  return (req, res) => {
    if (req.headers['accept-encoding'] === undefined) {
      res.setHeader('vary', 'Accept-Encoding');
      return next(req, res);
    }
    middleware(req, res, () => next(req, res));
  };
}
