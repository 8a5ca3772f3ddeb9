/**
 * Refuses, with 403 `CSRF_REFUSED`, a cross-site browser request that would
 * run an operation (src/transport/http/cross-site.ts decides). Hooked where yoga
 * parses the request into an operation, so the GraphiQL page, OPTIONS
 * preflights and the other routes are not concerned; graphql-ws checks the
 * page's origin at the upgrade instead (src/transport/http/host-check.ts).
 */
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Code } from '../codes/error-codes.js';
import type { HostPolicy } from '../access/allowed-hosts.js';
import { crossSiteMessage, crossSiteVerdict } from '../transport/http/cross-site.js';

export const CSRF_HEADER = 'x-graphql-csrf';

export interface CsrfRefusalOptions {
  /** Which pages count as the gateway's own or allowed (`GATEWAY_ALLOWED_HOSTS`, `GATEWAY_CORS_ORIGINS`). */
  readonly policy: HostPolicy;
  /**
   * Headers a browser sends cross-site only after a CORS preflight: any of
   * them lets a request through.
   * @default ['x-graphql-csrf']
   */
  readonly signals?: readonly string[];
  /** Told of each refusal (the refusal metric): a browser never shows a page the answer to its `<img>` or no-cors fetch. */
  readonly onRefusal?: (fetchSite: string | undefined) => void;
}

export function useCsrfRefusal({ policy, signals = [CSRF_HEADER], onRefusal }: CsrfRefusalOptions): Plugin {
  return {
    onRequestParse({ request }) {
      const verdict = crossSiteVerdict(request.headers, policy, signals);
      if (verdict.allowed) return;
      onRefusal?.(verdict.fetchSite);
      throw new GraphQLError(crossSiteMessage(verdict), {
        extensions: {
          code: Code.CSRF_REFUSED,
          fetchSite: verdict.fetchSite ?? null,
          origin: verdict.origin ?? null,
          http: { status: 403 },
        },
      });
    },
  };
}
