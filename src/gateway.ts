/**
 * createGateway(config), the composition root, reads top-down as the architecture: state, upstream, money, live
 * feeds and schema; the plugin pipeline (src/plugins/pipeline.ts) that runs /graphql's and /subgraph's operations;
 * the transports (HTTP front door, graphql-ws); the lifecycle (src/gateway/lifecycle.ts). Each part is built in a module of
 * its own: this one only wires them.
 */
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { WebSocketServer } from 'ws';
import { clientKeysFor } from './access/client-keys.js';
import type { Config } from './config.js';
import type { GatewayServices, OperationContext } from './context.js';
import { graphqlYoga } from './gateway/graphql-yoga.js';
import { operationContextFactory } from './gateway/operation-context.js';
import { requestHandler } from './gateway/request-handler.js';
import { lazySubgraphYoga, subgraphEndpoint } from './gateway/subgraph-yoga.js';
import { imageServiceFor } from './images/for-services.js';
import type { Links } from './identity/find-counterparts.js';
import { readOperatorLinks } from './identity/operator-links.js';
import { drainOf, startGateway, type Gateway } from './gateway/lifecycle.js';
import { createLiveServices } from './live/services.js';
import type { UpstreamLoader } from './loaders/upstream-loader.js';
import { createLogger } from './logger.js';
import { GatewayMetrics } from './metrics.js';
import { pipeline, type PipelineParts } from './plugins/pipeline.js';
import { SettleSweep } from './plugins/settle-sweep.js';
import { persistedOperations } from './plugins/use-persisted-operations.js';
import { loadTypeDefs, standAloneSchema } from './gateway/schema.js';
import { auditedLedger } from './spend/charge-audit.js';
import { ChargeTally } from './spend/charge-tally.js';
import { FreshResults } from './results/fresh-results.js';
import { SpendGate } from './spend/spend-gate.js';
import { openState } from './state/open-state.js';
import { shareMatchStates } from './upstream/shared-match-states.js';
import { openTracing } from './tracing/open-tracing.js';
import { hostPolicyFor, openFrontDoor } from './transport/http/front-door.js';
import { mcpEndpoint } from './transport/mcp/mcp-endpoint.js';
import { openWsFront } from './transport/ws/ws-front.js';
import { DiskEntries } from './upstream/disk-entries.js';
import { UpstreamFetcher, type UpstreamFetcherOptions } from './upstream/fetcher.js';

export type { Gateway, ShutdownReport } from './gateway/lifecycle.js';

export interface GatewayOptions {
  /** The upstream base URL: the configured one, or the embedded sandbox's. */
  baseUrl: string;
  logger?: Logger;
  /** Makes the upstream fetcher (the bench's naive one: bench/gateway-main.ts). @default UpstreamFetcher */
  fetcherFor?: (options: UpstreamFetcherOptions) => UpstreamFetcher;
  /** Makes each operation's loader. @default one that shares each resource within the operation */
  loaderFor?: (fetcher: UpstreamFetcher, deadline: number) => UpstreamLoader;
  /** Given the WebSocket server before graphql-ws serves on it (the bench's probes). */
  onWebSocketServer?: (wsServer: WebSocketServer) => void;
  /**
   * The upstream cache's clock, which its freshness policy reads: tests move
   * it past a TTL instead of sleeping. @default Date.now
   */
  cacheClock?: () => number;
  /** Given /graphql's schema and its operation context factory (the bench's engine floor: the operation executed by graphql-jit alone). */
  onExecutable?: (executable: GatewayExecutable) => void;
}

/** What resolvers run on: the schema and a fresh operation context per call. */
export interface GatewayExecutable {
  readonly schema: GraphQLSchema;
  readonly context: () => OperationContext;
}

/** The options that change how parts are made: the bench's switches (bench/gateway-main.ts). */
export type GatewaySeams = Omit<GatewayOptions, 'baseUrl' | 'logger'>;

