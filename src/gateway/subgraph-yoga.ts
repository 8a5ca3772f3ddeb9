/**
 * /subgraph's yoga, the Federation v2 subgraph (src/federation): its own
 * schema, so that /graphql's stays the stand-alone API. Made on the first
 * request to /subgraph (about as long as /graphql's schema takes), not by
 * every gateway start; undefined when the subgraph is switched off.
 */
import type { RequestListener } from 'node:http';
import { createYoga } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { OperationContext } from '../context.js';
import { SUBGRAPH_PATH } from '../federation/route-subgraph.js';
import { subgraphFieldCosts } from '../federation/entity-cost.js';
import type { Endpoint, GatewayPlugin } from '../plugins/pipeline.js';
import { subgraphSchema } from './schema.js';
import { yogaCommon } from './graphql-yoga.js';

/** The subgraph's operations: its entities' costs, and stored results kept apart from /graphql's. */
export const subgraphEndpoint: Endpoint = { name: 'subgraph', costs: subgraphFieldCosts, resultNamespace: 'subgraph:' };

export interface SubgraphYogaOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly typeDefs: string[];
  readonly context: () => OperationContext;
  /** Called when the yoga is made, on the first request. */
  readonly plugins: () => GatewayPlugin[];
}

export function lazySubgraphYoga({
  config,
  logger,
  typeDefs,
  context,
  plugins,
}: SubgraphYogaOptions): (() => RequestListener) | undefined {
  if (!config.federation.subgraph) return undefined;
  return () =>
    createYoga<Record<string, unknown>, OperationContext>({
      ...yogaCommon(logger, context),
      schema: subgraphSchema(typeDefs, config.federation),
      graphqlEndpoint: SUBGRAPH_PATH,
      // A router is not a browser: no GraphiQL, no CORS.
      graphiql: false,
      plugins: plugins(),
    });
}
