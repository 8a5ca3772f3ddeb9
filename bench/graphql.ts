/** GraphQL over HTTP as the bench sends it. */
import type { Operation } from './workload.js';

export interface GraphQLAnswer {
  readonly status: number;
  readonly body: { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
}

export const graphqlHeaders = {
  'content-type': 'application/json',
  accept: 'application/graphql-response+json',
} as const;

export function operationBody(operation: Operation): string {
  return JSON.stringify({ query: operation.query, variables: operation.variables ?? {} });
}

export async function postOperation(gatewayUrl: string, operation: Operation): Promise<GraphQLAnswer> {
  const response = await fetch(`${gatewayUrl}/graphql`, {
    method: 'POST',
    headers: graphqlHeaders,
    body: operationBody(operation),
  });
  return { status: response.status, body: (await response.json()) as GraphQLAnswer['body'] };
}