export async function createGateway(config: Config, options: GatewayOptions): Promise<Gateway> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = new GatewayMetrics(config.cluster.replicaId);

  // The operator's links are read first: a file that cannot be trusted stops start-up before anything is opened.
  const operatorLinks = await readOperatorLinks(config.counterpartLinksFile);
  // State: everything shared, alone or with the cluster's replicas (src/state/open-state.ts, the only place that knows which).
  const state = await openState({ config, logger, purpose: 'gateway', redisRoundTrips: metrics.redisRoundTrips });
  metrics.observeCluster(state);
  const { budgets } = state;
  metrics.observeAllowance(state.ledger);
  // Who paid for each counted request; the ledger is counted beside it for the test suite's charge check when that is on (src/spend/charge-audit.ts).
  const tally = new ChargeTally();
  const ledger = auditedLedger(state.ledger, tally, 'gateway');
  const { entries: cacheEntries, tier: responseTier } = state.responses;
  metrics.observeCacheFile(cacheEntries instanceof DiskEntries ? cacheEntries : undefined);

  // Upstream: the one executor of route descriptions, behind the response cache.
  const makeFetcher = options.fetcherFor ?? ((fetcherOptions) => new UpstreamFetcher(fetcherOptions));
  const fetcher = makeFetcher({
    config,
    baseUrl: options.baseUrl,
    v3CyclingBaseUrl: config.v3CyclingBaseUrl,
    ledger,
    metrics,
    logger,
    responseTier,
    cacheEntries,
    now: options.cacheClock,
  });
  // A match state one replica learns re-classifies the others' cached answers too (the bus closes with the state).
  shareMatchStates(state.bus, fetcher.freshness);
  try {
    // The image index is a state file too: one that cannot be read stops start-up here, naming it.
    await imageServiceFor({ config, fetcher, logger, sharedImages: state.images });
  } catch (error) {
    await fetcher.close();
    await state.close();
    throw error;
  }

  // Money, then the live feeds that spend it; together they are every operation's services.
  const spend = new SpendGate({ ledger, budgets, maxOperationCost: config.limits.maxOperationCost, tally });
  const live = createLiveServices({
    config,
    baseUrl: options.baseUrl,
    logger,
    fetcher,
    ledger,
    spend,
    sharing: state.live,
  });
  const services: GatewayServices = { config, fetcher, ledger, metrics, logger, live, spend, state };
  const typeDefs = loadTypeDefs();
  const schema = standAloneSchema(typeDefs);
  const clientKeys = clientKeysFor(config, logger);

  // The operation pipeline, /graphql's and /subgraph's (one settle sweep for every operation, graphql-ws's too).
  const drain = drainOf(state);
  const parts: PipelineParts = {
    config,
    logger,
    services,
    budgets,
    clientKeys,
    hostPolicy: hostPolicyFor(config),
    inputBounds: { maxDepth: config.limits.maxVariablesDepth, maxValues: config.limits.maxVariablesValues },
    // Results answer only while the upstream answers they used are fresh (a match's state change ends them early).
    resultCache: config.resultCache.enabled
      ? new FreshResults(state.results(config.resultCache.maxBytes, metrics.resultCacheSharedHits), fetcher.cache)
      : undefined,
    // OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set; undefined (no SDK loaded) otherwise.
    tracing: await openTracing(config.tracing, { replicaId: config.cluster.replicaId, logger }),
    // Automatic persisted queries (shared by the cluster), or trusted documents only.
    persisted: persistedOperations({ config: config.persisted, apq: state.apq }),
    settleSweep: new SettleSweep(),
    drain: drain.signal,
    readiness: drain.readiness,
  };
  // Resolvers reach the gateway through ports alone; `services` is for the plugins (src/context.ts).
  const images = () => imageServiceFor(services);
  const counterparts: Links = { store: state.links, operator: operatorLinks };
  const context = operationContextFactory({ services, images, counterparts, loaderFor: options.loaderFor });
  options.onExecutable?.({ schema, context });
  const yoga = graphqlYoga({ ...parts, schema, context, plugins: pipeline(parts, { name: 'graphql' }) });
  const subgraph = lazySubgraphYoga({ ...parts, typeDefs, context, plugins: () => pipeline(parts, subgraphEndpoint) });

  // Transports: the HTTP front door, and graphql-ws on its upgrades.
  // The MCP endpoint runs its tools' GraphQL through /graphql's yoga: the same doors and the same costs.
  const mcp = config.mcp.enabled
    ? mcpEndpoint({
        ...parts,
        yoga,
        trusted: config.persisted.trusted,
        tools: {
          schema,
          config,
          fetcher,
          images,
          counterparts,
          ledger,
          budgetRemaining: (client) => spend.budgetRemaining(client),
          maxCallCost: config.mcp.maxCallCost,
        },
      })
    : undefined;
  const frontDoor = openFrontDoor({ ...parts, handler: requestHandler(parts, yoga, subgraph, mcp) });
  const ws = openWsFront({ ...parts, ...frontDoor, yoga, onWebSocketServer: options.onWebSocketServer });

  // Lifecycle: listen, drain, close; what was opened behind the transports is closed in this order.
  const opened = [live, fetcher, state, parts.tracing];
  return startGateway({ config, logger, services, frontDoor, ws, drain, opened });
}
