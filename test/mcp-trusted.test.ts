/**
 * Trusted documents as MCP tools (issue 31): with TRUSTED_DOCUMENTS_FILE,
 * each named operation of the manifest is a tool with its variables as
 * input schema, its comment and cold cost as description, run through
 * execute's path (exact sandbox counts); ad-hoc operations and the
 * examples outside the manifest cannot run, so they are not offered.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const first = hockeyV1Ids.firstAthleteId;
const ATHLETE = `# One V1 hockey athlete by ID: the name only.
query AthleteName($id: ID!) { v1 { hockey { athlete(id: $id) { name } } } }`;
/** Two operations in one document: each is a tool; the one without a comment is described by its name. */
const PAIR = `query TwoAthletes { v1 { hockey { athletes(ids: ["${first + 1}", "${first + 2}"]) { name } } } }

# Four athletes at once: above the per-call cap when nothing is cached.
query FourAthletes { v1 { hockey { athletes(ids: ["${first + 3}", "${first + 4}", "${first + 5}", "${first + 6}"]) { name } } } }`;
const CAP = 3;

const structured = (result: unknown): Record<string, unknown> =>
  (result as CallToolResult).structuredContent as Record<string, unknown>;

describe('the MCP endpoint with trusted documents', () => {
  let stack: TestStack;
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sports-graph-mcp-trusted-'));
    const file = join(dir, 'persisted-documents.json');
    const night = await readFile(new URL('../examples/operations/1-hockey-night.graphql', import.meta.url), 'utf8');
    await writeFile(file, JSON.stringify({ 'athlete-name': ATHLETE, pair: PAIR, 'hockey-night': night }));
    stack = await startStack({ env: { TRUSTED_DOCUMENTS_FILE: file, MCP_MAX_CALL_COST: String(CAP) } });
    client = new Client({ name: 'trusted-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.gateway.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await stack?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists each manifest operation as a tool, with its variables, its comment and its cold cost, and only the examples the manifest holds', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names.filter((name) => name.startsWith('trusted_')).sort()).toEqual([
      'trusted_athlete_name',
      'trusted_four_athletes',
      'trusted_hockey_night',
      'trusted_two_athletes',
    ]);
    expect(names.filter((name) => name.startsWith('example_'))).toEqual(['example_hockey_night']);
    expect(client.getInstructions()).toContain('trusted documents only');
    const byName = (name: string) => tools.find((tool) => tool.name === name);
    const athlete = byName('trusted_athlete_name');
    expect(athlete?.description).toMatch(
      /^One V1 hockey athlete by ID: the name only\. What it spends depends on its variables/,
    );
    expect(athlete?.inputSchema.required).toEqual(['id']);
    expect(byName('trusted_two_athletes')?.description).toBe(
      'The trusted operation TwoAthletes. Cold it spends at most 2 counted upstream requests; cached parts cost nothing.',
    );
    expect(byName('trusted_four_athletes')?.description).toMatch(
      /^Four athletes at once: above the per-call cap when nothing is cached\. Cold it spends at most 4 .*above the per-call cap of 3/,
    );
  });

  it('a trusted tool runs its operation through execute: exact spend, the cap, and ad-hoc text refused', async () => {
    await resetCounts(stack.sandbox.url);
    const athlete = structured(
      await client.callTool({ name: 'trusted_athlete_name', arguments: { id: String(first) } }),
    );
    expect(athlete['errors']).toBeUndefined();
    expect(athlete['data']).toMatchObject({ v1: { hockey: { athlete: { name: expect.any(String) } } } });
    expect(athlete['spent']).toEqual({ upstreamRequests: 1 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(1);

    const two = structured(await client.callTool({ name: 'trusted_two_athletes', arguments: {} }));
    expect(two['spent']).toEqual({ upstreamRequests: 2 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(3);

    const four = await client.callTool({ name: 'trusted_four_athletes', arguments: {} });
    expect(four.isError).toBe(true);
    expect(structured(four)).toMatchObject({ estimate: { requests: 4 }, maxCallCost: CAP });

    const missing = await client.callTool({ name: 'trusted_athlete_name', arguments: {} });
    expect(missing.isError).toBe(true);

    const adHoc = structured(
      await client.callTool({
        name: 'execute',
        arguments: { query: `{ v1 { hockey { athlete(id: ${first + 9}) { name } } } }` },
      }),
    );
    expect((adHoc['errors'] as Array<{ extensions: { code: string } }>)[0]?.extensions.code).toBe(
      'TRUSTED_DOCUMENTS_ONLY',
    );
    expect((await requestCounts(stack.sandbox.url)).total).toBe(3);
  });
});
