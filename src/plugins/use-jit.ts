/**
 * graphql-jit through envelop: queries and mutations run as compiled
 * functions (the bench's warm query: about a third more requests per second,
 * see docs/performance.md).
 *
 * Left to graphql-js's executor, so that nothing a client sees changes:
 * - subscriptions (shared per document instead, src/transport/ws/shared-subscriptions.ts);
 * - operations whose variables do not coerce: graphql-jit reports those in
 *   its own way, which would become INTERNAL_SERVER_ERROR instead of the
 *   coded BAD_USER_INPUT the executor gives;
 * - documents with `@defer` or `@stream`: graphql-jit does not implement
 *   them and would answer everything at once (src/plugins/incremental-delivery.ts).
 */
import { useGraphQlJit } from '@envelop/graphql-jit';
import type { Plugin } from '@envelop/core';
import { getOperationAST, type ExecutionArgs } from 'graphql';
import { coercedVariables } from './coerced-variables.js';
import { usesIncrementalDelivery } from './incremental-delivery.js';

function compilable(args: ExecutionArgs): boolean {
  const operation = getOperationAST(args.document, args.operationName);
  if (operation === null || operation === undefined || operation.operation === 'subscription') return false;
  if (usesIncrementalDelivery(args.document)) return false;
  if ((operation.variableDefinitions ?? []).length === 0) return true;
  return coercedVariables(args.schema, operation, args.variableValues).errors === undefined;
}

export function useJit(): Plugin {
  return useGraphQlJit({}, { enableIf: compilable });
}
