/**
 * `query @maxAge(seconds: N)`: the client says how old an upstream answer it
 * accepts (issue 33 item 2). The loader then answers from any cached copy no
 * older than N seconds, whatever its own freshness, and fetches anything
 * older, fresh or not (src/upstream/cache.ts `answersNow`).
 *
 * Placed before the result cache and the cost limit (src/plugins/pipeline.ts):
 * the estimate reads the cache through the same age (src/gateway.ts's
 * per-operation cache view), so an accepted old copy costs 0 in the estimate
 * as in execution, and a demanded refetch is counted; and an operation that
 * names its own age is neither answered from nor kept in the result cache,
 * whose stored results follow the answers' own freshness.
 */
import { getDirectiveValues, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';

export function useMaxAge(): Plugin<GatewayContext> {
  return {
    onExecute({ args }) {
      const loader = args.contextValue.upstream;
      if (loader === undefined) return;
      const directive = args.schema.getDirective('maxAge');
      const operation = getOperationAST(args.document, args.operationName);
      if (directive == null || operation == null || operation.directives === undefined) return;
      if (!operation.directives.some((node) => node.name.value === 'maxAge')) return;
      const values = getDirectiveValues(directive, operation, args.variableValues ?? undefined);
      const seconds = values?.['seconds'];
      // A negative age accepts nothing cached, as 0 does.
      if (typeof seconds === 'number') loader.maxAgeMs = Math.max(0, seconds) * 1000;
    },
  };
}
