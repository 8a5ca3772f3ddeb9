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
 * in flight), the whole WebSocket frame (frame header, the envelope's head
 * with this subscriber's id, made once per subscriber, and the payload's
 * bytes, encoded once per result by preserialized.ts) is written to the
 * TCP socket with one `write` of one buffer: a view of a buffer shared by
 * every subscriber of the result (`FanoutBuffer`).
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
 * - nothing is buffered (`bufferedAmount === 0`, ws's public count): the
 *   TCP socket has written everything it was given, and ws holds nothing
 *   back. ws counts in `bufferedAmount` every message it holds: the ones it
 *   queues and the one it is busy with (a Blob being read, a message being
 *   deflated), so a message of ws's can never be overtaken by a frame
 *   written here. (Only an empty Blob would be held uncounted; nothing on
 *   these sockets sends Blobs: graphql-ws sends strings, the keep-alive
 *   sweep empty pings.) This also keeps a slow consumer's rule: a reader
 *   that does not keep up never has frames piled up here; its results go
 *   through graphql-ws, which waits for each write and keeps only the newest
 *   results (shared-subscriptions.ts), and its `bufferedAmount` stays what
 *   the slow-consumer check (graphql-ws-server.ts) reads.
 *
 * Only ws's public API is read here (src/transport/ws/ws-contract.test.ts
 * checks what this relies on against the installed ws).
 */
import type { Duplex } from 'node:stream';
import type { ExecutionResult } from 'graphql';
import type { WebSocket } from 'ws';
import { preSerialize } from './preserialized.js';
import type { Delivery } from '../../streams/member-queue.js';

/** Bytes of a text frame's header (RFC 6455 section 5.2) for a payload of `length` bytes, unmasked. */
function headerLength(length: number): number {
  return length < 126 ? 2 : length < 65_536 ? 4 : 10;
}

function writeHeader(frame: Buffer, at: number, length: number): void {
  // FIN + text opcode.
  frame[at] = 0x81;
  if (length < 126) {
    frame[at + 1] = length;
  } else if (length < 65_536) {
    frame[at + 1] = 126;
    frame.writeUInt16BE(length, at + 2);
  } else {
    frame[at + 1] = 127;
    frame.writeBigUInt64BE(BigInt(length), at + 2);
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
  writeHeader(frame, 0, length);
  head.copy(frame, offset);
  tail.copy(frame, offset + head.length);
  return frame;
}

/** Room in front of the shared payload bytes for a frame header (at most 10 bytes) and an envelope head; a longer head gets a buffer of its own. */
const ROOM = 256;

/**
 * The result being fanned out, its payload bytes copied once into a buffer
 * with room in front: a subscriber's frame is a view of that buffer, with
 * its own header and head written just before the shared bytes, so a socket
 * costs neither an allocation nor a copy of the payload (both showed in the
 * profile of a 10,000-subscriber frame, about a fifth of the direct path).
 * Heads of one length (graphql-ws's client names subscriptions with UUIDs)
 * start at the same place: they share one frame header and one view, so
 * such a subscriber costs its head's bytes and the write, no object.
 *
 * The room is written again for the next socket, which is safe only once
 * the kernel has the previous frame: a write that completes at once
 * (`writableLength` back to 0, as the write system call copied the bytes)
 * no longer reads the buffer, or the view (Node keeps a chunk only for a
 * write left pending), while one left pending still does, so the buffer is
 * then given up and the next subscriber starts a new one.
 */
class FanoutBuffer {
  readonly #bytes: Buffer;
  readonly #tailLength: number;
  /** The last frame handed out, from `#start` on: reused, header included, for a head of the same length. */
  #view: Buffer | undefined;
  #start = -1;

  constructor(readonly result: ExecutionResult) {
    const tail = preSerialize(result).tail;
    this.#tailLength = tail.length;
    this.#bytes = Buffer.allocUnsafe(ROOM + tail.length);
    tail.copy(this.#bytes, ROOM);
  }

  /** The frame for `head`, as a view of the shared buffer; undefined when the head does not fit the room. */
  frame(head: Buffer): Buffer | undefined {
    const at = ROOM - head.length;
    const length = head.length + this.#tailLength;
    const start = at - headerLength(length);
    if (start < 0) return undefined;
    // TypedArray's own copy: Buffer#copy's argument checks cost more than 50 bytes do.
    this.#bytes.set(head, at);
    if (start !== this.#start) {
      writeHeader(this.#bytes, start, length);
      this.#view = this.#bytes.subarray(start);
      this.#start = start;
    }
    return this.#view;
  }
}

/** Every subscriber of a frame is written in a row (shared-subscriptions.ts's pump), so one buffer at a time is enough. */
let fanout: FanoutBuffer | undefined;

/** One subscriber's socket, as the direct path writes to it. */
export class DirectNext implements Delivery<ExecutionResult> {
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
    // `bufferedAmount` is the TCP socket's pending bytes plus every byte ws holds back (queued, or being read or deflated).
    if (
      !this.#plain ||
      socket.readyState !== socket.OPEN ||
      !this.raw.writable ||
      this.raw.writableLength !== 0 ||
      socket.bufferedAmount !== 0
    )
      return false;
    this.#head ??= nextHead(this.id);
    const head = this.#head;
    if (fanout?.result !== result) fanout = new FanoutBuffer(result);
    const shared = fanout.frame(head);
    this.raw.write(shared ?? nextFrame(head, preSerialize(result).tail));
    // Still pending: the kernel has not taken the view's bytes, so its buffer must not be written again.
    if (shared !== undefined && this.raw.writableLength !== 0) fanout = undefined;
    return true;
  }
}
