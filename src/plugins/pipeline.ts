/**
 * The yoga plugin pipeline as an ordered table of named stages. Plugin
 * order carries meaning (which hook runs first, which plugin sees another's
 * result), so each stage says why it sits where it does. /graphql runs every
 * stage; /subgraph runs the ones marked `subgraph` (a router is not a
 * browser, and the gateway's own routes are not the subgraph's), with the
 * subgraph's entity costs and its own result-cache namespace.
 *
 * A stage switched off by configuration contributes no plugins but keeps its
 * place: the table, not the configuration, says what order is.
 */
import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import type { YogaServerOptions } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { ClientKeys } from '../access/client-keys.js';
import type { Config } from '../config.js';
import type { GatewayServices, OperationContext } from '../context.js';
import { GRAPHIQL_ASSET_PREFIX, useGraphiQLAssets } from '../graphiql/use-graphiql-assets.js';
import { useImages } from './use-images.js';
import { operationMetrics } from '../operation-metrics.js';
import type { ResultCache } from '../results/result-cache.js';
import type { Budgets } from '../spend/client-budgets.js';
import type { FieldCost } from '../spend/estimate/cost-rule.js';
import type { StateReadiness } from '../state/contracts.js';
import type { Tracing } from '../tracing/open-tracing.js';
import { useOperationSpans } from './use-operation-spans.js';
import type { HostPolicy } from '../access/allowed-hosts.js';
import type { InputBounds } from '../transport/http/input-bounds.js';
import { useWidgets } from '../widgets/use-widgets.js';
import { useIncrementalDelivery } from './incremental-delivery.js';
import type { SettleSweep } from './settle-sweep.js';
import { useBufferedJson } from './use-buffered-json.js';
import { useClientKeys } from './use-client-keys.js';
import { useCodedRefusals } from './use-coded-refusals.js';
import { useCors } from './use-cors.js';
import { useCostLimit } from './use-cost-limit.js';
import { useCsrfRefusal } from './use-csrf-refusal.js';
import { useEnumSuggestions } from './use-enum-suggestions.js';
import { useErrorCodes } from './use-error-codes.js';
import { useHealthz } from './use-healthz.js';
import { useHttpDuration } from './use-http-duration.js';
import { useInputBounds } from './use-input-bounds.js';
import { useIntrospectionBounds } from './use-introspection-bounds.js';
import { useJit } from './use-jit.js';
import { useKnownOperationTypes } from './use-known-operation-types.js';
import { useOperationLimits } from './use-operation-limits.js';
import { useOperationTimeout } from './use-operation-timeout.js';
import type { PersistedOperations } from './use-persisted-operations.js';
import { usePossibleTypes } from './use-possible-types.js';
import { useQuotaAfterSpend } from './use-quota-after-spend.js';
import { useReadyz } from './use-readyz.js';
import { useHttpCaching } from './use-http-caching.js';
import { useMaxAge } from './use-max-age.js';
import { useResultCache } from './use-result-cache.js';
import { useRouteTable } from './use-route-table.js';
import { useSubscriptionDrain } from './use-subscription-drain.js';
import { useUpstreamTrace } from './use-upstream-trace.js';

export type GatewayPlugin = NonNullable<
  YogaServerOptions<Record<string, unknown>, OperationContext>['plugins']
>[number];

/** What the stages' plugins are built from: the gateway's parts, made before the pipeline. */
export interface PipelineParts {
  readonly config: Config;
  readonly logger: Logger;
  readonly services: GatewayServices;
  readonly budgets: Budgets;
  readonly clientKeys: ClientKeys;
  readonly hostPolicy: HostPolicy;
  readonly inputBounds: InputBounds;
  readonly persisted: PersistedOperations;
  readonly tracing: Tracing | undefined;
  readonly resultCache: ResultCache | undefined;
  readonly settleSweep: SettleSweep;
  /** Aborted by shutdown(): subscriptions complete. */
  readonly drain: AbortSignal;
  readonly readiness: () => StateReadiness;
}

/** What differs between the two endpoints' operations. */
export interface Endpoint {
  readonly name: 'graphql' | 'subgraph';
  /** The field cost table of the cost limit. @default the stand-alone API's */
  readonly costs?: Readonly<Record<string, FieldCost>>;
  /** Keeps the endpoint's stored results apart from the other's. @default none */
  readonly resultNamespace?: string;
}

export interface Stage {
  readonly name: string;
  /** Why it sits where it does in the order. */
  readonly why: string;
  /** Also on /subgraph (every stage is on /graphql). */
  readonly subgraph: boolean;
  /** Its plugins, none when configuration switches it off. */
  readonly plugins: (parts: PipelineParts, endpoint: Endpoint) => GatewayPlugin[];
}

