import type { Plugin } from 'graphql-yoga';
import type { StateHealth } from '../state/contracts.js';
import type { ActiveTrouble } from '../upstream/trouble.js';

export interface HealthzOptions {
  endpoint?: string;
  /** The shared state's health (src/state/open-state.ts). */
  health: () => Promise<StateHealth>;
  /** The upstream's active trouble states (src/upstream/trouble.ts). @default none */
  troubles?: () => readonly ActiveTrouble[];
}

/**
 * `GET /healthz` -> 200 `{"status":"ok"|"degraded", ...}` (DESIGN.md, fixed
 * interface points): degraded still serves, so it is still 200; a load
 * balancer takes a replica out only when it cannot serve at all.
 *
 * An upstream trouble state makes it `degraded` too: `reasons` gets its
 * sentence (`CODE: what happened; what to do`) after the shared state's, and
 * `troubles` lists each with its code, subject, route, status and start.
 */
export function useHealthz({ endpoint = '/healthz', health, troubles = () => [] }: HealthzOptions): Plugin {
  return {
    // Not `async`: every other request goes on without waiting a turn.
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (url.pathname !== endpoint) return undefined;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
        return undefined;
      }
      return health().then((state) => {
        const upstream = troubles();
        const body = JSON.stringify({
          status: upstream.length > 0 ? 'degraded' : state.status,
          mode: state.mode,
          replica: state.replica,
          reasons: [...state.reasons, ...upstream.map((trouble) => `${trouble.code}: ${trouble.reason}`)],
          troubles: upstream.map(({ code, state: name, subject, since, route, status }) => ({
            code,
            state: name,
            subject,
            since,
            route,
            status,
          })),
          // Absent outside a cluster: JSON.stringify leaves out what is undefined.
          members: state.members,
          recentMembers: state.recentMembers,
          leases: state.leases,
        });
        endResponse(
          new fetchAPI.Response(body, {
            status: 200,
            headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
          }),
        );
      });
    },
  };
}
