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
 *    JSON back in place of the quoted placeholder before framing.
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

  constructor(
    readonly json: string,
    id: number,
  ) {
    this.placeholder = `${PREFIX}${id}__`;
  }
}

let nextId = 0;
/** What graphql-ws hands `onNext`: an execution result, whatever its data type parameters. */
interface ResultLike {
  readonly errors?: ReadonlyArray<{ toJSON(): unknown }> | undefined;
}

const byResult = new WeakMap<object, PreSerialized>();
const recent = new Map<string, string>();

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
    recent.set(wrapped.placeholder, wrapped.json);
    if (recent.size > RECENT) recent.delete(recent.keys().next().value as string);
  }
  return wrapped;
}

/** graphql-ws `jsonMessageReplacer`: a wrapped payload becomes its placeholder. */
export function preSerializedReplacer(this: unknown, key: string, value: unknown): unknown {
  return key === 'payload' && value instanceof PreSerialized ? value.placeholder : value;
}

const PAYLOAD_KEY = `"payload":"${PREFIX}`;

/**
 * Puts the JSON back where its quoted placeholder is. Only the envelope's
 * own last member counts: `"payload":"` with bare quotes cannot occur inside
 * a JSON string (its quotes are escaped), so data that merely contains the
 * prefix is never touched. Other messages are returned as they are.
 */
export function restorePreSerialized(message: string): string {
  if (!message.endsWith('__"}')) return message;
  const key = message.lastIndexOf(PAYLOAD_KEY);
  if (key === -1) return message;
  const start = key + '"payload":'.length;
  const placeholder = message.slice(start + 1, message.length - 2);
  const json = recent.get(placeholder);
  if (json === undefined) {
    return JSON.stringify({ type: 'error', id: 'unknown', payload: [{ message: 'Internal error: lost subscription payload.' }] });
  }
  return message.slice(0, start) + json + '}';
}

/** The ws server's socket class: every text message goes through `restorePreSerialized`. */
export class GatewaySocket extends WebSocket {
  override send(data: unknown, optionsOrCallback?: unknown, callback?: unknown): void {
    const restored = typeof data === 'string' ? restorePreSerialized(data) : data;
    // ws's own overloads, passed through unchanged.
    (WebSocket.prototype.send as (data: unknown, options?: unknown, cb?: unknown) => void).call(this, restored, optionsOrCallback, callback);
  }
}
