/**
 * What an agent can read without calling a tool, all free: the schema as
 * SDL, the quota as `quota` shows it, the sport catalogue (each version's
 * sports, slugs and route families, sport-catalogue.ts), and the example
 * operations (examples/operations/, GraphiQL's first tabs) with their variables.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { printSchema, type GraphQLSchema } from 'graphql';
import { exampleSummary, type ExampleOperation } from '../../graphiql/example-operations.js';

/** The schema printed once: it never changes while the gateway runs, and it is ~100 KB of text. */
const printed = new WeakMap<GraphQLSchema, string>();

function sdlOf(schema: GraphQLSchema): string {
  let sdl = printed.get(schema);
  if (sdl === undefined) {
    sdl = printSchema(schema);
    printed.set(schema, sdl);
  }
  return sdl;
}

export interface ResourceSources {
  readonly schema: GraphQLSchema;
  /** The quota as the `quota` tool answers it, for this caller. */
  readonly quota: () => Record<string, unknown>;
  readonly examples: readonly ExampleOperation[];
  /** The sport catalogue per version (sport-catalogue.ts); it reads `/reference/sports`, which spends no allowance. */
  readonly sports: () => Promise<unknown>;
}

export function registerResources(server: McpServer, { schema, quota, examples, sports }: ResourceSources): void {
  server.registerResource(
    'schema',
    'sports-graph://schema',
    { description: 'Free: the whole GraphQL schema as SDL, with descriptions.', mimeType: 'application/graphql' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/graphql', text: sdlOf(schema) }] }),
  );
  server.registerResource(
    'quota',
    'sports-graph://quota',
    {
      description: "Free: the plan's daily allowance, its reset time, your budget and the per-call cap of execute.",
      mimeType: 'application/json',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(quota()) }] }),
  );
  server.registerResource(
    'sports',
    'sports-graph://sports',
    {
      description:
        'Free: per upstream version (v1, v2, v3, v4, v6), the sports it carries (catalogue key, name, slug, and the Sport value that names it) and its route families (the upstream routes the gateway calls, by sport, and how many of them spend the allowance). Read from the free sport catalogue and the route tables.',
      mimeType: 'application/json',
    },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await sports()) }],
    }),
  );
  for (const example of examples) {
    const variables = example.variablesJson === null ? '' : `\n# variables:\n# ${JSON.stringify(example.variables)}\n`;
    server.registerResource(
      `example ${example.name}`,
      `sports-graph://examples/${example.file}`,
      {
        description: `Free to read: ${exampleSummary(example)} Estimate it before you execute it.`,
        mimeType: 'application/graphql',
      },
      (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'application/graphql', text: `${example.document}${variables}` }],
      }),
    );
  }
}
