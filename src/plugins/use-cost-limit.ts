/**
 * Refuses, before execution and without an upstream request, an operation
 * whose estimated cost in counted upstream requests (src/cost/estimate.ts)
 * passes the per-operation limit (COST_LIMIT_EXCEEDED), the allowance left
 * (QUOTA_EXHAUSTED, `scope: "plan"`) or its client's daily budget
 * (QUOTA_EXHAUSTED, `scope: "client"`). Messages never say what a limit is.
 *
 * It hooks `onExecute`, which graphql-ws runs too (server.ts sends every
 * WebSocket operation through yoga's envelop), so both transports are
 * covered. Subscriptions are not estimated: they spend through shared live
 * services, not per operation.
 */
import { getOperationAST, getVariableValues, GraphQLError, Kind, type FragmentDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { BudgetHold, ClientBudgets } from '../access/client-budgets.js';
import type { GatewayContext } from '../context.js';
import { costExtension } from '../cost/cost-extension.js';
import { estimateOperation } from '../cost/estimate.js';
import { operationCosts } from '../cost/operation-costs.js';
import { ErrorCode } from '../upstream/errors.js';

export const COST_LIMIT_EXCEEDED = 'COST_LIMIT_EXCEEDED';

export interface CostLimitOptions {
  /** Most counted upstream requests one operation may be estimated at. @default 50 */
  maxOperationCost?: number;
  budgets: ClientBudgets;
}

export function useCostLimit({ maxOperationCost = 50, budgets }: CostLimitOptions): Plugin<GatewayContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue;
      if (context.upstream === undefined) return;
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      if (operation == null || operation.operation === 'subscription') return;
      const coerced = getVariableValues(args.schema, operation.variableDefinitions ?? [], (args.variableValues ?? {}) as Record<string, unknown>);
      // Bad variables fail at execution, before any request.
      if (coerced.errors !== undefined) return;
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const definition of args.document.definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
      }
      const estimate = await estimateOperation({ schema: args.schema, operation, fragments, variables: coerced.coerced, context });
      const { ledger } = context.services;
      const refuse = (error: GraphQLError): void => {
        const cost = costExtension({ estimated: estimate.requests, upstreamRequests: 0, cacheHits: 0 }, ledger, budgets.remaining(context.clientName));
        setResultAndStopExecution({ errors: [error], extensions: { cost } });
      };

      if (estimate.requests > maxOperationCost) {
        refuse(
          new GraphQLError('Operation refused: it could cost more upstream requests than one operation may spend. Select fewer items or fields.', {
            extensions: { code: COST_LIMIT_EXCEEDED, estimated: estimate.requests },
          }),
        );
        return;
      }
      // Requests whose resource the cache cannot answer, even stale, fail once the allowance is spent.
      if (estimate.unanswerable > ledger.available()) {
        refuse(
          new GraphQLError('The daily upstream allowance has not enough left for this operation.', {
            extensions: { code: ErrorCode.QuotaExhausted, scope: 'plan', estimated: estimate.requests, resetsAt: new Date(ledger.snapshot().resetsAt).toISOString() },
          }),
        );
        return;
      }
      let hold: BudgetHold | undefined;
      if (budgets.has(context.clientName)) {
        hold = budgets.hold(context.clientName, estimate.requests);
        if (hold === undefined) {
          refuse(
            new GraphQLError("This client's daily budget of upstream requests has not enough left for this operation.", {
              extensions: { code: ErrorCode.QuotaExhausted, scope: 'client', estimated: estimate.requests, resetsAt: budgets.resetsAtIso },
            }),
          );
          return;
        }
      }
      operationCosts.set(context, hold === undefined ? { estimated: estimate.requests } : { estimated: estimate.requests, hold });
    },
  };
}
