/**
 * Talking to the servers as a client would: GraphQL over fetch, and the
 * sandbox's control routes.
 */
export interface GraphQLResponse<T = Record<string, unknown>> {
  status: number;
  data?: T | null;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>;
  extensions?: Record<string, unknown>;
  text: string;
}

export function gql<T = Record<string, unknown>>(
  gatewayUrl: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<T>> {
  return gqlAt<T>(`${gatewayUrl}/graphql`, query, variables, headers);
}

/** The same, to any GraphQL endpoint (the gateway's `/subgraph`, a router). */
export async function gqlAt<T = Record<string, unknown>>(
  endpoint: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<T>> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  const body = JSON.parse(text) as Omit<GraphQLResponse<T>, 'status' | 'text'>;
  return { ...body, status: response.status, text };
}

export interface RequestCounts {
  total: number;
  byRoute: Record<string, number>;
}

export async function requestCounts(sandboxUrl: string): Promise<RequestCounts> {
  const response = await fetch(`${sandboxUrl}/__sandbox/requests`);
  return (await response.json()) as RequestCounts;
}

export async function resetCounts(sandboxUrl: string): Promise<void> {
  await fetch(`${sandboxUrl}/__sandbox/requests/reset`, { method: 'POST' });
}

export interface Fault {
  route: string;
  kind?: 'status' | 'reset' | 'hang' | 'trickle' | 'malformed' | 'huge' | 'drop-idle' | 'delay' | 'close-reused';
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  latencyMs?: number;
  times?: number;
  /** Grow the array at `path` in `body` to `length` entries (sandbox faults.ts). */
  grow?: { path: Array<string | number>; length: number };
}

export async function injectFault(sandboxUrl: string, fault: Fault): Promise<void> {
  const response = await fetch(`${sandboxUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  if (response.status !== 201) throw new Error(`fault not accepted: ${response.status} ${await response.text()}`);
}

export async function clearFaults(sandboxUrl: string): Promise<void> {
  await fetch(`${sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
}

export async function setSandboxQuota(sandboxUrl: string, quota: { used?: number; limit?: number }): Promise<void> {
  const response = await fetch(`${sandboxUrl}/__sandbox/quota`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(quota),
  });
  if (!response.ok) throw new Error(`the sandbox refused the quota ${JSON.stringify(quota)}: ${response.status}`);
}
