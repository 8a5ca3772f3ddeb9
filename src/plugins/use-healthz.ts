import type { Plugin } from 'graphql-yoga';
import type { StateHealth } from '../state/shared.js';

export interface HealthzOptions {
  endpoint?: string;
  /** The shared state's health (src/state/shared-state.ts). */
  health: () => Promise<StateHealth>;
}

/**
 * `GET /healthz` -> 200 `{"status":"ok"|"degraded", ...}` (DESIGN.md, fixed
 * interface points): degraded still serves, so it is still 200; a load
 * balancer takes a replica out only when it cannot serve at all.
 */
export function useHealthz({ endpoint = '/healthz', health }: HealthzOptions): Plugin {
  return {
    // Not `async`: every other request goes on without waiting a turn.
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (url.pathname !== endpoint) return undefined;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
        return undefined;
      }
      return health().then((state) => endResponse(
        new fetchAPI.Response(JSON.stringify({
          status: state.status,
          mode: state.mode,
          replica: state.replica,
          reasons: state.reasons,
          // Absent outside a cluster: JSON.stringify leaves out what is undefined.
          members: state.members,
          recentMembers: state.recentMembers,
          leases: state.leases,
        }), {
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        }),
      ));
    },
  };
}
