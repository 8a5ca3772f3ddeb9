/**
 * The safety net behind the operation deadline: a query or mutation whose
 * execution has not settled `settleMs` after its operation started is
 * answered OPERATION_TIMEOUT (HTTP 504, no `data`), once, and logged once
 * with its operation name.
 *
 * The deadline in the context (`OPERATION_TIMEOUT_MS`) bounds what waits on
 * the upstream, not the execution itself: a resolver promise that never
 * settles, or a throw inside graphql-jit's compiled code where it cannot
 * reach the result (a throwing property read on an object a resolver
 * promise gave: graphql-jit's `resolvePromise` never counts it done),
 * would otherwise leave the client waiting for ever. `settleMs` is a second
 * past that deadline, so by the time this acts every upstream request of
 * the operation has been cut by the deadline and recorded: the answer's
 * `extensions.cost` and the client's budget are charged with all of it, and
 * the budget, settled then, refuses anything the abandoned execution would
 * still try to spend. The allowance ledger counts each request before it
 * is sent, whatever happens to the operation.
 *
 * Last in the onExecute chain, so that it wraps the execute function that
 * really runs (graphql-jit's or graphql-js's). An execution that completes
 * synchronously is never watched; the others share one timer
 * (settle-sweep.ts). graphql-ws runs queries through the same hooks, so a
 * WebSocket query is bounded too; subscriptions go through `subscribe`, not
 * here (long-lived by design). A late answer the execution gives after the
 * net answered is dropped.
 */
import { getOperationAST, GraphQLError, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { Code } from '../codes/error-codes.js';
import type { GatewayContext } from '../context.js';
import type { SettleSweep } from './settle-sweep.js';

export interface OperationTimeoutOptions {
  readonly sweep: SettleSweep;
  /** The operation deadline (`config.timeouts.operationMs`): the context's `deadline` is its start plus this. */
  readonly operationMs: number;
  /** How long after its start an execution may take before it is answered OPERATION_TIMEOUT (`config.timeouts.settleMs`). */
  readonly settleMs: number;
  readonly logger: Logger;
}

type Execute = (args: ExecutionArgs) => unknown;

const isPromise = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

function timedOut(settleMs: number): ExecutionResult {
  return {
    errors: [
      new GraphQLError(
        `The operation did not finish within ${settleMs} ms and was abandoned; what it spent upstream is counted.`,
        {
          extensions: { code: Code.OPERATION_TIMEOUT },
        },
      ),
    ],
  };
}

export function useOperationTimeout({
  sweep,
  operationMs,
  settleMs,
  logger,
}: OperationTimeoutOptions): Plugin<GatewayContext> {
  const bounded =
    (execute: Execute, at: number): Execute =>
    (args) => {
      const running = execute(args);
      if (!isPromise(running)) return running;
      return new Promise<unknown>((resolve, reject) => {
        const watch = sweep.watch(at, () => {
          resolve(timedOut(settleMs));
          const operationName = args.operationName ?? getOperationAST(args.document, undefined)?.name?.value ?? null;
          logger.warn(
            { operationName, settleMs, code: Code.OPERATION_TIMEOUT },
            'an operation did not settle in time: answered OPERATION_TIMEOUT',
          );
        });
        running.then(
          (result) => {
            if (sweep.done(watch)) resolve(result);
          },
          (error: unknown) => {
            if (sweep.done(watch)) reject(error);
          },
        );
      });
    };
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const deadline = (args.contextValue as Partial<GatewayContext>).deadline;
      // A context without a deadline was not made by the gateway's context factory: nothing to measure from.
      if (deadline === undefined) return;
      setExecuteFn(bounded(executeFn as Execute, deadline - operationMs + settleMs) as typeof executeFn);
    },
  };
}
