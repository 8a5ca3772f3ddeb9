/**
 * createGateway(config): yoga on `/graphql` (queries over HTTP, subscriptions
 * over graphql-ws and SSE on the same path), GraphiQL served from the
 * gateway's own bundle, `/healthz`, `/metrics`, and the Federation v2
 * subgraph on `/subgraph` (src/federation).
 */
import { setMaxListeners } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import { createYoga, type YogaServerInstance, type YogaServerOptions } from 'graphql-yoga';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { resolvers } from '../resolvers/index.js';
import type { Config } from './config.js';
import type { GatewayServices, OperationContext } from './context.js';
import { UpstreamLoader } from './loaders/upstream-loader.js';
import { createLogger } from './logger.js';
import { GatewayMetrics } from './metrics.js';
import { operationMetrics } from './operation-metrics.js';
import { useErrorCodes } from './plugins/use-error-codes.js';
import { useHealthz } from './plugins/use-healthz.js';
import { useReadyz } from './plugins/use-readyz.js';
import { useSubscriptionDrain } from './plugins/use-subscription-drain.js';
import { InFlightRequests, waitFor } from './transport/http/in-flight.js';
import type { StateReadiness } from './state/contracts.js';
import { useRouteTable } from './plugins/use-route-table.js';
import { useClientKeys } from './plugins/use-client-keys.js';
import { ClientKeys } from './access/client-keys.js';
import { useCsrfRefusal } from './plugins/use-csrf-refusal.js';
import { useCors } from './plugins/use-cors.js';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { createLiveServices } from './live/services.js';
import { attachBenchControl, benchControlEnabled } from './bench-control.js';
import { GatewaySocket } from './transport/ws/preserialized.js';
import { serveGraphqlWs } from './transport/ws/graphql-ws-server.js';
import { useWidgets } from './widgets/use-widgets.js';
import { usePossibleTypes } from './plugins/use-possible-types.js';
import { useImages } from './images/use-images.js';
import { imageServiceFor } from './images/for-services.js';
import { useOperationLimits } from './plugins/use-operation-limits.js';
import { limitRequestBody } from './transport/http/body-limit.js';
import { defaultAllowedHosts, HostPolicy } from './transport/http/allowed-hosts.js';
import { answerClientErrors } from './transport/http/client-errors.js';
import { compressResponses } from './transport/http/compress.js';
import { refuseForeignHosts, upgradeAnswer, upgradeRefusal } from './transport/http/host-check.js';
import type { InputBounds } from './transport/http/input-bounds.js';
import { guardRequests, type ReportError } from './transport/http/request-guard.js';
import { refuseServerMessageTypes } from './transport/http/ws-message-types.js';
import { quietPeerProtocolErrors } from './transport/http/ws-peer-errors.js';
import { routeUpgrades } from './transport/http/upgrades.js';
import { ConnectionCap, serverTimeouts } from './transport/http/connection-bounds.js';
import { useInputBounds } from './plugins/use-input-bounds.js';
import { useIntrospectionBounds } from './plugins/use-introspection-bounds.js';
import { useCodedRefusals } from './plugins/use-coded-refusals.js';
import { useKnownOperationTypes } from './plugins/use-known-operation-types.js';
import { useUpstreamTrace } from './plugins/use-upstream-trace.js';
import { useEnumSuggestions } from './plugins/use-enum-suggestions.js';
import { useQuotaAfterSpend } from './plugins/use-quota-after-spend.js';
import { useJit } from './plugins/use-jit.js';
import { useOperationTimeout } from './plugins/use-operation-timeout.js';
import { SettleSweep } from './plugins/settle-sweep.js';
import { useResultCache } from './plugins/use-result-cache.js';
import type { ResultCache } from './results/result-cache.js';
import { serveResultCacheHits } from './results/fast-path.js';
import { useCostLimit } from './plugins/use-cost-limit.js';
import { SpendGate } from './spend/spend-gate.js';
import { auditedLedger } from './spend/charge-audit.js';
import { ChargeTally } from './spend/charge-tally.js';
import { UpstreamFetcher } from './upstream/fetcher.js';
import { openState } from './state/open-state.js';
import { DiskEntries } from './upstream/disk-entries.js';
import { persistedOperations } from './plugins/use-persisted-operations.js';
import { useIncrementalDelivery } from './plugins/incremental-delivery.js';
import { openTracing } from './tracing/open-tracing.js';
import { fastHitSpan, useOperationSpans } from './tracing/use-operation-spans.js';
import { runtimeDir } from './runtime-files.js';
import { graphiqlAssets } from './graphiql/assets.js';
import { graphiqlPage } from './graphiql/page.js';
import { GRAPHIQL_ASSET_PREFIX, useGraphiQLAssets } from './graphiql/use-graphiql-assets.js';
import type { FieldCost } from './spend/estimate/cost-rule.js';
import { subgraphFieldCosts } from './federation/entity-cost.js';
import { routeSubgraph, SUBGRAPH_PATH } from './federation/route-subgraph.js';
import { buildGatewaySubgraphSchema } from './federation/subgraph-schema.js';
import { withDegradedParts } from './model/degraded-fields.js';

