/**
 * The operation metrics @graphql-yoga/plugin-prometheus reports, on the
 * gateway's own metric objects (src/metrics.ts) instead of the ones it
 * would make: same names, help, labels and buckets, but observed after the
 * answer is written (src/metrics-after-answer.ts), and with labels built
 * directly instead of through the plugin's generic label filter (an
 * `Object.entries` round trip per observation).
 */
import type { PrometheusTracingPluginConfig } from '@graphql-yoga/plugin-prometheus';
import type { GatewayMetrics } from './metrics.js';

type Metrics = NonNullable<PrometheusTracingPluginConfig['metrics']>;

interface OperationParams {
  readonly operationName?: string | undefined;
  readonly operationType?: string | undefined;
}

type OperationLabels = Partial<Record<'operationName' | 'operationType', string>>;

// The plugin's parse hook has named the operation already ('Anonymous' when it has no name).
// Filled in place, not spread from two conditional objects: it runs twice per operation.
const operationLabels = ({ operationName, operationType }: OperationParams): OperationLabels => {
  const labels: OperationLabels = {};
  if (operationName !== undefined) labels.operationName = operationName;
  if (operationType !== undefined) labels.operationType = operationType;
  return labels;
};

/** The path of a request URL ('/graphql'): neither the host (the client's Host header) nor the query string reaches the label. */
function parsedPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return 'unknown';
  }
}

/**
 * `parsedPath`, parsed again only when the URL differs from the last one:
 * the requests of one client (and a load generator's) repeat the same URL,
 * and a URL parse per answer was a visible part of an executed operation's CPU.
 */
function lastPathMemo(): (url: string) => string {
  let lastUrl: string | undefined;
  let lastPath = '';
  return (url) => {
    if (url !== lastUrl) {
      lastPath = parsedPath(url);
      lastUrl = url;
    }
    return lastPath;
  };
}

export function operationMetrics(metrics: GatewayMetrics): Metrics {
  const pathOf = lastPathMemo();
  return {
    graphql_envelop_request: {
      counter: metrics.operations,
      fillLabelsFn: operationLabels,
      phases: ['execute', 'subscribe'],
    },
    graphql_envelop_request_duration: {
      histogram: metrics.operationDuration,
      fillLabelsFn: operationLabels,
      phases: ['execute', 'subscribe'],
    },
    graphql_envelop_error_result: {
      counter: metrics.operationErrors,
      fillLabelsFn: (params) => ({
        ...operationLabels(params),
        ...(params.errorPhase === undefined ? {} : { phase: params.errorPhase }),
        ...(params.error?.path === undefined ? {} : { path: params.error.path.join('.') }),
      }),
      phases: ['parse', 'validate', 'context', 'execute', 'subscribe'],
    },
    graphql_yoga_http_duration: {
      histogram: metrics.httpDuration,
      fillLabelsFn: (params) => ({
        method: params.request.method,
        statusCode: params.response.status,
        operationType: params.operationType || 'unknown',
        operationName: params.operationName || 'Anonymous',
        // The path only: a GET operation's query string (and the host) would make every distinct request a series of its own.
        url: pathOf(params.request.url),
      }),
      phases: ['request'],
    },
    graphql_envelop_phase_parse: false,
    graphql_envelop_phase_validate: false,
    graphql_envelop_phase_context: false,
    graphql_envelop_phase_execute: false,
    graphql_envelop_phase_subscribe: false,
    graphql_envelop_request_time_summary: false,
    graphql_envelop_deprecated_field: false,
    graphql_envelop_schema_change: false,
  };
}
