/**
 * Puts what the upstream did for an operation into its `extensions`:
 * - `cost`: the estimate made before execution (`estimated`, counted
 *   upstream requests at most: src/plugins/use-cost-limit.ts), upstream
 *   requests this operation started, resources the cache (or another
 *   operation's request in flight) answered, the allowance left afterwards
 *   and, for a client with a daily budget, the budget left once charged with
 *   the counted requests really made;
 * - `stale`: every answer that came from the cache past its TTL, with its
 *   age and the failure it stands in for, so a client can tell.
 */
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';
import { costExtension } from '../cost/cost-extension.js';
import { estimateBoundRecorder, type EstimateSample } from '../cost/estimate-bound.js';
import { operationCosts } from '../cost/operation-costs.js';

export interface UpstreamTraceOptions {
  /** Told of each operation's estimate and what it needed (test-only: src/cost/estimate-bound.ts). @default from SPORTS_GRAPH_ESTIMATE_CHECK_FILE */
  checkEstimate?: ((sample: EstimateSample) => void) | undefined;
}

export function useUpstreamTrace({ checkEstimate = estimateBoundRecorder() }: UpstreamTraceOptions = {}): Plugin<GatewayContext> {
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      const trace = context.upstream?.trace;
      if (trace === undefined) return undefined;
      return {
        onExecuteDone({ result, setResult }) {
          const planned = operationCosts.get(context);
          operationCosts.delete(context);
          const budgetRemaining = planned?.budget?.settle(trace.countedRequests);
          if (Symbol.asyncIterator in result) return;
          if (planned !== undefined && checkEstimate !== undefined) {
            const needed = trace.countedRequests - trace.repeatedCounted + trace.joinedCounted + trace.unsentCounted;
            checkEstimate({ estimated: planned.estimated, needed, query: context.params?.query });
          }
          const cost = costExtension(
            { estimated: planned?.estimated, upstreamRequests: trace.upstreamRequests, cacheHits: trace.cacheHits },
            context.services.ledger,
            budgetRemaining,
          );
          setResult({
            ...result,
            extensions: { ...result.extensions, cost, ...(trace.stale.length > 0 ? { stale: [...trace.stale] } : {}) },
          });
        },
      };
    },
  };
}