type GatewayPlugin = NonNullable<YogaServerOptions<Record<string, unknown>, OperationContext>['plugins']>[number];

export interface GatewayOptions {
  /** The upstream base URL: the configured one, or the embedded sandbox's. */
  baseUrl: string;
  logger?: Logger;
}

export interface Gateway {
  /** `http://host:port`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly services: GatewayServices;
  /** Stops at once: connections cut, subscriptions dropped (tests, a second signal). */
  close(): Promise<void>;
  /**
   * Graceful stop (SIGTERM): `/readyz` answers 503, no new connection is
   * accepted, subscriptions complete (graphql-ws `complete`, SSE ends),
   * operations in flight finish within `timeoutMs`, then WebSockets close
   * with 1001 Going Away and the state is written (the ledger flushed).
   */
  shutdown(options?: { timeoutMs?: number }): Promise<ShutdownReport>;
  /** What `/readyz` answers (no longer ready from the start of a shutdown, when new connections are refused already). */
  readiness(): StateReadiness;
}

export interface ShutdownReport {
  /** HTTP requests and WebSocket operations still running at the bound, cut. */
  readonly cut: number;
  readonly tookMs: number;
}

/** Every `schema/*.graphql` file, in name order. */
export function loadTypeDefs(): string[] {
  const schemaDir = runtimeDir('schema');
  return readdirSync(schemaDir)
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => readFileSync(join(schemaDir, name), 'utf8'));
}

