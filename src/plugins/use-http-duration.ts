/**
 * `graphql_yoga_http_duration` as @graphql-yoga/plugin-prometheus observes
 * it: from its `onRequest` to its `onResponse` (this plugin sits where that
 * one did: the pipeline's prometheus stage), for a request whose document
 * parsed, labelled with the method, the answer's status, the operation's
 * type and name ('unknown', 'Anonymous' when absent) and the URL's path
 * (never the host or a GET operation's query string), in that order.
 *
 * Its own because the plugin spreads the whole server context (which yoga
 * fills with the operation's context) and its parameters into two new
 * objects per answer, for a label function that reads neither; with the
 * plugin's metric switched off (src/operation-metrics.ts) this observes the
 * same histogram with the same labels and values.
 */
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayMetrics } from '../metrics.js';

interface Operation {
  readonly name: string | undefined;
  readonly type: string | undefined;
}

/** The path of a request URL ('/graphql'), 'unknown' when it does not parse. */
function parsedPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return 'unknown';
  }
}

/**
 * `parsedPath`, parsed again only when the URL differs from the last one:
 * the requests of one client (and a load generator's) repeat the same URL,
 * and a URL parse per answer was a visible part of an executed operation's CPU.
 */
function lastPathMemo(): (url: string) => string {
  let lastUrl: string | undefined;
  let lastPath = '';
  return (url) => {
    if (url !== lastUrl) {
      lastPath = parsedPath(url);
      lastUrl = url;
    }
    return lastPath;
  };
}

export function useHttpDuration(histogram: GatewayMetrics['httpDuration']): Plugin {
  const pathOf = lastPathMemo();
  const startByRequest = new WeakMap<Request, number>();
  const operationByRequest = new WeakMap<Request, Operation>();
  return {
    onRequest({ request }) {
      startByRequest.set(request, Date.now());
    },
    onParse({ context }) {
      if (!context.request) return undefined;
      return ({ result, context: parsed }) => {
        // A parse that failed is not an operation: the plugin observed nothing for it either.
        if (result === null || result instanceof Error) return;
        const operation = getOperationAST(result, parsed.params?.operationName);
        operationByRequest.set(parsed.request, { name: operation?.name?.value, type: operation?.operation });
      };
    },
    onResponse({ request, response }) {
      const start = startByRequest.get(request);
      const operation = operationByRequest.get(request);
      if (!start || operation === undefined) return;
      histogram.observe(
        {
          method: request.method,
          statusCode: response.status,
          operationType: operation.type || 'unknown',
          operationName: operation.name || 'Anonymous',
          url: pathOf(request.url),
        },
        (Date.now() - start) / 1000,
      );
    },
  };
}
