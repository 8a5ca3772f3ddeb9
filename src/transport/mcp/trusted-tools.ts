/**
 * The trusted documents (`TRUSTED_DOCUMENTS_FILE`, src/config/trusted-manifest.ts)
 * as tools of their own, as Apollo's MCP server offers persisted operations:
 * with a manifest only its operations run, so they are what an agent can
 * do. Each named query or mutation of a manifest document is a tool named
 * for the operation (`AthleteName` -> `trusted_athlete_name`); its input
 * schema is the operation's variables (variable-schema.ts), its description
 * the comment written above the operation, and the most it spends cold
 * (the dry estimate over an empty cache) when it needs no variables to be
 * priced. It runs through `execute`'s path (the cap, /graphql's doors and
 * costs), sending the manifest's exact text, which trusted mode admits.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import type { TrustedManifest } from '../../config/trusted-manifest.js';
import { snakeName } from './curated-tools.js';
import { coldCache, dryEstimate, prepareOperation, type DryEstimateDeps } from './dry-estimate.js';
import type { GraphqlRequest } from './graphql-runner.js';
import { variablesShape } from './variable-schema.js';

export interface TrustedOperation {
  /** The manifest ID of its document. */
  readonly id: string;
  readonly tool: string;
  /** The manifest document, exactly: trusted mode runs no other text. */
  readonly document: string;
  readonly operation: OperationDefinitionNode & { readonly name: NonNullable<OperationDefinitionNode['name']> };
  /** The comment above the operation, as one line; empty when none. */
  readonly summary: string;
  /** Counted upstream requests it spends at most cold; undefined when its required variables decide it. */
  readonly cold: number | undefined;
}

/** `AthleteName` -> `trusted_athlete_name`. */
export const trustedToolName = (operationName: string): string => `trusted_${snakeName(operationName)}`;

/** The `#` lines right above line `line` (1-based) of `text`, joined: the operation's own comment. */
function commentAbove(text: string, line: number): string {
  const lines = text.split('\n');
  const comment: string[] = [];
  for (let at = line - 2; at >= 0; at--) {
    const trimmed = (lines[at] ?? '').trim();
    if (!trimmed.startsWith('#')) break;
    comment.unshift(trimmed.replace(/^#\s?/, ''));
  }
  return comment.join(' ').replace(/\s+/g, ' ').trim();
}

/** Every named query and mutation of the manifest, each with its cold cost; computed once. */
export async function trustedOperations(deps: DryEstimateDeps, manifest: TrustedManifest): Promise<TrustedOperation[]> {
  const found: TrustedOperation[] = [];
  const named = new Set<string>();
  for (const [id, document] of manifest.documents) {
    // Parsed at start-up already (loadTrustedManifest): this cannot throw.
    for (const definition of parse(document).definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION || definition.operation === 'subscription') continue;
      const name = definition.name;
      if (name === undefined) continue;
      const tool = trustedToolName(name.value);
      // Two documents naming the same operation: the first is the tool.
      if (named.has(tool)) continue;
      named.add(tool);
      const prepared = prepareOperation(deps.schema, deps.config, {
        query: document,
        variables: {},
        operationName: name.value,
      });
      const cold = prepared.ok ? (await dryEstimate(deps, prepared, coldCache(deps.fetcher))).requests : undefined;
      found.push({
        id,
        tool,
        document,
        operation: { ...definition, name },
        summary: commentAbove(document, definition.loc?.startToken.line ?? 1),
        cold,
      });
    }
  }
  return found;
}

export function registerTrustedTools(
  server: McpServer,
  schema: DryEstimateDeps['schema'],
  trusted: readonly TrustedOperation[],
  cap: number,
  execute: (request: GraphqlRequest) => Promise<CallToolResult>,
): void {
  for (const { tool, document, operation, summary, cold } of trusted) {
    const what = summary === '' ? `The trusted operation ${operation.name.value}.` : summary;
    const cost =
      cold === undefined
        ? ` What it spends depends on its variables: counted upstream requests for what is not cached, refused above the per-call cap of ${cap}.`
        : ` Cold it spends at most ${cold} counted upstream requests; cached parts cost nothing.${
            cold > cap ? ` Cold it is above the per-call cap of ${cap}: it runs once enough of it is cached.` : ''
          }`;
    server.registerTool(
      tool,
      {
        description: `${what}${cost}`,
        inputSchema: variablesShape(schema, operation, {}),
        annotations: { readOnlyHint: operation.operation === 'query', openWorldHint: true },
      },
      async (args: Record<string, unknown>) => {
        const given = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
        return execute({ query: document, variables: given, operationName: operation.name.value });
      },
    );
  }
}
