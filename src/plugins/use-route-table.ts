/**
 * Answers 404 `NOT_FOUND` (with the refusal body of src/transport/http/refusal.ts) for
 * any path that no row of the route table (src/route-table.ts) serves, before
 * any other plugin: the table is the list of the gateway's doors, and a door
 * that is not in it, with what it can spend, does not open.
 */
import type { Plugin } from 'graphql-yoga';
import { Code } from '../codes/error-codes.js';
import { rawTarget } from '../transport/http/raw-target.js';
import { pathOfTarget } from '../transport/http/request-path.js';
import { refusalBody, type Refusal } from '../transport/http/refusal.js';
import { routeOf } from '../route-table.js';

export const notServed: Refusal = { status: 404, code: Code.NOT_FOUND, message: 'No such route on this gateway.' };

export function useRouteTable(): Plugin {
  return {
    onRequest({ url, serverContext, endResponse, fetchAPI }) {
      if (routeOf(url.pathname) !== undefined) return;
      const target = rawTarget(serverContext);
      const raw = target === undefined ? undefined : pathOfTarget(target);
      if (raw !== undefined && routeOf(raw) !== undefined) return;
      endResponse(
        new fetchAPI.Response(refusalBody(raw ?? url.pathname, notServed), {
          status: notServed.status,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        }),
      );
    },
  };
}
