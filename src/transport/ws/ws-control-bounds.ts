/**
 * graphql-ws echoes a `ping` payload back in its `pong` with
 * `JSON.stringify`, which overflows the stack on a payload nested a few
 * thousand levels deep (64 KiB of `[` is 32,000 levels): the socket was
 * closed with 4500, an internal error. `subscribe` payloads get a coded
 * error for their operation (src/transport/http/input-bounds.ts, in `onSubscribe`);
 * the control messages (`connection_init`, `ping`, `pong`) have no operation
 * to answer, so one whose payload is past the same bounds closes the socket
 * with 4400 Bad Request, as graphql-ws does for any other malformed message.
 *
 * This runs in graphql-ws's `onConnect`/`onPing`/`onPong` hooks, before its
 * echo, which it cannot stop: the refused payload is emptied, so the echo
 * (on a socket already closing, which sends nothing) has nothing to walk.
 * A JSON reviver could refuse the message while parsing it, but V8 revives
 * recursively and fails past about 2,500 levels, which would close the
 * socket instead of answering a deep `subscribe` with its code.
 */
import { CloseCode } from '../../codes/close-codes.js';
import { measure, type InputBounds } from '../http/input-bounds.js';

export interface ClosableSocket {
  close(code: number, reason: string): void;
}

/** True, with the socket closing and `payload` emptied, when `payload` is out of bounds. */
export function refuseControlPayload(socket: ClosableSocket, payload: unknown, bounds: InputBounds): boolean {
  if (typeof payload !== 'object' || payload === null || measure(payload, bounds) === undefined) return false;
  if (Array.isArray(payload)) payload.length = 0;
  else for (const key of Object.keys(payload)) delete (payload as Record<string, unknown>)[key];
  socket.close(CloseCode.BadRequest, 'Message payload out of bounds');
  return true;
}
