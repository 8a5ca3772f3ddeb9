/**
 * The MCP server one request to `/mcp` talks to: its instructions and its
 * tools, each saying what it costs. A server is made per request (the
 * endpoint is stateless, src/transport/mcp/mcp-endpoint.ts); what it knows of
 * its caller is the GraphQL runner, which carries the caller's client key.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ExampleOperation } from '../../graphiql/example-operations.js';
import { UpstreamLoader } from '../../loaders/upstream-loader.js';
import type { Ledger } from '../../spend/ledger.js';
import type { CostExtension } from '../../spend/estimate/cost-extension.js';
import { fieldCosts } from '../../spend/estimate/cost-table.js';
import {
  dryEstimate,
  dryEstimateWithResources,
  prepareOperation,
  subscriptionsAreNotTools,
  type DryEstimateDeps,
} from './dry-estimate.js';
import { registerCuratedTools, type CuratedOperation } from './curated-tools.js';
import type { GraphqlAnswer, GraphqlRequest, RunGraphql } from './graphql-runner.js';
import { registerResources } from './mcp-resources.js';
import { searchSchema } from './schema-search.js';
import { sportCatalogue } from './sport-catalogue.js';
import { registerTrustedTools, type TrustedOperation } from './trusted-tools.js';

export interface McpToolDeps extends DryEstimateDeps {
  readonly ledger: Pick<Ledger, 'snapshot' | 'available'>;
  /** A client's budget left today; undefined for a client without one (src/spend/spend-gate.ts). */
  readonly budgetRemaining: (client: string | undefined) => number | undefined;
  /** `MCP_MAX_CALL_COST`. */
  readonly maxCallCost: number;
}

/** The version of the tool set an MCP client sees (it changes when the tools do, not with the gateway's releases). */
const TOOLS_VERSION = '1.0.0';

const operationInput = {
  query: z.string().min(1).describe('A GraphQL query or mutation document.'),
  variables: z.record(z.string(), z.unknown()).optional().describe('Variable values, by name.'),
  operationName: z.string().optional().describe('Which operation of the document to run, when it holds several.'),
};

const answer = (value: Record<string, unknown>, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
  ...(isError ? { isError: true } : {}),
});

const refusal = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

const instructions = (cap: number, trusted: boolean): string =>
  [
    'A GraphQL gateway over a paid sports data API: every counted upstream request spends one unit of a daily allowance shared by every client, and of your own budget when you have a client key.',
    'Cached data costs nothing. Find fields with search_schema (free), price an operation with estimate (free), then run it with execute.',
    'The example_* tools run the documented example operations with variables you fill in; their descriptions say what they cost cold.',
    `execute refuses an operation estimated above ${cap} counted upstream requests (MCP_MAX_CALL_COST); ask for fewer items or split it.`,
    'quota (free) shows the allowance, when it resets, and your budget. The resources hold the schema (SDL), the quota, the sport catalogue (the sports, slugs and route families of each version) and example operations, free to read.',
    ...(trusted
      ? [
          'This gateway runs trusted documents only: execute runs nothing but their exact text. The trusted_* tools run them with variables you fill in.',
        ]
      : []),
    subscriptionsAreNotTools,
  ].join('\n');

/** The cost of an answer as the agent reads it: `extensions.cost` of /graphql, or nothing when the operation was refused before the pipeline. */
const costOf = (result: GraphqlAnswer): Partial<CostExtension> | undefined =>
  result.extensions?.['cost'] as Partial<CostExtension> | undefined;

/** Who is calling: what the request's client key named, and how its operations run. */
export interface McpCaller {
  /** The client its key names; undefined without client keys. */
  readonly client: string | undefined;
  readonly run: RunGraphql;
}

/** The example operations (as resources, and those that can be tools as tools), and the trusted documents' operations. */
export interface McpCatalogue {
  readonly examples: readonly ExampleOperation[];
  readonly curated: readonly CuratedOperation[];
  /** Empty without `TRUSTED_DOCUMENTS_FILE`. */
  readonly trusted: readonly TrustedOperation[];
}

/** The quota as `quota` and the quota resource show it to `client`. */
function quotaFor(deps: McpToolDeps, client: string | undefined): Record<string, unknown> {
  const quota = deps.ledger.snapshot();
  const budget = deps.budgetRemaining(client);
  return {
    plan: quota.plan.toUpperCase(),
    limit: quota.limit,
    used: quota.used,
    remaining: quota.remaining,
    resetsAt: new Date(quota.resetsAt).toISOString(),
    ...(budget === undefined ? {} : { budgetRemaining: budget }),
    maxCallCost: deps.maxCallCost,
  };
}

