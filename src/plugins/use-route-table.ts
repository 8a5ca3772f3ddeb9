/**
 * Answers 404 `NOT_FOUND` (the refusal body of every non-image route, `{"errors": [{"message", "extensions": {"code"}}]}`) for any
 * path that no row of the route table (src/route-table.ts) serves, before
 * any other plugin: the table is the list of the gateway's doors, and a door
 * that is not in it, with what it can spend, does not open.
 */
import type { Plugin } from 'graphql-yoga';
import { routeOf } from '../route-table.js';

/** The raw request target's path, before URL normalisation ate `..` and the like. */
function rawPath(serverContext: unknown): string | undefined {
  const req = (serverContext as { req?: { url?: unknown } } | undefined)?.req;
  return typeof req?.url === 'string' ? req.url.split('?')[0] : undefined;
}

export function useRouteTable(): Plugin {
  return {
    onRequest({ url, serverContext, endResponse, fetchAPI }) {
      const raw = rawPath(serverContext);
      if (routeOf(url.pathname) !== undefined || (raw !== undefined && routeOf(raw) !== undefined)) return;
      endResponse(
        new fetchAPI.Response(JSON.stringify({ errors: [{ message: 'No such route on this gateway.', extensions: { code: 'NOT_FOUND' } }] }), {
          status: 404,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        }),
      );
    },
  };
}
