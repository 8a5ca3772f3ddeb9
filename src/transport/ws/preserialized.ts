/**
 * A subscription result serialized once for every WebSocket that sends it.
 *
 * graphql-ws builds each `next` message as `JSON.stringify({ id, type,
 * payload })`, per subscriber: with shared executions (shared-subscriptions.ts)
 * 10,000 subscribers of one match receive the same result object, and
 * serializing it 10,000 times was most of the gateway's per-frame work.
 *
 * How it fits graphql-ws without forking it, in three steps that run
 * synchronously one after the other for each message:
 *
 * 1. `onNext` swaps the result for its `PreSerialized` wrapper (memoized per
 *    result object: the JSON is made once).
 * 2. `jsonMessageReplacer` writes the wrapper as a short placeholder string,
 *    so the envelope `{"id":..,"type":"next","payload":"<placeholder>"}` is
 *    all that is stringified per subscriber.
 * 3. `GatewaySocket.send` (the WebSocket class of our ws server) puts the
 *    JSON back in place of the quoted placeholder before framing, as bytes:
 *    the envelope's head (`{"id":..,"type":"next","payload":`, the only
 *    part that differs per subscriber) is written into a buffer in front
 *    of the payload's bytes, which were encoded once per result. ws sends
 *    that buffer as a text frame (`binary: false`) without converting a
 *    string per socket; the bytes are the ones graphql-ws would have sent.
 *
 * This is the path of the messages graphql-ws itself sends (a subscriber's
 * first result, and any while its loop is busy); the others are written
 * below graphql-ws from the same payload bytes (`tail`, direct-next.ts).
 *
 * Placeholders are unique per wrapper and only the most recent ones are
 * remembered (`RECENT`): step 3 follows step 2 at once, so a short memory is
 * enough, and a message that names a forgotten placeholder (which would be
 * a bug) is sent as a readable error rather than as a broken frame.
 */
import WebSocket from 'ws';

const PREFIX = '__sports_graph_preserialized_';
const RECENT = 256;

export class PreSerialized {
  readonly placeholder: string;
  #tail: Buffer | undefined;

  constructor(
    readonly json: string,
    id: number,
  ) {
    this.placeholder = `${PREFIX}${id}__`;
  }

  /** The payload's JSON and the envelope's closing brace, UTF-8, encoded on first use and shared by every socket. */
  get tail(): Buffer {
    this.#tail ??= Buffer.from(`${this.json}}`);
    return this.#tail;
  }
}

let nextId = 0;
/** What graphql-ws hands `onNext`: an execution result, whatever its data type parameters. */
interface ResultLike {
  readonly errors?: ReadonlyArray<{ toJSON(): unknown }> | undefined;
}

const byResult = new WeakMap<object, PreSerialized>();
const recent = new Map<string, PreSerialized>();

/** The result's JSON (as graphql-ws would write its payload), made once per result object. */
export function preSerialize(result: ResultLike): PreSerialized {
  let wrapped = byResult.get(result);
  if (wrapped === undefined) {
    const { errors, ...rest } = result;
    // The same shape graphql-ws gives a payload: errors only when present, as their JSON form.
    const payload = errors === undefined ? rest : { ...rest, errors: errors.map((error) => error.toJSON()) };
    nextId += 1;
    wrapped = new PreSerialized(JSON.stringify(payload), nextId);
    byResult.set(result, wrapped);
    recent.set(wrapped.placeholder, wrapped);
    if (recent.size > RECENT) recent.delete(recent.keys().next().value as string);
  }
  return wrapped;
}

/** graphql-ws `jsonMessageReplacer`: a wrapped payload becomes its placeholder. */
export function preSerializedReplacer(this: unknown, key: string, value: unknown): unknown {
  return key === 'payload' && value instanceof PreSerialized ? value.placeholder : value;
}

const PAYLOAD_KEY = `"payload":"${PREFIX}`;
const LOST = JSON.stringify({
  type: 'error',
  id: 'unknown',
  payload: [{ message: 'Internal error: lost subscription payload.' }],
});

/**
 * Where a message's payload placeholder starts and which payload it names,
 * or undefined for any other message. Only the envelope's own last member
 * counts: `"payload":"` with bare quotes cannot occur inside a JSON string
 * (its quotes are escaped), so data that merely contains the prefix is
 * never touched.
 */
function findPlaceholder(message: string): { start: number; wrapped: PreSerialized | undefined } | undefined {
  if (!message.endsWith('__"}')) return undefined;
  const key = message.lastIndexOf(PAYLOAD_KEY);
  if (key === -1) return undefined;
  const start = key + '"payload":'.length;
  return { start, wrapped: recent.get(message.slice(start + 1, message.length - 2)) };
}

/**
 * Puts the JSON back where its quoted placeholder is; other messages are
 * returned as they are. A message that names a forgotten placeholder
 * becomes a readable error.
 */
export function restorePreSerialized(message: string): string {
  const found = findPlaceholder(message);
  if (found === undefined) return message;
  if (found.wrapped === undefined) return LOST;
  return message.slice(0, found.start) + found.wrapped.json + '}';
}

/**
 * The same message as `restorePreSerialized`, as UTF-8 bytes built from the
 * envelope's head and the payload's shared bytes; undefined for a message
 * without a placeholder (sent as it is).
 */
export function restorePreSerializedBytes(message: string): Buffer | undefined {
  const found = findPlaceholder(message);
  if (found === undefined) return undefined;
  if (found.wrapped === undefined) return Buffer.from(LOST);
  const tail = found.wrapped.tail;
  const head = message.slice(0, found.start);
  // Its UTF-8 length, not its string length: a client may choose any id.
  const headBytes = Buffer.byteLength(head, 'utf8');
  const bytes = Buffer.allocUnsafe(headBytes + tail.length);
  bytes.write(head, 0, headBytes, 'utf8');
  tail.copy(bytes, headBytes);
  return bytes;
}

type Send = (data: unknown, options?: unknown, cb?: unknown) => void;
const wsSend = WebSocket.prototype.send as Send;

/** The ws server's socket class: a text message that carries a placeholder is sent as its restored bytes. */
export class GatewaySocket extends WebSocket {
  override send(data: unknown, optionsOrCallback?: unknown, callback?: unknown): void {
    const restored = typeof data === 'string' ? restorePreSerializedBytes(data) : undefined;
    if (restored === undefined) {
      // ws's own overloads, passed through unchanged.
      wsSend.call(this, data, optionsOrCallback, callback);
      return;
    }
    // A text frame: the bytes are UTF-8 JSON, as the string would have been.
    if (typeof optionsOrCallback === 'function') wsSend.call(this, restored, { binary: false }, optionsOrCallback);
    else wsSend.call(this, restored, { ...(optionsOrCallback as object | undefined), binary: false }, callback);
  }
}
