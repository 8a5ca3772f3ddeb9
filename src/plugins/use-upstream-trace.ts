/**
 * Puts what the upstream did for an operation into its `extensions`:
 * - `cost`: the estimate made before execution (`estimated`, counted
 *   upstream requests at most: src/plugins/use-cost-limit.ts), upstream
 *   requests this operation started, resources the cache (or another
 *   operation's request in flight) answered, the allowance left afterwards
 *   and, for a client with a daily budget, the budget left once charged with
 *   the counted requests really made;
 * - `stale`: every answer that came from the cache past its TTL, with its
 *   age and the failure it stands in for, so a client can tell;
 * - `resources`: each counted resource the operation read, with where its
 *   answer came from (`cache`, `upstream`, `shared` in flight, `stale` with
 *   its reason) and its age in seconds, so a client can see what its
 *   `@maxAge` bought.
 * With `@defer`/`@stream` both go on the last payload, once everything
 * deferred has loaded.
 */
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';
import { costExtension } from '../spend/estimate/cost-extension.js';
import { estimateBoundRecorder, type EstimateSample } from '../spend/estimate/estimate-bound.js';
import { operationCosts } from '../spend/estimate/operation-costs.js';

export interface UpstreamTraceOptions {
  /** Told of each operation's estimate and what it needed (test-only: src/spend/estimate/estimate-bound.ts). @default from SPORTS_GRAPH_ESTIMATE_CHECK_FILE */
  checkEstimate?: ((sample: EstimateSample) => void) | undefined;
}

export function useUpstreamTrace({
  checkEstimate = estimateBoundRecorder(),
}: UpstreamTraceOptions = {}): Plugin<GatewayContext> {
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      const trace = context.upstream?.trace;
      if (trace === undefined) return undefined;
      return {
        onExecuteDone({ result, setResult }) {
          const planned = operationCosts.get(context);
          operationCosts.delete(context);
          // Once, when the operation has spent all it will: at once, or after the last payload of @defer/@stream.
          // `complete`: every part was delivered. A client that left early cut the parts still loading, so what they needed is not known.
          const finish = (complete = true): Record<string, unknown> => {
            const budgetRemaining = planned?.budget?.settle();
            if (planned !== undefined && checkEstimate !== undefined && complete) {
              checkEstimate({
                estimated: planned.estimated,
                needed: trace.neededCounted,
                query: context.params?.query,
              });
            }
            const cost = costExtension(
              { estimated: planned?.estimated, upstreamRequests: trace.upstreamRequests, cacheHits: trace.cacheHits },
              context.services.ledger,
              budgetRemaining,
            );
            return {
              cost,
              ...(trace.stale.length > 0 ? { stale: [...trace.stale] } : {}),
              ...(trace.answers.length > 0 ? { resources: [...trace.answers] } : {}),
            };
          };
          if (Symbol.asyncIterator in result) {
            // Incremental delivery: deferred fields load after the first payload, so the cost goes on the last one.
            let finished = false;
            return {
              onNext({ result: payload, setResult: setPayload }) {
                if (finished || (payload as { hasNext?: boolean }).hasNext !== false) return;
                finished = true;
                setPayload({ ...payload, extensions: { ...payload.extensions, ...finish() } });
              },
              onEnd() {
                // A client that left before the last payload still pays for every request reserved (src/spend/operation-budget.ts).
                if (!finished) finish(false);
                finished = true;
              },
            };
          }
          setResult({ ...result, extensions: { ...result.extensions, ...finish() } });
          return undefined;
        },
      };
    },
  };
}
