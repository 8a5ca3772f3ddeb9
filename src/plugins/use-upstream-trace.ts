/**
 * Puts what the upstream did for an operation into its `extensions`:
 * `stale` lists every answer that came from the cache past its TTL (with its
 * age and the failure it stands in for), so a client can tell.
 */
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';

export function useUpstreamTrace(): Plugin<GatewayContext> {
  return {
    onExecute({ args }) {
      const trace = args.contextValue.upstream?.trace;
      if (trace === undefined) return undefined;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || trace.stale.length === 0) return;
          setResult({ ...result, extensions: { ...result.extensions, stale: [...trace.stale] } });
        },
      };
    },
  };
}
