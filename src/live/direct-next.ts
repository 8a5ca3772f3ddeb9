/**
 * A shared subscription's `next` messages written straight to one
 * subscriber's socket, below graphql-ws's per-subscriber loop.
 *
 * graphql-ws delivers each result through a promise chain per subscriber
 * (`onNext`, `JSON.stringify` of the envelope, `ws.send`, whose callback it
 * awaits before asking for the next result), and ws frames the message as
 * two buffers written with `writev`. For 10,000 subscribers of one match
 * that was about twice the cost of writing one pre-built frame to each
 * socket. Here, when a shared result arrives for a subscriber whose
 * graphql-ws loop is idle (waiting for its next result, nothing of its own
 * in flight), the whole WebSocket frame is built in one buffer (frame
 * header, the envelope's head with this subscriber's id, made once per
 * subscriber, and the payload's bytes, encoded once per result by
 * preserialized.ts) and written to the TCP socket with one `write`.
 *
 * graphql-ws still owns everything else: the subscribe, the first message
 * (the latest result on joining), errors, `complete` (sent by its loop
 * after the source ends, so after the last frame written here), and any
 * message while it is busy.
 *
 * The raw write is only taken when it cannot reorder or change bytes on the
 * wire (otherwise the message goes through graphql-ws and `ws.send` as
 * before):
 *
 * - the socket is open and uses no extension (permessage-deflate would
 *   compress ws's frames; the gateway's server never enables it);
 * - nothing is buffered (`bufferedAmount === 0`): ws's sender has nothing
 *   queued and the TCP socket has written everything it was given. This also
 *   keeps a slow consumer's rule: a reader that does not keep up never has
 *   frames piled up here; its results go through graphql-ws, which waits for
 *   each write and keeps only the newest results (shared-subscriptions.ts),
 *   and its `bufferedAmount` stays what server.ts's check reads;
 * - ws's sender is in its default state (not reading a Blob or deflating),
 *   read from ws's internals when they have the expected shape, and never
 *   assumed when they do not.
 */
import type { Duplex } from 'node:stream';
import type { ExecutionResult } from 'graphql';
import type { WebSocket } from 'ws';
import { preSerialize } from './preserialized.js';
import type { Delivery } from './shared-subscriptions.js';

/** The parts of ws's private sender read here (ws 8: lib/sender.js). */
interface SenderInternals {
  readonly _state: number;
  readonly _queue: readonly unknown[];
}

/** ws's sender state when it is neither deflating nor reading a Blob (`DEFAULT` in lib/sender.js). */
const SENDER_IDLE = 0;

function senderIdle(socket: WebSocket): boolean {
  const sender = (socket as unknown as { _sender?: Partial<SenderInternals> })._sender;
  return sender !== undefined && sender._state === SENDER_IDLE && Array.isArray(sender._queue) && sender._queue.length === 0;
}

/** Bytes of a text frame's header (RFC 6455 section 5.2) for a payload of `length` bytes, unmasked. */
function headerLength(length: number): number {
  return length < 126 ? 2 : length < 65_536 ? 4 : 10;
}

function writeHeader(frame: Buffer, length: number): void {
  // FIN + text opcode.
  frame[0] = 0x81;
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
}

/** The envelope graphql-ws writes before a `next` payload, for subscription `id`. */
export function nextHead(id: string): Buffer {
  // JSON.stringify escapes the id exactly as graphql-ws's stringifyMessage does.
  return Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`);
}

/** One WebSocket text frame carrying `head` followed by `tail`, in one buffer. */
export function nextFrame(head: Buffer, tail: Buffer): Buffer {
  const length = head.length + tail.length;
  const offset = headerLength(length);
  const frame = Buffer.allocUnsafe(offset + length);
  writeHeader(frame, length);
  head.copy(frame, offset);
  tail.copy(frame, offset + head.length);
  return frame;
}

/**
 * The payload bytes of the result being fanned out: every subscriber of a
 * frame asks for the same result in a row, so one comparison replaces a
 * WeakMap lookup per socket.
 */
let lastResult: ExecutionResult | undefined;
let lastTail: Buffer = Buffer.alloc(0);

function tailOf(result: ExecutionResult): Buffer {
  if (result !== lastResult) {
    lastTail = preSerialize(result).tail;
    lastResult = result;
  }
  return lastTail;
}

/** One subscriber's socket, as the direct path writes to it. */
export class DirectNext implements Delivery {
  /** Made on the first direct write: most subscriptions (not shared, or short) never need it. */
  #head: Buffer | undefined;
  /** Extensions are agreed in the handshake, before any subscription: read once. */
  readonly #plain: boolean;

  constructor(
    private readonly socket: WebSocket,
    /** The TCP socket under `socket` (the upgrade request's). */
    private readonly raw: Duplex,
    private readonly id: string,
  ) {
    this.#plain = socket.extensions === '';
  }

  /**
   * Writes `result` as this subscriber's `next` message and returns true,
   * or returns false (nothing written) when the message must go through
   * graphql-ws and ws instead.
   */
  write(result: ExecutionResult): boolean {
    const socket = this.socket;
    if (!this.#plain || socket.readyState !== socket.OPEN || !this.raw.writable || socket.bufferedAmount !== 0 || !senderIdle(socket)) return false;
    this.#head ??= nextHead(this.id);
    this.raw.write(nextFrame(this.#head, tailOf(result)));
    return true;
  }
}