export async function createGateway(config: Config, options: GatewayOptions): Promise<Gateway> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = new GatewayMetrics(config.cluster.replicaId);
  // Everything shared (alone, or with the cluster's replicas) comes from here: src/state/open-state.ts.
  const state = await openState({ config, logger, purpose: 'gateway', redisRoundTrips: metrics.redisRoundTrips });
  metrics.observeCluster(state);
  const { budgets } = state;
  metrics.observeAllowance(state.ledger);
  // Who paid for each counted request; the ledger is counted beside it for the test suite's charge check when that is on (src/spend/charge-audit.ts).
  const tally = new ChargeTally();
  const ledger = auditedLedger(state.ledger, tally, 'gateway');
  const { entries: cacheEntries, tier: responseTier } = state.responses;
  metrics.observeCacheFile(cacheEntries instanceof DiskEntries ? cacheEntries : undefined);
  const fetcher = new UpstreamFetcher({
    config,
    baseUrl: options.baseUrl,
    v3CyclingBaseUrl: config.v3CyclingBaseUrl,
    ledger,
    metrics,
    logger,
    responseTier,
    cacheEntries,
  });
  try {
    // The image index is a state file too: one that cannot be read stops start-up here, naming it.
    await imageServiceFor({ config, fetcher, logger, sharedImages: state.images });
  } catch (error) {
    await fetcher.close();
    await state.close();
    throw error;
  }
  const clientKeys = new ClientKeys(config.access.clientKeys);
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
  const schema = withDegradedParts(makeExecutableSchema({ typeDefs, resolvers }));
  if (!clientKeys.enabled && config.baseUrl !== undefined) {
    logger.warn(
      'no gateway client keys are configured: anyone who reaches this gateway can spend the upstream allowance (set GATEWAY_CLIENT_KEYS)',
    );
  }

  const resultCache: ResultCache | undefined = config.resultCache.enabled
    ? state.results(config.resultCache.maxBytes, metrics.resultCacheSharedHits)
    : undefined;
  // OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set; undefined (no SDK loaded) otherwise.
  const tracing = await openTracing(config.tracing, { replicaId: config.cluster.replicaId, logger });
  // Automatic persisted queries (shared by the cluster), or trusted documents only.
  const persisted = persistedOperations({ config: config.persisted, apq: state.apq });
  const inputBounds: InputBounds = {
    maxDepth: config.limits.maxVariablesDepth,
    maxValues: config.limits.maxVariablesValues,
  };
  const hostPolicy = new HostPolicy({
    allowedHosts: config.access.allowedHosts.length > 0 ? config.access.allowedHosts : defaultAllowedHosts(config.host),
    corsOrigins: config.access.corsOrigins,
    // The embedded sandbox has no allowance worth protecting: a dev server on any loopback port may call it.
    loopbackOrigins: config.baseUrl === undefined,
  });
  // Aborted by shutdown(): subscriptions complete (src/plugins/use-subscription-drain.ts) and /readyz says 503.
  const drain = new AbortController();
  // One listener per open subscription (src/live/end-on-abort.ts): thousands is the normal case, not a leak.
  setMaxListeners(0, drain.signal);
  const readiness = (): StateReadiness => {
    if (drain.signal.aborted) return { ready: false, reasons: ['draining: the gateway is shutting down'] };
    return state.readiness();
  };
  const reportRequestError: ReportError = (error, req) =>
    logger.error(
      { err: error, method: req.method, path: (req.url ?? '').split('?')[0] },
      'a request handler failed before yoga',
    );

  const context = (): OperationContext => {
    const deadline = Date.now() + config.timeouts.operationMs;
    return { services, upstream: new UpstreamLoader(fetcher, deadline, config.bench.upstreamLoaders), deadline };
  };
  // One timer for every operation's settle deadline, /graphql, /subgraph and graphql-ws alike (src/plugins/settle-sweep.ts).
  const settleSweep = new SettleSweep();
  // Every GraphQL endpoint (/graphql, /subgraph) runs operations through the same plugins, in this order.
  const inputPlugins = (): GatewayPlugin[] => [
    // Its onParams runs before any other plugin or graphql-js walks variables or extensions.
    useInputBounds(inputBounds),
    // After the bounds (they read `extensions`), before parsing: a persisted ID becomes its document, or a coded refusal.
    ...persisted.plugins,
    useCodedRefusals(),
  ];
  const accessPlugins = (): GatewayPlugin[] => [
    useClientKeys(clientKeys),
    // A cross-site <img>, form or no-cors fetch must not spend the allowance (Fetch Metadata, then Origin).
    useCsrfRefusal({
      policy: hostPolicy,
      signals: ['x-graphql-csrf', 'authorization', 'x-client-key'],
      onRefusal: (fetchSite) => metrics.csrfRefusals.inc({ fetch_site: fetchSite ?? 'absent' }),
    }),
    ...(config.access.introspection ? [] : [useDisableIntrospection()]),
  ];
  const operationPlugins = ({
    costs,
    resultNamespace,
  }: {
    costs?: Readonly<Record<string, FieldCost>>;
    resultNamespace?: string;
  }): GatewayPlugin[] => [
    ...useOperationLimits(config.limits),
    useKnownOperationTypes(),
    // @defer and @stream (src/plugins/incremental-delivery.ts).
    ...useIncrementalDelivery(),
    useErrorCodes(),
    // HOCKEY -> "Did you mean the enum value \"ICE_HOCKEY\"?", where graphql-js's own suggestions do not reach.
    useEnumSuggestions(),
    // A span per operation, before the result cache and the cost plugin so that it covers them (src/tracing/).
    ...(tracing === undefined ? [] : [useOperationSpans(tracing)]),
    // Before the cost plugin: a stored result spends nothing, so it is neither estimated nor refused (src/plugins/use-result-cache.ts).
    ...(resultCache === undefined
      ? []
      : [
          useResultCache({
            cache: resultCache,
            budgets,
            ...(resultNamespace === undefined ? {} : { namespace: resultNamespace }),
          }),
        ]),
    // Before the trace: a refusal ends the onExecute chain and keeps its own `extensions.cost`.
    useCostLimit(costs === undefined ? {} : { costs }),
    useUpstreamTrace(),
    // `quota` as the operation left it, not as it found it (src/plugins/use-quota-after-spend.ts).
    useQuotaAfterSpend(),
    // After the trace: a stored introspection result still gets this operation's own extensions.cost.
    useIntrospectionBounds(),
    // Compiled execution for queries (the warm path's resolver walk);
    // subscriptions keep graphql-js's executor and are shared instead.
    ...(config.graphqlJit ? [useJit()] : []),
    // Last: it wraps the execute function that really runs, graphql-jit's included.
    useOperationTimeout({
      sweep: settleSweep,
      operationMs: config.timeouts.operationMs,
      settleMs: config.timeouts.settleMs,
      logger,
    }),
  ];

  const yoga: YogaServerInstance<Record<string, unknown>, OperationContext> = createYoga<
    Record<string, unknown>,
    OperationContext
  >({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // One operation per request: a batch would multiply what one request can cost.
    batching: false,
    // Bodies are bounded, and read whole, before yoga (src/transport/http/body-limit.ts): yoga's own limit would re-wrap every request.
    maxRequestBodySize: false,
    logging: logger,
    graphiql: config.access.graphiql ? { title: 'sports-graph', subscriptionsProtocol: 'WS' } : false,
    // Preflights and Access-Control-* headers are useCors's (src/plugins/use-cors.ts): it refuses with a reason and logs.
    cors: false,
    // A small page naming GraphiQL's hashed files (src/graphiql/); their module is imported on the first visit.
    renderGraphiQL: async (options) => graphiqlPage(options, await graphiqlAssets(), GRAPHIQL_ASSET_PREFIX),
    context,
    plugins: [
      // First (onRequest): a path outside the route table (src/route-table.ts) is answered 404 here.
      useRouteTable(),
      useCors({ policy: hostPolicy, logger }),
      ...inputPlugins(),
      useHealthz({ endpoint: '/healthz', health: () => state.health(), troubles: () => fetcher.trouble.list() }),
      useReadyz({ endpoint: '/readyz', readiness }),
      useSubscriptionDrain(drain.signal),
      ...accessPlugins(),
      useWidgets({ prefix: '/widgets' }),
      // Type names, as introspection gives them: off with it (GATEWAY_INTROSPECTION=false answers 404).
      ...(config.access.introspection ? [usePossibleTypes()] : []),
      ...(config.access.graphiql ? [useGraphiQLAssets({ prefix: GRAPHIQL_ASSET_PREFIX })] : []),
      useImages(services, clientKeys),
      usePrometheus({
        registry: metrics.registry,
        endpoint: '/metrics',
        // The gateway's own metric objects, observed after the answer is written (src/operation-metrics.ts).
        metrics: operationMetrics(metrics),
      }),
      ...operationPlugins({}),
    ],
  });

  // The Federation v2 subgraph (src/federation): its own schema, so that /graphql's stays the stand-alone API.
  // Built on the first request to /subgraph (about as long as /graphql's schema takes), not by every gateway start.
  const subgraph = config.federation.subgraph
    ? () =>
        createYoga<Record<string, unknown>, OperationContext>({
          schema: withDegradedParts(
            buildGatewaySubgraphSchema(typeDefs, resolvers, { hidden: config.federation.hidden }),
          ),
          graphqlEndpoint: SUBGRAPH_PATH,
          landingPage: false,
          batching: false,
          maxRequestBodySize: false,
          logging: logger,
          // A router is not a browser: no GraphiQL, no CORS.
          graphiql: false,
          cors: false,
          context,
          plugins: [
            ...inputPlugins(),
            ...accessPlugins(),
            ...operationPlugins({ costs: subgraphFieldCosts, resultNamespace: 'subgraph:' }),
          ],
        })
    : undefined;

  // Result-cache hits are answered before yoga (src/results/fast-path.ts); everything else reaches yoga untouched.
  const standAlone =
    resultCache === undefined
      ? yoga
      : serveResultCacheHits(
          {
            cache: resultCache,
            keys: clientKeys,
            services: { ledger, metrics, budgets },
            fastHits: metrics.resultCacheFastHits,
            inputBounds,
            documentOf: persisted.documentOf,
            onHit: tracing === undefined ? undefined : fastHitSpan(tracing),
          },
          yoga,
        );
  // Every answer written below, refusals included, is compressed when it is worth it (src/transport/http/compress.ts).
  const compressed = (next: RequestListener): RequestListener =>
    config.service.compression
      ? compressResponses({ thresholdBytes: config.service.compressionThresholdBytes }, next)
      : next;
  const inFlight = new InFlightRequests();
  const handler = routeSubgraph(subgraph, standAlone);
  // The front door, outermost first: no throw escapes, foreign host names are refused before anything reads the request, bodies are bounded.
  // Past GATEWAY_MAX_CONNECTIONS a connection is answered 503 TOO_MANY_CONNECTIONS (src/transport/http/connection-bounds.ts).
  const cap = new ConnectionCap(config.connections);
  const server: Server = createServer(
    // The Host check answers a missing Host itself, with a code (src/transport/http/host-check.ts). Slow requests are cut.
    { requireHostHeader: false, ...serverTimeouts(config.connections) },
    inFlight.track(
      guardRequests(
        cap.guard(
          compressed(
            refuseForeignHosts(hostPolicy, limitRequestBody(config.limits.maxBodyBytes, handler, reportRequestError), {
              open: ['/healthz', '/readyz'],
            }),
          ),
        ),
        reportRequestError,
      ),
    ),
  );
  cap.attach(server);
  answerClientErrors(server);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const wsServer = new WebSocketServer({
    // Upgrades are routed by src/transport/http/upgrades.ts, which codes every refusal.
    noServer: true,
    path: '/graphql',
    // Restores pre-serialized subscription payloads (src/transport/ws/preserialized.ts).
    WebSocket: GatewaySocket,
    maxPayload: config.limits.maxWsMessageBytes,
    // Browsers let any page open a WebSocket: only our own pages and the configured origins may,
    // and only under a host name we answer for (src/transport/http/host-check.ts). Refused at the upgrade, with a coded body.
    verifyClient: (
      { req }: { req: IncomingMessage },
      accept: (ok: boolean, status?: number, body?: string, headers?: Record<string, string>) => void,
    ) => {
      try {
        const refusal = upgradeRefusal(hostPolicy, req);
        if (refusal === undefined) {
          accept(true);
          return;
        }
        const answer = upgradeAnswer(req, refusal);
        accept(false, answer.status, answer.body, answer.headers);
      } catch (error) {
        reportRequestError(error, req);
        accept(false, 500);
      }
    },
  });
  routeUpgrades(server, wsServer, reportRequestError, (req, socket) => cap.refusesUpgrade(req, socket));
  refuseServerMessageTypes(wsServer);
  // The bench's floor and memory probes: only with BENCH_CONTROL=on and an IPC channel to the bench (src/bench-control.ts).
  if (benchControlEnabled(config.bench.control)) attachBenchControl(wsServer);
  // graphql-ws on the ws server, with shared odds executions written straight to their subscribers (src/transport/ws/graphql-ws-server.ts).
  const graphqlWs = serveGraphqlWs({
    wsServer,
    yoga,
    persisted,
    clientKeys,
    inputBounds,
    limits: config.limits,
    logger,
    idleTimeoutMs: config.connections.wsIdleTimeoutMs,
    keepAliveMs: config.connections.wsKeepAliveMs,
  });
  // After useServer: a client's protocol violation is the client's, not an "internal error" trace (src/transport/http/ws-peer-errors.ts).
  quietPeerProtocolErrors(wsServer, logger);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // A gateway that never served must not keep DATA_DIR locked or its timers running.
    graphqlWs.stop();
    await live.close();
    await fetcher.close();
    await state.close();
    await tracing?.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url, plan: config.plan }, 'gateway listening');

  const wsOperations = (): number => graphqlWs.operations();
  const serverClosed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  const releaseServices = async (): Promise<void> => {
    await live.close();
    await fetcher.close();
    // Writes quota.json and removes the write-ahead copy (alone), or leaves the cluster.
    await state.close();
    // Last: the spans of the shutdown itself are exported too.
    await tracing?.close();
  };
  let stopping: Promise<ShutdownReport> | undefined;

  return {
    url,
    port,
    services,
    readiness,
    close: async () => {
      drain.abort();
      graphqlWs.stop();
      for (const client of wsServer.clients) client.terminate();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.close();
      await serverClosed;
      await releaseServices();
    },
    shutdown: ({ timeoutMs = config.service.shutdownTimeoutMs } = {}) => {
      stopping ??= (async (): Promise<ShutdownReport> => {
        const started = Date.now();
        const deadline = started + timeoutMs;
        drain.abort();
        inFlight.drain();
        // No new connections; idle keep-alive ones close now, busy ones after their answer (Connection: close).
        server.close();
        server.closeIdleConnections();
        logger.info(
          { requests: inFlight.size, wsOperations: wsOperations(), timeoutMs },
          'shutting down: draining operations in flight',
        );
        await waitFor(() => inFlight.size === 0 && wsOperations() === 0, deadline);
        const cut = inFlight.size + wsOperations();
        if (cut > 0) logger.warn({ cut, timeoutMs }, 'shutdown bound reached: cutting what is still running');
        // graphql-ws sends each `complete` a few promise turns after the operation ends: let them out before the close frames.
        await new Promise((resolve) => setImmediate(resolve));
        graphqlWs.stop();
        // Closes every socket with 1001 Going Away (graphql-ws's own shutdown), then stops the WebSocket server.
        await graphqlWs
          .dispose()
          .catch((error: unknown) => logger.warn({ err: error }, 'closing the WebSocket server failed'));
        // The close handshake: each client answers the 1001 frame; one that does not within a second is cut.
        await waitFor(() => wsServer.clients.size === 0, Date.now() + 1_000);
        for (const client of wsServer.clients) client.terminate();
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        await serverClosed;
        await releaseServices();
        const tookMs = Date.now() - started;
        logger.info({ tookMs, cut }, 'shut down');
        return { cut, tookMs };
      })();
      return stopping;
    },
  };
}
