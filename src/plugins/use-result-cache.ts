/**
 * Answers a repeated query from the operation-result cache
 * (src/results/result-cache.ts) without executing it.
 *
 * Plugin order (src/plugins/pipeline.ts): before the cost plugin. A hit spends no
 * upstream request, so there is nothing to estimate, refuse or hold: it is
 * served even to a client whose budget (or a plan whose allowance) is spent,
 * and charged 0. Skipping the estimate is also most of what a hit saves
 * after execution itself (bench warm scenario). Its `extensions.cost`
 * (src/results/hit.ts) is in the trace plugin's shape: estimated 0, no upstream
 * request, one cache hit per resource load the stored result was built from
 * (what executing again over the fresh cache would report), the allowance
 * and the client's budget as they are.
 *
 * A result is stored when it is a query that selects no uncacheable field
 * (src/results/cacheable.ts), has no errors and no stale answer, and every
 * resource it loaded is fresh in the upstream cache; it lives as long as the
 * least fresh of them.
 *
 * A plain POST hit is usually answered before yoga by the HTTP fast path
 * (src/transport/http/result-cache-hits.ts); this hook serves every other hit. In a
 * cluster the fast path reads only this replica's layer, and this hook is
 * where the shared tier is consulted: one place for every door (POST, GET,
 * WebSocket), and a hit found there is kept locally, so the next one on
 * this replica is answered by the fast path again.
 */
import type { OnExecuteHookResult } from '@envelop/core';
import type { Plugin } from 'graphql-yoga';
import type { Budgets } from '../spend/client-budgets.js';
import type { GatewayContext } from '../context.js';
import { isCacheableOperation } from '../results/cacheable.js';
import { resultKey, type ResultCache, type StoredAnswer, type StoredResult } from '../results/result-cache.js';
import { hitResources } from '../results/fresh-results.js';
import { recordHit } from '../results/hit.js';
import { splicedResult } from '../results/splice.js';

export interface ResultCacheOptions {
  cache: ResultCache;
  budgets: Budgets;
  /**
   * Put before every key, so that two schemas sharing one cache never answer
   * each other's documents (`/subgraph` beside `/graphql`). @default ''
   */
  namespace?: string;
}

export function useResultCache({ cache, budgets, namespace = '' }: ResultCacheOptions): Plugin<GatewayContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue;
      const trace = context.upstream?.trace;
      const query = context.params?.query;
      if (trace === undefined || query === undefined) return undefined;
      if (!isCacheableOperation(args.document, args.operationName)) return undefined;
      // A client's own @maxAge (src/plugins/use-max-age.ts) asks the upstream cache by that age, not stored results.
      if (context.upstream?.maxAgeMs !== undefined) return undefined;
      const key =
        namespace +
        resultKey({
          query,
          operationName: args.operationName,
          variables: args.variableValues,
          clientName: context.clientName,
        });

      const serve = (hit: StoredResult): undefined => {
        const { ledger, metrics, fetcher } = context.services;
        // Shared with the HTTP fast path (src/transport/http/result-cache-hits.ts), which answers most hits before yoga.
        const extensions = recordHit(hit, { ledger, metrics, budgets, upstream: fetcher.cache }, context.clientName);
        const resources = cache.resourcesOf?.(key);
        if (resources !== undefined) hitResources.set(context, resources);
        setResultAndStopExecution({ ...splicedResult(hit), extensions: { ...extensions } });
        return undefined;
      };
      const store: OnExecuteHookResult<GatewayContext> = {
        // Runs before the trace plugin's onExecuteDone (plugin order): the trace itself tells errors from stale.
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return;
          if (result.errors !== undefined && result.errors.length > 0) return;
          if (trace.stale.length > 0 || result.data == null) return;
          // Nothing loaded means nothing tells how long the answer holds.
          if (trace.resources.length === 0) return;
          const { fetcher } = context.services;
          let ttlMs = Infinity;
          for (const resource of trace.resources) ttlMs = Math.min(ttlMs, fetcher.cache.freshForMs(resource.key));
          if (ttlMs <= 0) return;
          const data = result.data as Record<string, unknown>;
          // Each counted answer with when the upstream gave it: a hit reports its age then (src/results/hit.ts).
          const answers: StoredAnswer[] = [];
          for (const resource of trace.resources) {
            const storedAt = resource.counted ? fetcher.cache.storedAtOf(resource.key) : undefined;
            if (storedAt !== undefined) answers.push({ route: resource.route, storedAt });
          }
          cache.set(
            key,
            { data, json: JSON.stringify(data), routes: trace.resources.map((resource) => resource.route), answers },
            ttlMs,
            trace.resources.map((resource) => resource.key),
          );
        },
      };

      // A local hit stays synchronous; only a cluster's shared tier makes this hook wait (one bounded lookup, a miss when Redis is away).
      const found = cache.get(key);
      if (found instanceof Promise) return found.then((hit) => (hit === undefined ? store : serve(hit)));
      return found === undefined ? store : serve(found);
    },
  };
}
