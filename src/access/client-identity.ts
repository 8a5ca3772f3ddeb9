/**
 * Who a client is, for per-client caps on things that are not money (the
 * odds feeds a client may open: src/live/hub.ts): its key's name when
 * client keys are on, otherwise the address it connects from. Behind a
 * proxy every client shares the proxy's address, and so shares one cap:
 * turn keys on there.
 */
import type { IncomingMessage } from 'node:http';

/** What an operation's context holds, over HTTP, SSE and graphql-ws alike (src/transport/ws/graphql-ws-server.ts passes the upgrade request as `req`). */
export interface IdentifiedContext {
  readonly clientName?: string | undefined;
  readonly req?: Pick<IncomingMessage, 'socket'> | undefined;
}

export function clientIdentity(context: IdentifiedContext): string {
  if (context.clientName !== undefined) return `key:${context.clientName}`;
  return `address:${context.req?.socket?.remoteAddress ?? 'unknown'}`;
}
