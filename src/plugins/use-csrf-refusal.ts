/**
 * @graphql-yoga/plugin-csrf-prevention decides; this gives its refusal a
 * code of its own. The library throws a bare 403 GraphQL error, which the
 * error-code plugin would call a validation failure: a client could not
 * tell "your query is wrong" from "send the CSRF header".
 */
import { useCSRFPrevention, type CSRFPreventionPluginOptions } from '@graphql-yoga/plugin-csrf-prevention';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export const CSRF_HEADER = 'x-graphql-csrf';

export interface CsrfRefusalOptions {
  /**
   * Any of these headers marks a request as not a browser's simple
   * cross-site request; the message names the first.
   * @default ['x-graphql-csrf']
   */
  requestHeaders?: readonly string[];
}

export function useCsrfRefusal({ requestHeaders = [CSRF_HEADER] }: CsrfRefusalOptions = {}): Plugin {
  const prevention = useCSRFPrevention({ requestHeaders: [...requestHeaders] } satisfies CSRFPreventionPluginOptions);
  const message =
    `A GET, form or text/plain request needs an \`${requestHeaders[0] ?? CSRF_HEADER}\` header (any value) to run an operation: ` +
    'a browser sends such requests cross-site without asking (CSRF).';
  return {
    onRequestParse(payload) {
      try {
        return prevention.onRequestParse?.(payload);
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
        throw new GraphQLError(message, { extensions: { code: 'CSRF_REFUSED', http: { status: 403 } } });
      }
    },
  };
}
