import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { endOnAbort } from '../streams/end-on-abort.js';

const isStream = (
  value: ExecutionResult | AsyncIterableIterator<ExecutionResult>,
): value is AsyncIterableIterator<ExecutionResult> => Symbol.asyncIterator in value;

/**
 * Every subscription, over graphql-ws and SSE alike (both run through
 * envelop's subscribe), completes when `signal` aborts: the gateway's
 * graceful shutdown (src/gateway/lifecycle.ts) ends them before it closes sockets.
 */
export function useSubscriptionDrain(signal: AbortSignal): Plugin {
  return {
    onSubscribe() {
      return {
        onSubscribeResult({ result, setResult }) {
          if (isStream(result)) setResult(endOnAbort(result, signal));
        },
      };
    },
  };
}
