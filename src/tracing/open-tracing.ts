/**
 * OpenTelemetry for one gateway: a tracer provider that exports over
 * OTLP/HTTP (JSON) to the configured endpoint, and the W3C trace-context
 * propagator that reads an incoming `traceparent`.
 *
 * Off unless an endpoint is configured (src/config/tracing.ts), and then
 * nothing of the SDK is even loaded: ./sdk.js is imported here, on
 * demand. The provider is the gateway's own, never registered globally,
 * and no context manager is installed: spans are parented explicitly (the
 * operation's span is handed to the upstream loader), because an active
 * AsyncLocalStorage turns on promise hooks for the whole process, which
 * made promise-heavy code several times slower on Node 20
 * (src/spend/spend-meter.ts says the same of the spend meter).
 *
 * Sampling is the SDK's default, parent-based: an incoming `traceparent`
 * whose sampled flag is off is not recorded; without one every operation is.
 */
import { ROOT_CONTEXT, type Context, type TextMapGetter, type Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { TracingConfig } from '../config/tracing.js';

/** Reads one request header, lower-case name; undefined when absent. */
export type HeaderReader = (name: string) => string | undefined;

export interface Tracing {
  readonly tracer: Tracer;
  /** The context an incoming request's `traceparent`/`tracestate` name, or the root context. */
  parentOf(header: HeaderReader): Context;
  /** Exports what is pending and stops. */
  close(): Promise<void>;
}

export interface TracingIdentity {
  /** `service.instance.id`: the replica. */
  readonly replicaId: string;
  readonly logger: Logger;
}

const headerGetter: TextMapGetter<HeaderReader> = {
  get: (header, key) => header(key.toLowerCase()),
  keys: () => ['traceparent', 'tracestate'],
};

/** Undefined when tracing is off: then no SDK module is loaded. */
export async function openTracing(
  config: TracingConfig,
  { replicaId, logger }: TracingIdentity,
): Promise<Tracing | undefined> {
  const url = config.tracesUrl;
  if (url === undefined) return undefined;
  const {
    BasicTracerProvider,
    BatchSpanProcessor,
    OTLPTraceExporter,
    resourceFromAttributes,
    W3CTraceContextPropagator,
  } = await import('./sdk.js');
  const exporter = new OTLPTraceExporter({ url, headers: { ...config.headers } });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName, 'service.instance.id': replicaId }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: config.exportDelayMs })],
  });
  const propagator = new W3CTraceContextPropagator();
  const { origin, pathname } = new URL(url);
  // Origin and path only: a URL may carry credentials.
  logger.info(
    { endpoint: `${origin}${pathname}`, service: config.serviceName },
    'OpenTelemetry: exporting traces over OTLP/HTTP',
  );
  return {
    tracer: provider.getTracer('sports-graph'),
    parentOf: (header) => propagator.extract(ROOT_CONTEXT, header, headerGetter),
    close: async () => {
      try {
        await provider.shutdown();
      } catch (error) {
        logger.warn({ err: error }, 'OpenTelemetry: the last spans could not be exported');
      }
    },
  };
}
