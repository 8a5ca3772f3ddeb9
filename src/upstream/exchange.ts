/**
 * One GET through an undici Pool, its whole answer collected: the
 * Dispatcher's (client.ts) request below every step.
 *
 * A dispatch handler of its own instead of `pool.request()`: `request()`
 * wraps every answer in an async resource, parses all its headers into an
 * object, streams its body through a Node Readable, copies the body out of
 * it whole (`body.bytes()`), and listens on an AbortSignal. The gateway
 * reads a few headers of an answer (the rate-limit ones, `retry-after`,
 * `content-type`) and wants its body whole: here the headers stay the raw
 * list undici parsed them into, read by name when asked, and the body is
 * the chunks the parser handed over (one, for an answer that came in one
 * read: no copy). About a third of undici's CPU per request on the cold
 * path, and the garbage that went with it.
 *
 * Undici's legacy handler form (onConnect, onHeaders, onData, onComplete,
 * onError): undici 7 calls it as it is, where the newer form gets the
 * headers parsed into an object first (handler/unwrap-handler.js).
 *
 * What stays as it was: the pool's own limits (connect, headers and body
 * timeouts, `maxResponseSize`) and their errors; the deadline cuts the
 * request wherever it is (queued for a connection, waiting, streaming); a
 * request whose connection closed before any answer came is sent once
 * more, a cut after the answer began is not.
 */
import type { Dispatcher, Pool } from 'undici';
import type { DeadlineSignal } from './deadline-signals.js';

/** What a completed exchange gives: status, headers by name, and the body whole. */
export interface Exchanged {
  readonly status: number;
  /** The first value of a response header (any case), undefined when absent: read from undici's raw list when asked. */
  header(name: string): string | undefined;
  readonly body: Buffer;
}

export interface ExchangeRequest {
  readonly pool: Pool;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Held for this request; released when the exchange settles. */
  readonly deadline: DeadlineSignal;
  /** Whether a failure before any answer is worth sending again (a connection closed under the request). */
  readonly retryable: (error: Error) => boolean;
  /** What the exchange rejects with for the error that ended it (read once the deadline is released). */
  readonly failure: (error: Error) => unknown;
}

/** The first value of header `name` (any case) in undici's raw list, as undici's own parsing gives it (latin1). */
export function rawHeader(raw: readonly Buffer[], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const key = raw[index]!;
    // Names of another length are not decoded at all: most of them.
    if (key.length === wanted.length && key.toString('latin1').toLowerCase() === wanted) {
      return raw[index + 1]!.toString('latin1');
    }
  }
  return undefined;
}

/** Sends the request; settles once with the answer, or with `failure` of the error that ended it. */
export function exchange(request: ExchangeRequest): Promise<Exchanged> {
  return new Promise<Exchanged>((resolve, reject) => {
    new Exchange(request, resolve, reject).send();
  });
}

/** The deadline cut the request (undici's own error then, had it been a signal: only `deadline.aborted` is read). */
class DeadlinePassed extends Error {
  constructor() {
    super('The operation deadline passed.');
    this.name = 'DeadlinePassed';
  }
}

class Exchange implements Dispatcher.DispatchHandler {
  #abort: ((error?: Error) => void) | undefined;
  /** A final (2xx to 5xx) status came: from here a failure is not sent again. */
  #answered = false;
  #retried = false;
  #settled = false;
  #status = 0;
  #rawHeaders: readonly Buffer[] = [];
  #chunks: Buffer[] = [];
  #length = 0;

  constructor(
    private readonly request: ExchangeRequest,
    private readonly resolve: (answer: Exchanged) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    request.deadline.onAbort = () => this.#abort?.(new DeadlinePassed());
  }

  send(): void {
    const { pool, path, headers } = this.request;
    // The headers and body timeouts are the pool's own (same options): not repeated per request.
    pool.dispatch({ method: 'GET', path, headers }, this);
  }

  onConnect(abort: (error?: Error) => void): void {
    // Queued for a connection past the deadline: cut as soon as undici hands it one.
    if (this.request.deadline.aborted) abort(new DeadlinePassed());
    else this.#abort = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[]): boolean {
    // An informational answer (1xx) is not the answer: its final one follows.
    if (status < 200) return true;
    this.#answered = true;
    this.#status = status;
    this.#rawHeaders = rawHeaders;
    return true;
  }

  onData(chunk: Buffer): boolean {
    // Each chunk is a view of the socket's read, which nothing else writes to again: kept, not copied.
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    return true;
  }

  onComplete(): void {
    const chunks = this.#chunks;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#length);
    const rawHeaders = this.#rawHeaders;
    this.#settle();
    this.resolve({ status: this.#status, header: (name) => rawHeader(rawHeaders, name), body });
  }

  onError(error: Error): void {
    // An upstream closes idle keep-alive sockets on its own schedule; a GET
    // that met one closed before any answer byte is sent again, once, on
    // another connection. A cut after the headers is not retried.
    if (!this.#answered && !this.#retried && !this.request.deadline.aborted && this.request.retryable(error)) {
      this.#retried = true;
      this.#abort = undefined;
      this.send();
      return;
    }
    this.#settle();
    this.reject(this.request.failure(error));
  }

  #settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#abort = undefined;
    this.request.deadline.release();
  }
}
