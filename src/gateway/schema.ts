/**
 * The gateway's executable schemas, made from `schema/*.graphql` and the
 * resolvers: /graphql's stand-alone API, and the Federation v2 subgraph's
 * (src/federation), a schema of its own so that /graphql's stays the
 * stand-alone API.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from '../../resolvers/index.js';
import type { Config } from '../config.js';
import { buildGatewaySubgraphSchema } from '../federation/subgraph-schema.js';
import { withDegradedParts } from '../model/degraded-fields.js';
import { runtimeDir } from '../runtime-files.js';

/** Every `schema/*.graphql` file, in name order. */
export function loadTypeDefs(): string[] {
  const schemaDir = runtimeDir('schema');
  return readdirSync(schemaDir)
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => readFileSync(join(schemaDir, name), 'utf8'));
}

/** /graphql's schema. */
export function standAloneSchema(typeDefs: string[]): GraphQLSchema {
  return withDegradedParts(makeExecutableSchema({ typeDefs, resolvers }));
}

/** /subgraph's schema: the same types and resolvers, with the federation directives and entities. */
export function subgraphSchema(typeDefs: string[], federation: Config['federation']): GraphQLSchema {
  return withDegradedParts(buildGatewaySubgraphSchema(typeDefs, resolvers, { hidden: federation.hidden }));
}
