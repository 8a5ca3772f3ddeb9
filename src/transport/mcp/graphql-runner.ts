/**
 * Runs one GraphQL operation for an MCP tool through /graphql's own yoga,
 * with the caller's client key: the tool passes the same doors as a
 * request to /graphql (client keys, operation limits, the cost limit and
 * the budgets, the result cache, tracing, metrics, error codes), and its
 * answer carries the same `extensions.cost`.
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface GraphqlRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | undefined;
  readonly operationName?: string | undefined;
}

/** A GraphQL answer as /graphql sends it, with the HTTP status it came with. */
export interface GraphqlAnswer {
  readonly status: number;
  readonly data?: unknown;
  readonly errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }>;
  readonly extensions?: Record<string, unknown>;
}

export type RunGraphql = (request: GraphqlRequest) => Promise<GraphqlAnswer>;

/** What /graphql's yoga answers a fetch with. */
export interface FetchesGraphql {
  fetch(input: string, init: RequestInit): Response | Promise<Response>;
}

/** The headers that name the caller to the access stage (src/plugins/use-client-keys.ts). */
const callerHeaders = ['authorization', 'x-client-key'] as const;

export function graphqlRunner(yoga: FetchesGraphql, caller: IncomingHttpHeaders): RunGraphql {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  for (const name of callerHeaders) {
    const value = caller[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return async (request) => {
    const response = await yoga.fetch('http://gateway/graphql', {
      method: 'POST',
      headers,
      body: JSON.stringify(request),
    });
    const body = (await response.json()) as Omit<GraphqlAnswer, 'status'>;
    return { ...body, status: response.status };
  };
}
