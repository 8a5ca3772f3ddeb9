/**
 * The parts of the OpenTelemetry SDK that tracing uses, in one ES module
 * that open-tracing.ts imports on demand, so that none of it is loaded
 * while tracing is off.
 *
 * Static imports here, not one `import()` per package: with code splitting,
 * esbuild turns the dynamic import of a CommonJS package (the OTLP
 * exporter has no ES module entry for Node) into a chunk whose only export
 * is `default`, so its named exports read as undefined in the build
 * (evanw/esbuild#3245) while the sources under tsx work. Static imports of
 * CommonJS get esbuild's full interop, and this module is ESM itself.
 */
export { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
export { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
export { resourceFromAttributes } from '@opentelemetry/resources';
export { W3CTraceContextPropagator } from '@opentelemetry/core';
