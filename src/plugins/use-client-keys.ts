/**
 * Refuses HTTP requests without a valid gateway client key (401 missing,
 * 403 invalid) once keys are configured. `/healthz` and the GraphiQL page
 * itself stay open: the page holds nothing, and its operations need a key.
 * Each operation's context then names its client (`clientName`), over HTTP
 * and graphql-ws alike, for the per-client budgets.
 */
import type { Plugin } from 'graphql-yoga';
import { presentedKey, type ClientKeys } from '../access/client-keys.js';
import { presentedKeyInContext } from '../access/presented-in-context.js';
import { Code } from '../codes/error-codes.js';

export function useClientKeys(
  keys: ClientKeys,
  { open = ['/healthz'] }: { open?: readonly string[] } = {},
): Plugin<{ clientName?: string }> {
  return {
    onContextBuilding({ context, extendContext }) {
      if (!keys.enabled) return;
      const result = keys.check(presentedKeyInContext(context as unknown as Record<string, unknown>));
      if (result.ok) extendContext({ clientName: result.client });
    },
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (!keys.enabled || open.includes(url.pathname)) return;
      const wantsPage =
        request.method === 'GET' &&
        (request.headers.get('accept') ?? '').includes('text/html') &&
        !url.searchParams.has('query');
      if (wantsPage) return;
      const result = keys.check(presentedKey((name) => request.headers.get(name)));
      if (result.ok) return;
      const message = result.status === 401 ? 'A gateway client key is required.' : 'This client key is not valid.';
      const code = result.status === 401 ? Code.UNAUTHENTICATED : Code.FORBIDDEN;
      endResponse(
        new fetchAPI.Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
          status: result.status,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            ...(result.status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
          },
        }),
      );
    },
  };
}
