import type { Plugin } from 'graphql-yoga';

/** `GET /healthz` -> 200 `{"status":"ok"}` (DESIGN.md, fixed interface points). */
export function useHealthz({ endpoint = '/healthz' }: { endpoint?: string } = {}): Plugin {
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (url.pathname !== endpoint) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
        return;
      }
      endResponse(
        new fetchAPI.Response(JSON.stringify({ status: 'ok' }), {
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        }),
      );
    },
  };
}
