/**
 * The example operations (examples/operations/) as tools of their own: an
 * agent runs a known-good operation by filling in its variables, without
 * writing GraphQL. Each tool's input schema comes from the operation's
 * variable types (variable-schema.ts), defaulting to the example's values;
 * its description is the example's own comment, which says what it shows
 * and costs, and the most it spends cold (the dry estimate over a cache
 * that holds nothing). Subscriptions are left out: they are not tools.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { OperationDefinitionNode } from 'graphql';
import { exampleSummary, type ExampleOperation } from '../../graphiql/example-operations.js';
import { coldCache, dryEstimate, prepareOperation, type DryEstimateDeps } from './dry-estimate.js';
import type { GraphqlRequest } from './graphql-runner.js';
import { variablesShape } from './variable-schema.js';

export interface CuratedOperation {
  readonly example: ExampleOperation;
  readonly operation: OperationDefinitionNode;
  /** Counted upstream requests it spends at most with nothing cached, with the example's variables. */
  readonly cold: number;
}

/** An operation name in snake case, as tools are named: `HockeyNight` → `hockey_night`. */
export const snakeName = (operationName: string): string =>
  operationName
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

/** `HockeyNight` → `example_hockey_night`. */
export const curatedToolName = (operationName: string): string => `example_${snakeName(operationName)}`;

/** The examples that can be tools, each with its cold cost; computed once, when the examples are first read. */
export async function curate(
  deps: DryEstimateDeps,
  examples: readonly ExampleOperation[],
): Promise<CuratedOperation[]> {
  const curated: CuratedOperation[] = [];
  for (const example of examples) {
    if (example.type === 'subscription') continue;
    const prepared = prepareOperation(deps.schema, deps.config, {
      query: example.document,
      variables: { ...example.variables },
      operationName: example.name,
    });
    if (!prepared.ok) continue;
    const cold = await dryEstimate(deps, prepared, coldCache(deps.fetcher));
    curated.push({ example, operation: prepared.operation, cold: cold.requests });
  }
  return curated;
}

export function registerCuratedTools(
  server: McpServer,
  schema: DryEstimateDeps['schema'],
  curated: readonly CuratedOperation[],
  cap: number,
  execute: (request: GraphqlRequest) => Promise<CallToolResult>,
): void {
  for (const { example, operation, cold } of curated) {
    const overCap =
      cold > cap ? ` Cold it is above the per-call cap of ${cap}: it runs once enough of it is cached.` : '';
    server.registerTool(
      curatedToolName(example.name),
      {
        description: `${exampleSummary(example)} Cold it spends at most ${cold} counted upstream requests; cached parts cost nothing.${overCap}`,
        inputSchema: variablesShape(schema, operation, example.variables),
        annotations: { readOnlyHint: example.type === 'query', openWorldHint: true },
      },
      async (args: Record<string, unknown>) => {
        const given = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
        return execute({
          query: example.document,
          variables: { ...example.variables, ...given },
          operationName: example.name,
        });
      },
    );
  }
}
