/**
 * A span per GraphQL query (HTTP and graphql-ws), the child of the
 * caller's span when the request carries a W3C `traceparent`, with a child
 * span per upstream resource it loads (src/tracing/upstream-spans.ts).
 *
 * Plugin order (src/plugins/pipeline.ts): before the result cache and the cost
 * plugin, so that the span covers a stored result served, a refusal, and
 * the cheap lists the estimate loads first. It ends when the operation has
 * answered: at once, or after the last payload of `@defer`/`@stream`.
 * Subscriptions are not traced: their upstream work belongs to the shared
 * live services, not to one operation.
 *
 * Attributes: `graphql.operation.type` and `.name`; `sports_graph.client`
 * (the key's name, never the key); `sports_graph.cost.estimated`,
 * `.upstream_requests`, `.counted_requests`, `.cache_hits`;
 * `sports_graph.allowance.remaining`; `sports_graph.error_codes` and an
 * error status when the answer carries errors.
 *
 * Result-cache hits answered before yoga (src/transport/http/result-cache-hits.ts) get a
 * span of their own from `fastHitSpan`.
 */
import type { IncomingMessage } from 'node:http';
import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { getOperationAST, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Code } from '../codes/error-codes.js';
import type { GatewayContext } from '../context.js';
import { operationCosts } from '../spend/estimate/operation-costs.js';
import type { HeaderReader, Tracing } from '../tracing/open-tracing.js';
import { upstreamSpans } from '../tracing/upstream-spans.js';

/** Headers of the request an operation came in on: yoga's `Request` over HTTP, the upgrade request over graphql-ws. */
function headersOf(context: GatewayContext): HeaderReader {
  const request = (context as Partial<Pick<GatewayContext, 'request'>>).request;
  if (request !== undefined) return (name) => request.headers.get(name) ?? undefined;
  const upgrade = (context as { req?: IncomingMessage }).req;
  return (name) => {
    const value = upgrade?.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
}

const codesOf = (errors: ExecutionResult['errors']): string[] => [
  ...new Set(
    (errors ?? []).map((error) =>
      typeof error.extensions?.['code'] === 'string' ? error.extensions['code'] : Code.INTERNAL_SERVER_ERROR,
    ),
  ),
];

/** Errors of one payload, incremental parts included. */
function payloadCodes(
  payload: ExecutionResult & { incremental?: ReadonlyArray<{ errors?: ExecutionResult['errors'] }> },
): string[] {
  return [...codesOf(payload.errors), ...(payload.incremental ?? []).flatMap((part) => codesOf(part.errors))];
}

function endWith(span: Span, codes: ReadonlySet<string>, attributes: Attributes): void {
  span.setAttributes(attributes);
  if (codes.size > 0) {
    span.setAttribute('sports_graph.error_codes', [...codes]);
    span.setStatus({ code: SpanStatusCode.ERROR, message: [...codes].join(', ') });
  }
  span.end();
}

export function useOperationSpans(tracing: Tracing): Plugin<GatewayContext> {
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      const loader = context.upstream;
      if (loader === undefined) return undefined;
      const operation = getOperationAST(args.document, args.operationName);
      const type = operation?.operation ?? 'query';
      const name = operation?.name?.value;
      const parent = tracing.parentOf(headersOf(context));
      const span = tracing.tracer.startSpan(
        name === undefined ? type : `${type} ${name}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'graphql.operation.type': type,
            ...(name === undefined ? {} : { 'graphql.operation.name': name }),
            ...(context.clientName === undefined ? {} : { 'sports_graph.client': context.clientName }),
          },
        },
        parent,
      );
      const { ledger } = context.services;
      loader.observer = upstreamSpans(tracing.tracer, trace.setSpan(parent, span), ledger);
      const codes = new Set<string>();
      return {
        onExecuteDone({ result }) {
          // Read now: the trace plugin, after this one, takes the estimate away.
          const estimated = operationCosts.get(context)?.estimated;
          const attributes = (): Attributes => {
            const stored = ('extensions' in result ? result.extensions?.['cost'] : undefined) as
              | { estimated?: number; cacheHits?: number }
              | undefined;
            return {
              'sports_graph.cost.estimated': estimated ?? stored?.estimated ?? 0,
              'sports_graph.cost.upstream_requests': loader.trace.upstreamRequests,
              'sports_graph.cost.counted_requests': loader.trace.countedRequests,
              // A stored result reports the loads it was built from (src/results/hit.ts).
              'sports_graph.cost.cache_hits':
                loader.trace.cacheHits + (loader.trace.resources.length === 0 ? (stored?.cacheHits ?? 0) : 0),
              'sports_graph.allowance.remaining': ledger.snapshot().remaining,
            };
          };
          if (Symbol.asyncIterator in result) {
            return {
              onNext({ result: payload }) {
                for (const code of payloadCodes(payload)) codes.add(code);
              },
              onEnd() {
                endWith(span, codes, attributes());
              },
            };
          }
          for (const code of payloadCodes(result)) codes.add(code);
          endWith(span, codes, attributes());
          return undefined;
        },
      };
    },
  };
}

/** A span for a result-cache hit answered before yoga: nothing was loaded, nothing spent. */
export function fastHitSpan(
  tracing: Tracing,
): (
  request: IncomingMessage,
  hit: { readonly operationName: string | undefined; readonly clientName: string | undefined },
) => void {
  return (request, { operationName, clientName }) => {
    const parent = tracing.parentOf((name) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    });
    const span = tracing.tracer.startSpan(
      operationName === undefined ? 'query' : `query ${operationName}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'graphql.operation.type': 'query',
          ...(operationName === undefined ? {} : { 'graphql.operation.name': operationName }),
          ...(clientName === undefined ? {} : { 'sports_graph.client': clientName }),
          'sports_graph.result_cache': 'hit',
          'sports_graph.cost.upstream_requests': 0,
        },
      },
      parent,
    );
    span.end();
  };
}
