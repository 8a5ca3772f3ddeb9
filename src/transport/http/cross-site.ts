/**
 * Whether a request may run a GraphQL operation, judged by what browsers
 * send on their own (CSRF): Fetch Metadata's `Sec-Fetch-Site`, then `Origin`.
 *
 * A browser sends a form POST, an `<img>` GET or a `no-cors` fetch to any
 * site, without asking it, and nothing the page can do stops the request
 * from arriving; it only cannot read the answer. Here an answer is not
 * needed to do harm: the operation spends the upstream allowance. So:
 *
 * - `Sec-Fetch-Site: same-origin` (a page of the gateway) or `none` (typed
 *   in the address bar, a bookmark) runs;
 * - `same-site` / `cross-site` runs only from an allowed origin: a
 *   `GATEWAY_CORS_ORIGINS` origin or a page whose host name the gateway
 *   answers for (the same rule as a WebSocket's, src/access/allowed-hosts.ts);
 * - without `Sec-Fetch-Site` (browsers older than 2023, or a plain-HTTP
 *   origin that is not loopback, where browsers do not send it), an
 *   `Origin` is judged the same way; with neither header the request is
 *   not a browser's (curl, Node, a server), or is a GET from a browser that
 *   sends neither, and runs;
 * - a request that carries one of the `signals` (`x-graphql-csrf`, a client
 *   key) runs: a browser sends such a header cross-site only after a CORS
 *   preflight, which the gateway answers for `GATEWAY_CORS_ORIGINS` alone.
 *
 * Fetch Metadata first, because `Origin` is absent from a cross-site `<img>`
 * or no-cors GET, which is exactly the request a custom-header rule had to
 * refuse from every client that did not know the header.
 */
import type { HostPolicy } from '../../access/allowed-hosts.js';

export interface RequestHeaders {
  get(name: string): string | null;
}

export type CrossSiteVerdict =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      /** The `Sec-Fetch-Site` value, lower case; undefined when the browser sent none. */
      readonly fetchSite: string | undefined;
      /** The `Origin` header; undefined when the browser sent none (a no-cors GET). */
      readonly origin: string | undefined;
    };

/** `same-origin`: the gateway's own page; `none`: the user navigated there. */
const trustedSites = new Set(['same-origin', 'none']);

export function crossSiteVerdict(
  headers: RequestHeaders,
  policy: HostPolicy,
  signals: readonly string[],
): CrossSiteVerdict {
  if (signals.some((name) => headers.get(name) !== null)) return { allowed: true };
  const fetchSite = headers.get('sec-fetch-site')?.trim().toLowerCase() || undefined;
  if (fetchSite !== undefined && trustedSites.has(fetchSite)) return { allowed: true };
  const origin = headers.get('origin')?.trim() || undefined;
  if (origin === undefined) {
    return fetchSite === undefined ? { allowed: true } : { allowed: false, fetchSite, origin };
  }
  // `Origin: null` (a sandboxed frame, a file:// page, a redirect chain) is not a URL: allowsOrigin refuses it.
  if (policy.allowsOrigin(origin, headers.get('host') ?? undefined)) return { allowed: true };
  return { allowed: false, fetchSite, origin };
}

/** The refusal's message: what was refused, on what evidence, and who may. */
export function crossSiteMessage(verdict: Extract<CrossSiteVerdict, { allowed: false }>): string {
  const site = verdict.fetchSite === undefined ? '' : ` (Sec-Fetch-Site: ${verdict.fetchSite})`;
  const from = verdict.origin === undefined ? 'from a page of another site' : `from the page origin ${verdict.origin}`;
  return (
    `Refused to run a GraphQL operation for a cross-site browser request ${from}${site}. ` +
    'A browser sends forms, images and no-cors fetches to any site, so operations run only for pages of this gateway, ' +
    'of the origins in GATEWAY_CORS_ORIGINS, and for clients that are not browsers.'
  );
}
