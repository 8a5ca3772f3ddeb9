/**
 * Depth, aliases, directives and tokens, with GraphQL Armor's envelop
 * plugins. They run in yoga's envelop pipeline, which graphql-ws uses too,
 * so HTTP and WebSocket get the same limits. The messages say what was
 * refused, never the limit itself.
 *
 * Depth is checked twice: `LIMIT_MAX_DEPTH` for everything but `__schema`,
 * and `LIMIT_MAX_INTROSPECTION_DEPTH` (at least as much) for everything,
 * introspection included: the standard introspection query's `ofType`
 * chain needs 15 levels, a hand-made one was free to go 30 deep.
 */
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { Plugin } from 'graphql-yoga';
import type { OperationLimits } from '../config.js';
import { LIMIT_REFUSAL } from './use-error-codes.js';

export function useOperationLimits(limits: OperationLimits): Plugin[] {
  const common = { exposeLimits: false } as const;
  return [
    maxTokensPlugin({ ...common, n: limits.maxTokens, errorMessage: `${LIMIT_REFUSAL} the document is too large.` }),
    maxDepthPlugin({
      ...common,
      n: limits.maxDepth,
      ignoreIntrospection: true,
      flattenFragments: true,
      errorMessage: `${LIMIT_REFUSAL} the query is too deep.`,
    }),
    maxDepthPlugin({
      ...common,
      n: Math.max(limits.maxDepth, limits.maxIntrospectionDepth),
      ignoreIntrospection: false,
      flattenFragments: true,
      errorMessage: `${LIMIT_REFUSAL} the introspection query is too deep.`,
    }),
    maxAliasesPlugin({ ...common, n: limits.maxAliases, errorMessage: `${LIMIT_REFUSAL} too many aliases.` }),
    maxDirectivesPlugin({ ...common, n: limits.maxDirectives, errorMessage: `${LIMIT_REFUSAL} too many directives.` }),
  ] as Plugin[];
}