export function mcpServer(deps: McpToolDeps, { client, run }: McpCaller, catalogue: McpCatalogue): McpServer {
  const cap = deps.maxCallCost;
  const server = new McpServer(
    { name: 'sports-graph', version: TOOLS_VERSION },
    { instructions: instructions(cap, catalogue.trusted.length > 0) },
  );

  /** Runs an operation through /graphql unless its estimate is above the per-call cap. */
  const execute = async (request: GraphqlRequest): Promise<CallToolResult> => {
    const prepared = prepareOperation(deps.schema, deps.config, request);
    if (!prepared.ok) return refusal(prepared.message);
    const estimate = await dryEstimate(deps, prepared);
    if (estimate.requests > cap)
      return answer(
        {
          refused: `Estimated at ${estimate.requests} counted upstream requests, above the per-call cap of ${cap} (MCP_MAX_CALL_COST): nothing was run. Ask for fewer items, or split the operation.`,
          estimate: { requests: estimate.requests, uncached: estimate.unanswerable },
          maxCallCost: cap,
        },
        true,
      );
    const result = await run(request);
    const { status, ...graphql } = result;
    const cost = costOf(result);
    return answer(
      {
        ...graphql,
        cost: cost ?? null,
        // What this call sent upstream, from the operation's own meter (0 when refused before it ran).
        spent: { upstreamRequests: cost?.upstreamRequests ?? 0 },
        // Read from the ledger and the budgets once the operation has finished, not computed from the estimate.
        // `available` also counts units still in flight as gone: in a cluster this call's own units are
        // committed to Redis a moment after its answer, so `remaining` may not show them yet; `available` does.
        after: { ...quotaFor(deps, client), available: deps.ledger.available() },
      },
      result.data === undefined || result.data === null,
    );
  };

  server.registerTool(
    'execute',
    {
      description: `Runs a GraphQL query or mutation on the gateway. Costs what its estimate says: counted upstream requests for whatever is not cached, charged to the daily allowance and your budget. Refused before it runs when the estimate is above ${cap} counted requests (the per-call cap). The result carries cost (extensions.cost: estimated, upstreamRequests, cacheHits, allowanceRemaining, budgetRemaining), spent (the upstream requests this call sent) and after (the allowance and your budget as the ledger holds them once the call has finished). ${subscriptionsAreNotTools}`,
      inputSchema: operationInput,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (request) => execute(request),
  );

  server.registerTool(
    'estimate',
    {
      description: `Free: the counted upstream requests an operation would spend now (an upper bound from the cache and the cost table), without running it. Also says how many of them have nothing cached at all (the rest can be answered stale when the allowance is spent), whether execute would refuse it (per-call cap ${cap}), and each counted resource the estimate looked up: cached fresh (costs 0), stale or not at all, and the cached copy's age in seconds.`,
      inputSchema: operationInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (request) => {
      const prepared = prepareOperation(deps.schema, deps.config, request);
      if (!prepared.ok) return refusal(prepared.message);
      const { estimate, resources, resourcesLeftOut } = await dryEstimateWithResources(deps, prepared);
      return answer({
        requests: estimate.requests,
        uncached: estimate.unanswerable,
        staleAnswerable: estimate.requests - estimate.unanswerable,
        spent: 0,
        maxCallCost: cap,
        overCap: estimate.requests > cap,
        allowanceRemaining: deps.ledger.snapshot().remaining,
        resources,
        ...(resourcesLeftOut > 0 ? { resourcesLeftOut } : {}),
      });
    },
  );

  server.registerTool(
    'quota',
    {
      description: `Free: the plan, its daily allowance (limit, used, remaining, resetsAt), your budget left when you have a client key, and the per-call cap of execute (${cap}).`,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    // Read here, not through /graphql: an ad-hoc `{ quota }` is refused when only trusted documents run.
    async () => answer(quotaFor(deps, client)),
  );

  server.registerTool(
    'search_schema',
    {
      description:
        'Free: the schema types and fields whose name or description holds every given word, as SDL with descriptions and a cost hint per field.',
      inputSchema: { words: z.string().min(1).describe('Words to look for, e.g. "hockey roster".') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ words }) => {
      const found = searchSchema(deps.schema, fieldCosts, words);
      if (found.snippets.length === 0)
        return { content: [{ type: 'text', text: `Nothing in the schema matches "${words}".` }] };
      const more =
        found.leftOut > 0 ? `\n# ${found.leftOut} more matches left out: add words to narrow the search.` : '';
      return { content: [{ type: 'text', text: `${found.snippets.join('\n\n')}${more}` }] };
    },
  );

  registerCuratedTools(server, deps.schema, catalogue.curated, cap, execute);
  registerTrustedTools(server, deps.schema, catalogue.trusted, cap, execute);
  registerResources(server, {
    schema: deps.schema,
    quota: () => quotaFor(deps, client),
    examples: catalogue.examples,
    // A loader of its own, as an operation has: the catalogue is one free, cached request.
    sports: () =>
      sportCatalogue(
        { upstream: new UpstreamLoader(deps.fetcher, Date.now() + deps.config.timeouts.operationMs) },
        deps.schema,
      ),
  });
  return server;
}
