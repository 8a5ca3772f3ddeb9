/**
 * What a graphql-ws connection keeps of its upgrade request, for as long as
 * it lasts: the few headers later code reads and the TCP socket (which ws
 * holds anyway). The `IncomingMessage` itself (all its headers, raw headers,
 * stream state and parser leftovers: about a kilobyte) is let go once the
 * connection is open.
 *
 * Read later, over graphql-ws, as the operation context's `req`:
 * - the client key (`authorization: Bearer ...`, `x-client-key`): the 4403
 *   check at `connection_init` and each operation's `clientName`
 *   (src/access/client-keys.ts, src/access/presented-in-context.ts);
 * - the W3C trace context (`traceparent`, `tracestate`): the parent of an
 *   operation's span (src/plugins/use-operation-spans.ts);
 * - the peer's address (`socket.remoteAddress`): a keyless client's identity
 *   for the per-client odds feed cap (src/access/client-identity.ts); and
 *   the socket itself, which the direct `next` path writes to
 *   (src/transport/ws/direct-next.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** Every header read from the upgrade request after the handshake. */
export const KEPT_HEADERS = ['authorization', 'x-client-key', 'traceparent', 'tracestate'] as const;

export interface UpgradeRequest {
  /** By lower-case name, as Node's `IncomingMessage.headers`; only `KEPT_HEADERS` are present. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly socket: Socket;
}

/** Most connections carry none of them: one shared empty object. */
const NONE: UpgradeRequest['headers'] = Object.freeze({});

export function keptOfUpgrade(request: IncomingMessage): UpgradeRequest {
  let headers: Record<string, string> | undefined;
  for (const name of KEPT_HEADERS) {
    const value = request.headers[name];
    // Node gives every header but set-cookie as one string.
    if (typeof value !== 'string') continue;
    headers ??= {};
    headers[name] = value;
  }
  return { headers: headers ?? NONE, socket: request.socket };
}
