/**
 * The GraphQL door of the spend gate (src/spend/spend-gate.ts): before
 * execution and without an upstream request, an operation is estimated in
 * counted upstream requests (src/spend/estimate/estimate.ts) and refused when the
 * gate refuses it (COST_LIMIT_EXCEEDED, or QUOTA_EXHAUSTED with `scope`
 * `plan` or `client` when it would spend what is left on a fraction of its
 * answer); otherwise it runs, each counted request passing its client's
 * budget guard (src/spend/operation-budget.ts), which the trace plugin
 * settles with what was really spent.
 *
 * It hooks `onExecute`, which graphql-ws runs too (src/transport/ws/graphql-ws-server.ts sends every
 * WebSocket operation through yoga's envelop), so both transports are
 * covered. An estimate is reused for the same document and variables
 * while nothing cached has changed (src/spend/estimate/estimate-memo.ts).
 * Subscriptions are not estimated here: they spend through shared
 * live services, whose subscribe resolvers pass the same gate
 * (src/spend/poll-payers.ts).
 */
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';
import { costExtension } from '../spend/estimate/cost-extension.js';
import type { FieldCost } from '../spend/estimate/cost-rule.js';
import { costedOperation } from '../spend/estimate/costed-selections.js';
import { estimateOperation } from '../spend/estimate/estimate.js';
import { EstimateMemo } from '../spend/estimate/estimate-memo.js';
import { fieldCosts } from '../spend/estimate/cost-table.js';
import { operationCosts } from '../spend/estimate/operation-costs.js';
import { refusalError } from '../spend/spend-refusal.js';
import { coercedVariables } from './coerced-variables.js';

export interface CostLimitOptions {
  /** The schema's cost table. @default fieldCosts (src/spend/estimate/cost-table.ts) */
  costs?: Readonly<Record<string, FieldCost>>;
  /** Where estimates are kept for reuse (src/spend/estimate/estimate-memo.ts). @default a memo of this plugin's own */
  memo?: EstimateMemo;
}

export function useCostLimit({
  costs = fieldCosts,
  memo = new EstimateMemo(),
}: CostLimitOptions = {}): Plugin<GatewayContext> {
  return {
    onSubscribe({ args }) {
      const context = args.contextValue;
      if (context.upstream === undefined) return undefined;
      // A subscription's own loads (not its shared polls: src/spend/poll-payers.ts) are charged to its client as they are reserved.
      const budget = context.services.spend.operationBudget(context.clientName);
      context.upstream.meter.guard = budget ?? context.services.spend.payerWithoutBudget(context.clientName);
      if (budget === undefined) return undefined;
      return { onSubscribeResult: () => ({ onEnd: () => void budget.settle() }) };
    },
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue;
      if (context.upstream === undefined) return;
      const { ledger, spend } = context.services;
      // Before anything can load (the estimate may load a cheap list first, field-costs.ts): every counted request has its payer.
      const budget = spend.operationBudget(context.clientName);
      context.upstream.meter.guard = budget ?? spend.payerWithoutBudget(context.clientName);
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      if (operation == null || operation.operation === 'subscription') return;
      const coerced = coercedVariables(args.schema, operation, args.variableValues);
      // Bad variables fail at execution, before any request.
      if (coerced.errors !== undefined) return;
      // Once per document: the fields the estimate can find a cost in (fragments inlined); the walk below decides the rest per request.
      const costed = costedOperation(args.schema, costs, args.document, operation);
      const { trace } = context.upstream;
      const unpaid = (): number => trace.joinedCounted + trace.unsentCounted;
      const unpaidBefore = unpaid();
      // The same document and variables over an unchanged cache estimate the same (src/spend/estimate/estimate-memo.ts).
      const memoKey = { schema: args.schema, costs, operation: costed, variables: coerced.coerced };
      const { cache } = context.services.fetcher;
      const reused = memo.reuse(memoKey, (key) => cache.isFresh(key));
      let estimate = reused?.estimate;
      if (estimate === undefined) {
        const start = memo.start(memoKey);
        const countedBefore = context.upstream.meter.counted;
        estimate = await estimateOperation({
          schema: args.schema,
          operation: costed,
          fragments: {},
          variables: coerced.coerced,
          context,
          config: context.services.config,
          costs,
        });
        // A walk that loaded anything made part of the state it read: not one to reuse.
        if (context.upstream.meter.counted === countedBefore && unpaid() === unpaidBefore)
          memo.keep(memoKey, estimate, start, context.upstream.knownAnswers());
      } else {
        // Execution reads what the reused walk read, as the walk's own operation does (src/spend/estimate/resolve-known.ts).
        for (const [key, peeked] of reused?.known ?? []) context.upstream.keepKnown(key, peeked);
        context.services.metrics.estimateReuses.inc();
      }
      const spent = context.upstream.meter.counted;
      // What estimating loaded is part of the estimate, paid or not: requests it joined in flight, and those refused before they left.
      const estimated = estimate.requests + spent + (unpaid() - unpaidBefore);
      const admission = await spend.admitOperation(estimate, context.clientName, budget, spent);
      if (!admission.ok) {
        const budgetRemaining = budget === undefined ? spend.budgetRemaining(context.clientName) : budget.settle();
        const cost = costExtension(
          { estimated, upstreamRequests: trace.upstreamRequests, cacheHits: trace.cacheHits },
          ledger,
          budgetRemaining,
        );
        setResultAndStopExecution({ errors: [refusalError(admission.refusal)], extensions: { cost } });
        return;
      }
      operationCosts.set(context, budget === undefined ? { estimated } : { estimated, budget });
    },
  };
}