const none: GatewayPlugin[] = [];

export const stages: readonly Stage[] = [
  {
    name: 'route-table',
    why: 'first (onRequest): a path outside the route table (src/route-table.ts) is answered 404 before any other plugin sees it',
    subgraph: false,
    plugins: () => [useRouteTable()],
  },
  {
    name: 'cors',
    why: "preflights and Access-Control-* headers (yoga's own cors is off): refused with a reason before anything reads an operation",
    subgraph: false,
    plugins: ({ hostPolicy, logger }) => [useCors({ policy: hostPolicy, logger })],
  },
  {
    name: 'input-bounds',
    why: 'its onParams runs before any other plugin or graphql-js walks variables or extensions',
    subgraph: true,
    plugins: ({ inputBounds }) => [useInputBounds(inputBounds)],
  },
  {
    name: 'persisted',
    why: 'after the bounds (they read `extensions`), before parsing: a persisted ID becomes its document, or a coded refusal',
    subgraph: true,
    plugins: ({ persisted }) => [...persisted.plugins],
  },
  {
    name: 'coded-refusals',
    why: "yoga's status-only refusals (404, 406, 415, /healthz's 405) get a coded body; an input stage, so /subgraph's are coded too",
    subgraph: true,
    plugins: () => [useCodedRefusals()],
  },
  {
    name: 'buffered-json',
    why: "in place of the parser yoga's JSON matcher chose (its own parsers come before every plugin): a POST's JSON read from the bytes the front door holds",
    subgraph: true,
    plugins: () => [useBufferedJson()],
  },
  {
    name: 'healthz',
    why: 'a route of its own, before the access and operation stages: a probe is not an operation',
    subgraph: false,
    plugins: ({ services }) => [
      useHealthz({
        endpoint: '/healthz',
        health: () => services.state.health(),
        troubles: () => services.fetcher.trouble.list(),
      }),
    ],
  },
  {
    name: 'readyz',
    why: 'beside /healthz; it answers 503 from the start of a shutdown',
    subgraph: false,
    plugins: ({ readiness }) => [useReadyz({ endpoint: '/readyz', readiness })],
  },
  {
    name: 'subscription-drain',
    why: 'before any subscription starts: shutdown() completes every open one, graphql-ws and SSE alike',
    subgraph: false,
    plugins: ({ drain }) => [useSubscriptionDrain(drain)],
  },
  {
    name: 'client-keys',
    why: "the access checks, before every route and operation that may spend; it names each operation's client (per-client budgets)",
    subgraph: true,
    plugins: ({ clientKeys }) => [useClientKeys(clientKeys)],
  },
  {
    name: 'csrf',
    why: 'a cross-site <img>, form or no-cors fetch must not spend the allowance (Fetch Metadata, then Origin)',
    subgraph: true,
    plugins: ({ hostPolicy, services }) => [
      useCsrfRefusal({
        policy: hostPolicy,
        signals: ['x-graphql-csrf', 'authorization', 'x-client-key'],
        onRefusal: (fetchSite) => services.metrics.csrfRefusals.inc({ fetch_site: fetchSite ?? 'absent' }),
      }),
    ],
  },
  {
    name: 'disable-introspection',
    why: 'with the access checks: GATEWAY_INTROSPECTION=false refuses introspection to every caller',
    subgraph: true,
    plugins: ({ config }) => (config.access.introspection ? none : [useDisableIntrospection()]),
  },
  {
    name: 'widgets',
    why: 'after the access checks: a widget page needs a client key like every route but the probes and the GraphiQL page',
    subgraph: false,
    plugins: () => [useWidgets({ prefix: '/widgets' })],
  },
  {
    name: 'possible-types',
    why: 'type names, as introspection gives them: off with it (GATEWAY_INTROSPECTION=false answers 404)',
    subgraph: false,
    plugins: ({ config }) => (config.access.introspection ? [usePossibleTypes()] : none),
  },
  {
    name: 'graphiql-assets',
    why: "GraphiQL's hashed files, only when GraphiQL is on (src/graphiql/)",
    subgraph: false,
    plugins: ({ config }) => (config.access.graphiql ? [useGraphiQLAssets({ prefix: GRAPHIQL_ASSET_PREFIX })] : none),
  },
  {
    name: 'images',
    why: 'after the access checks: it spends through the spend gate as the client its key names',
    subgraph: false,
    plugins: ({ services, clientKeys }) => [useImages(services, clientKeys)],
  },
  {
    name: 'prometheus',
    why: '/metrics, and the operation metrics observed after the answer is written (src/operation-metrics.ts)',
    subgraph: false,
    plugins: ({ services }) => [
      usePrometheus({
        registry: services.metrics.registry,
        endpoint: '/metrics',
        metrics: operationMetrics(services.metrics),
      }),
      useHttpDuration(services.metrics.httpDuration),
    ],
  },
  {
    name: 'operation-limits',
    why: 'first of the operation stages: a document too large, deep or wide is refused before validation walks it',
    subgraph: true,
    plugins: ({ config }) => useOperationLimits(config.limits),
  },
  {
    name: 'known-operation-types',
    why: "at validation: an operation type the schema does not have is refused with a code, not graphql-jit's 500",
    subgraph: true,
    plugins: () => [useKnownOperationTypes()],
  },
  {
    name: 'incremental-delivery',
    why: '@defer and @stream; a stream the client cannot read is refused before execution spends anything',
    subgraph: true,
    plugins: () => useIncrementalDelivery(),
  },
  {
    name: 'error-codes',
    why: 'every error a client sees carries `extensions.code`, over HTTP with the status of its code',
    subgraph: true,
    plugins: () => [useErrorCodes()],
  },
  {
    name: 'enum-suggestions',
    why: 'HOCKEY -> "Did you mean the enum value \\"ICE_HOCKEY\\"?", where graphql-js\'s own suggestions do not reach',
    subgraph: true,
    plugins: () => [useEnumSuggestions()],
  },
  {
    name: 'operation-spans',
    why: 'a span per operation, before the result cache and the cost plugin so that it covers them (src/tracing/)',
    subgraph: true,
    plugins: ({ tracing }) => (tracing === undefined ? none : [useOperationSpans(tracing)]),
  },
  {
    name: 'max-age',
    why: "before the result cache and the cost limit: a client's @maxAge changes what the cache answers, so what the estimate counts",
    subgraph: false,
    plugins: () => [useMaxAge()],
  },
  {
    name: 'http-caching',
    why: "before the result cache, so a stored result's answer gets its Cache-Control and ETag too (src/plugins/use-http-caching.ts)",
    subgraph: false,
    plugins: ({ services }) => [useHttpCaching({ freshForMs: (key) => services.fetcher.cache.freshForMs(key) })],
  },
  {
    name: 'result-cache',
    why: 'before the cost plugin: a stored result spends nothing, so it is neither estimated nor refused (src/plugins/use-result-cache.ts)',
    subgraph: true,
    plugins: ({ resultCache, budgets }, { resultNamespace }) =>
      resultCache === undefined
        ? none
        : [
            useResultCache({
              cache: resultCache,
              budgets,
              ...(resultNamespace === undefined ? {} : { namespace: resultNamespace }),
            }),
          ],
  },
  {
    name: 'cost-limit',
    why: 'before the trace: a refusal ends the onExecute chain and keeps its own `extensions.cost`',
    subgraph: true,
    plugins: (_parts, { costs }) => [useCostLimit(costs === undefined ? {} : { costs })],
  },
  {
    name: 'upstream-trace',
    why: 'after the cost limit: the estimate, the requests sent and the stale answers go into `extensions`',
    subgraph: true,
    plugins: () => [useUpstreamTrace()],
  },
  {
    name: 'quota-after-spend',
    why: '`quota` as the operation left it, not as it found it (src/plugins/use-quota-after-spend.ts)',
    subgraph: true,
    plugins: () => [useQuotaAfterSpend()],
  },
  {
    name: 'introspection-bounds',
    why: "after the trace: a stored introspection result still gets this operation's own extensions.cost",
    subgraph: true,
    plugins: () => [useIntrospectionBounds()],
  },
  {
    name: 'jit',
    why: "compiled execution for queries (the warm path's resolver walk); subscriptions keep graphql-js's executor and are shared instead",
    subgraph: true,
    plugins: ({ config }) => (config.graphqlJit ? [useJit()] : none),
  },
  {
    name: 'operation-timeout',
    why: "last: it wraps the execute function that really runs, graphql-jit's included",
    subgraph: true,
    plugins: ({ config, logger, settleSweep }) => [
      useOperationTimeout({
        sweep: settleSweep,
        operationMs: config.timeouts.operationMs,
        settleMs: config.timeouts.settleMs,
        logger,
      }),
    ],
  },
];

/** The stages an endpoint runs, in order. */
export function stagesOf(endpoint: Endpoint['name']): readonly Stage[] {
  return endpoint === 'graphql' ? stages : stages.filter((stage) => stage.subgraph);
}

/** The endpoint's yoga plugins: its stages' plugins, in the table's order. */
export function pipeline(parts: PipelineParts, endpoint: Endpoint): GatewayPlugin[] {
  return stagesOf(endpoint.name).flatMap((stage) => stage.plugins(parts, endpoint));
}
