/**
 * OpenTelemetry settings, from the standard variables
 * (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/).
 * Tracing is on only when an OTLP endpoint is set; otherwise no SDK module is
 * loaded at all (src/tracing/open-tracing.ts).
 */
import type { Env, EnvReader } from '../env-reader.js';

export interface TracingConfig {
  /**
   * Where spans are sent, OTLP/HTTP with JSON: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
   * as given, or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. Undefined: tracing off.
   */
  tracesUrl: string | undefined;
  /** `OTEL_SERVICE_NAME`. @default 'sports-graph' */
  serviceName: string;
  /** `OTEL_BSP_SCHEDULE_DELAY`: most milliseconds a finished span waits before it is exported. @default 5_000 */
  exportDelayMs: number;
  /** `OTEL_EXPORTER_OTLP_TRACES_HEADERS` or `OTEL_EXPORTER_OTLP_HEADERS`: `key=value,...` sent with every export (a collector's token). */
  headers: Readonly<Record<string, string>>;
}

function parseHeaders(text: string | undefined, problems: string[], name: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    if (at <= 0) {
      problems.push(`${name} must be key=value pairs separated by commas`);
      continue;
    }
    headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

export function readTracingConfig({ problems, int, url, bool }: EnvReader, env: Env): TracingConfig {
  const base = url('OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']);
  const traces = url('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http:', 'https:']);
  const disabled = bool('OTEL_SDK_DISABLED', false);
  const headersName =
    env['OTEL_EXPORTER_OTLP_TRACES_HEADERS'] !== undefined
      ? 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'
      : 'OTEL_EXPORTER_OTLP_HEADERS';
  return {
    tracesUrl: disabled ? undefined : (traces ?? (base === undefined ? undefined : `${base}/v1/traces`)),
    serviceName: env['OTEL_SERVICE_NAME'] || 'sports-graph',
    exportDelayMs: int('OTEL_BSP_SCHEDULE_DELAY', 5_000, 1),
    headers: parseHeaders(env[headersName], problems, headersName),
  };
}
