/**
 * /graphql's yoga: queries over HTTP, subscriptions over SSE (graphql-ws
 * reaches the same yoga through src/transport/ws/), GraphiQL served from
 * the gateway's own bundle. Its plugins are the pipeline's (src/plugins/pipeline.ts).
 */
import type { GraphQLSchema } from 'graphql';
import { createYoga, type YogaServerInstance, type YogaServerOptions } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { OperationContext } from '../context.js';
import { graphiqlAssets } from '../graphiql/assets.js';
import { graphiqlPage } from '../graphiql/page.js';
import { GRAPHIQL_ASSET_PREFIX } from '../graphiql/use-graphiql-assets.js';
import type { GatewayPlugin } from '../plugins/pipeline.js';

export type GatewayYoga = YogaServerInstance<Record<string, unknown>, OperationContext>;
type YogaOptions = YogaServerOptions<Record<string, unknown>, OperationContext>;

/** What both endpoints' yogas share. */
export function yogaCommon(logger: Logger, context: () => OperationContext): Partial<YogaOptions> {
  return {
    landingPage: false,
    // One operation per request: a batch would multiply what one request can cost.
    batching: false,
    // Bodies are bounded, and read whole, before yoga (src/transport/http/body-limit.ts): yoga's own limit would re-wrap every request.
    maxRequestBodySize: false,
    logging: logger,
    // Preflights and Access-Control-* headers are useCors's (src/plugins/use-cors.ts): it refuses with a reason and logs.
    cors: false,
    context,
  };
}

export interface GraphqlYogaOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly schema: GraphQLSchema;
  readonly context: () => OperationContext;
  readonly plugins: GatewayPlugin[];
}

export function graphqlYoga({ config, logger, schema, context, plugins }: GraphqlYogaOptions): GatewayYoga {
  return createYoga<Record<string, unknown>, OperationContext>({
    ...yogaCommon(logger, context),
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: config.access.graphiql ? { title: 'sports-graph', subscriptionsProtocol: 'WS' } : false,
    // A small page naming GraphiQL's hashed files (src/graphiql/); their module is imported on the first visit.
    renderGraphiQL: async (options) => graphiqlPage(options, await graphiqlAssets(), GRAPHIQL_ASSET_PREFIX),
    plugins,
  });
}
