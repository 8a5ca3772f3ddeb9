/**
 * Acting out a fault on the socket. Each kind imitates one way a real
 * upstream or the network between fails, at the HTTP level a client sees:
 * wrong status, cut connection, silence, slowness, bad bytes, too many bytes.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Fault } from './faults.js';
import { encode, JSON_CONTENT_TYPE, mergeHeaders, send, type EncodedResponse } from './respond.js';

/** `trickle` sends one body byte per tick. */
const TRICKLE_INTERVAL_MS = 1_000;
/** `huge` body size: 800 chunks of 64 KiB, about 50 MB. */
const HUGE_CHUNK_COUNT = 800;
/** One 1 KiB JSON string plus its comma, 64 to a chunk; built once and reused for every chunk. */
const HUGE_CHUNK = Buffer.from(`"${'x'.repeat(1_021)}",`.repeat(64), 'utf8');

export interface FaultTarget {
  readonly res: ServerResponse;
  /** The route's own answer (without key or allowance checks), for kinds that mangle it. */
  readonly realResponse: () => Promise<EncodedResponse>;
  /** Aborted when the sandbox closes, so no timer outlives it. */
  readonly closing: AbortSignal;
}

export async function actOutFault(fault: Fault, target: FaultTarget): Promise<void> {
  const { res } = target;
  switch (fault.kind) {
    case 'status':
      send(res, statusResponse(fault));
      return;
    case 'hang':
      // Nothing at all: the socket stays open until the client gives up or the sandbox closes.
      return;
    case 'reset':
      return reset(res, await target.realResponse());
    case 'trickle':
      return trickle(res, await target.realResponse(), target.closing);
    case 'malformed':
      return malformed(res, await target.realResponse());
    case 'huge':
      return huge(res, await target.realResponse(), target.closing);
    case 'drop-idle': {
      const real = await target.realResponse();
      // Node closes the socket after a response that says `connection: close`.
      send(res, { ...real, headers: mergeHeaders(real.headers, { connection: 'close' }) });
      return;
    }
    case 'delay':
      throw new TypeError('a delay fault has no response of its own; the caller runs the normal pipeline');
  }
}

/** Spec 7 gives the 502 and 504 bodies their codes; other statuses say their reason phrase. */
export function defaultFaultBody(status: number): Record<string, string> {
  if (status === 502) return { error: 'Bad gateway: upstream provider failed', code: 'UPSTREAM_ERROR' };
  if (status === 504) return { error: 'Gateway timeout', code: 'upstream_timeout' };
  return { error: STATUS_CODES[status] ?? 'Injected fault' };
}

function statusResponse(fault: Fault): EncodedResponse {
  const status = fault.status ?? 502;
  if (typeof fault.body === 'string') {
    return {
      status,
      headers: mergeHeaders({ 'content-type': 'text/plain; charset=utf-8' }, fault.headers),
      body: Buffer.from(fault.body, 'utf8'),
    };
  }
  const body = fault.body === undefined ? defaultFaultBody(status) : fault.body;
  return encode(fault.headers === undefined ? { status, body } : { status, body, headers: fault.headers });
}

function reset(res: ServerResponse, real: EncodedResponse): void {
  // The full length is promised, so the client cannot mistake the cut for a complete body.
  res.writeHead(real.status, { ...real.headers, 'content-length': String(real.body.length) });
  const part = real.body.subarray(0, Math.max(1, Math.floor(real.body.length / 2)));
  res.write(part, () => res.destroy());
}

function malformed(res: ServerResponse, real: EncodedResponse): void {
  const isJson = real.headers['content-type'] === JSON_CONTENT_TYPE;
  // A proper prefix of a JSON object is never valid JSON.
  const body = isJson
    ? real.body.subarray(0, Math.floor(real.body.length / 2))
    : Buffer.from('{"error":"trunc', 'utf8');
  send(res, { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body });
}

async function trickle(res: ServerResponse, real: EncodedResponse, closing: AbortSignal): Promise<void> {
  res.writeHead(real.status, { ...real.headers, 'content-length': String(real.body.length) });
  res.flushHeaders();
  await new Promise<void>((resolve) => {
    let sent = 0;
    const stop = (): void => {
      clearInterval(timer);
      res.off('close', stop);
      closing.removeEventListener('abort', stop);
      resolve();
    };
    const timer = setInterval(() => {
      if (res.destroyed) return stop();
      res.write(real.body.subarray(sent, sent + 1));
      sent += 1;
      if (sent >= real.body.length) {
        res.end();
        stop();
      }
    }, TRICKLE_INTERVAL_MS);
    res.once('close', stop);
    closing.addEventListener('abort', stop, { once: true });
  });
}

/**
 * A valid JSON document of about 50 MB: the real payload with a `padding`
 * array in front, streamed chunk by chunk with backpressure, never held whole.
 */
async function huge(res: ServerResponse, real: EncodedResponse, closing: AbortSignal): Promise<void> {
  const text = real.headers['content-type'] === JSON_CONTENT_TYPE ? real.body.toString('utf8') : '{}';
  const rest = text.startsWith('{') && text !== '{}' ? `,${text.slice(1)}` : '}';
  const head = Buffer.from('{"padding":[', 'utf8');
  const tail = Buffer.from(`null]${rest}`, 'utf8');
  const length = head.length + HUGE_CHUNK_COUNT * HUGE_CHUNK.length + tail.length;
  res.writeHead(200, { 'content-type': JSON_CONTENT_TYPE, 'content-length': String(length) });
  res.write(head);
  for (let i = 0; i < HUGE_CHUNK_COUNT; i++) {
    if (res.destroyed || closing.aborted) return;
    if (!res.write(HUGE_CHUNK)) await drained(res, closing);
  }
  if (!res.destroyed) res.end(tail);
}

function drained(res: ServerResponse, closing: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      closing.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
    closing.addEventListener('abort', done, { once: true });
  });
}
