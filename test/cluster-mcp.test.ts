/**
 * The MCP endpoint in a cluster (issue 31): stateless, so any replica
 * serves any request of one client, and that client has one budget across
 * the replicas, as on /graphql (test/cluster-allowance.test.ts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { requestCounts, resetCounts } from './support/client.js';
import { startCluster, type Cluster } from './support/cluster.js';

const KEY = 'key-agent-cluster-0001';
const athlete = (offset: number): string =>
  `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + offset}) { name } } } }`;

interface Executed {
  data?: unknown;
  errors?: Array<{ extensions?: Record<string, unknown> }>;
  cost?: { upstreamRequests: number; budgetRemaining?: number };
  spent?: { upstreamRequests: number };
  after?: { available: number; budgetRemaining?: number };
}

describe('cluster: the MCP endpoint', { timeout: 120_000 }, () => {
  let cluster: Cluster;
  const clients: Client[] = [];

  beforeAll(async () => {
    cluster = await startCluster({ replicas: 2, env: { GATEWAY_CLIENT_KEYS: `agent:${KEY}:3` } });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await cluster?.close();
  });

  async function connect(url: string): Promise<Client> {
    const client = new Client({ name: 'cluster-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${KEY}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  const execute = async (client: Client, query: string): Promise<Executed> =>
    (((await client.callTool({ name: 'execute', arguments: { query } })) as CallToolResult).structuredContent ??
      {}) as Executed;

  it('one client over two replicas has one budget: the call past it is refused on either replica, with nothing sent', async () => {
    const [r1, r2] = cluster.replicas;
    const one = await connect(r1!.url);
    const two = await connect(r2!.url);
    await resetCounts(cluster.sandbox.url);
    const spent = [await execute(one, athlete(40)), await execute(two, athlete(41)), await execute(one, athlete(42))];
    for (const answer of spent) expect(answer.errors).toBeUndefined();
    expect(spent.map((answer) => answer.cost?.upstreamRequests)).toEqual([1, 1, 1]);
    expect(spent[2]?.cost?.budgetRemaining).toBe(0);
    // What each call spent, and what the ledger of the replica that ran it holds after: the shared count,
    // the other replica's call included (units still in flight count as gone: `available`).
    expect(spent.map((answer) => answer.spent?.upstreamRequests)).toEqual([1, 1, 1]);
    expect(spent[2]?.after?.budgetRemaining).toBe(0);
    expect(spent[2]?.after?.available).toBe((spent[0]?.after?.available ?? 0) - 2);
    expect((await requestCounts(cluster.sandbox.url)).total).toBe(3);

    const refused = await execute(two, athlete(43));
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXHAUSTED', scope: 'client' });
    expect((await requestCounts(cluster.sandbox.url)).total).toBe(3);
  });
});
