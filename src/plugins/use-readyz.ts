import type { Plugin } from 'graphql-yoga';
import type { StateReadiness } from '../state/contracts.js';

export interface ReadyzOptions {
  endpoint?: string;
  /** Whether the gateway takes traffic now (src/gateway/lifecycle.ts: the state's readiness, and not draining). */
  readiness: () => StateReadiness;
}

/**
 * `GET /readyz` -> 200 `{"ready": true}` when this replica should get
 * traffic, 503 `{"ready": false, "reasons": [...]}` otherwise: before the
 * shared state can be read, and from SIGTERM on while it drains. `/healthz`
 * stays the liveness check (is the process alive), this one is for the load
 * balancer (send it requests or not).
 */
export function useReadyz({ endpoint = '/readyz', readiness }: ReadyzOptions): Plugin {
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (url.pathname !== endpoint) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
        return;
      }
      const { ready, reasons } = readiness();
      endResponse(
        new fetchAPI.Response(request.method === 'HEAD' ? null : JSON.stringify({ ready, reasons }), {
          status: ready ? 200 : 503,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        }),
      );
    },
  };
}
