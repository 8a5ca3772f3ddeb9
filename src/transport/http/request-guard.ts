/**
 * Everything that runs before yoga on a Node request (the host check, the
 * body limit, the result-cache fast path) runs inside this guard: an
 * exception there becomes a coded 500 (`INTERNAL_SERVER_ERROR`) on that one
 * request, logged, instead of an uncaught exception that ends the process
 * and every other client's requests with it. Callbacks those handlers
 * register on the request (`data`, `end`) run later, outside any try, so
 * they are wrapped with `guarded` too.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Code } from '../../codes/error-codes.js';
import { writeRefusal, type Refusal } from './refusal.js';

/** Told about every exception a guard caught, with the request it broke. */
export type ReportError = (error: unknown, req: IncomingMessage) => void;

const internalError: Refusal = {
  status: 500,
  code: Code.INTERNAL_SERVER_ERROR,
  message: 'The gateway could not answer this request.',
};

function answerInternalError(req: IncomingMessage, res: ServerResponse, error: unknown, report: ReportError): void {
  try {
    report(error, req);
  } catch {
    // A failing logger must not turn one broken request into a crash.
  }
  try {
    writeRefusal(req, res, internalError);
  } catch {
    res.destroy();
  }
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/** `fn`, with any throw or rejection answered as a coded 500 on `res`. */
export function guarded<A extends unknown[]>(
  req: IncomingMessage,
  res: ServerResponse,
  report: ReportError,
  fn: (...args: A) => unknown,
): (...args: A) => void {
  return (...args: A) => {
    try {
      const result = fn(...args);
      if (isThenable(result)) result.then(undefined, (error: unknown) => answerInternalError(req, res, error, report));
    } catch (error) {
      answerInternalError(req, res, error, report);
    }
  };
}

/** The outermost request listener: `next` with its throws and rejections answered (no closure per request: the warm path is hot). */
export function guardRequests(next: RequestListener, report: ReportError): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    try {
      const result: unknown = next(req, res);
      if (isThenable(result)) result.then(undefined, (error: unknown) => answerInternalError(req, res, error, report));
    } catch (error) {
      answerInternalError(req, res, error, report);
    }
  };
}
