/**
 * The operation metrics @graphql-yoga/plugin-prometheus reports, on the
 * gateway's own metric objects (src/metrics.ts) instead of the ones it
 * would make: same names, help, labels and buckets, but observed after the
 * answer is written (src/metrics-after-answer.ts), and with labels built
 * directly instead of through the plugin's generic label filter (an
 * `Object.entries` round trip per observation). `graphql_yoga_http_duration`
 * is src/plugins/use-http-duration.ts's.
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

export function operationMetrics(metrics: GatewayMetrics): Metrics {
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
    // Observed by src/plugins/use-http-duration.ts, the same way without the plugin's per-answer copies.
    graphql_yoga_http_duration: false,
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
