/**
 * Puts what the upstream did for an operation into its `extensions`:
 * - `cost`: upstream requests this operation started, resources the cache
 *   (or another operation's request in flight) answered, and the allowance
 *   left afterwards;
 * - `stale`: every answer that came from the cache past its TTL, with its
 *   age and the failure it stands in for, so a client can tell.
 */
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';

export function useUpstreamTrace(): Plugin<GatewayContext> {
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      const trace = context.upstream?.trace;
      if (trace === undefined) return undefined;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const cost = {
            upstreamRequests: trace.upstreamRequests,
            cacheHits: trace.cacheHits,
            allowanceRemaining: context.services.ledger.snapshot().remaining,
          };
          setResult({
            ...result,
            extensions: { ...result.extensions, cost, ...(trace.stale.length > 0 ? { stale: [...trace.stale] } : {}) },
          });
        },
      };
    },
  };
}
