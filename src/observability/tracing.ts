// The OpenTelemetry SDK, installed only when tracing is configured (main.ts loads this module on
// demand). Without it the spans of plugins/operation-spans.ts and partner-spans.ts are the API's no-ops.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface TracingInstallation {
  /** Flushes spans still buffered and unregisters the SDK. */
  shutdown(): Promise<void>;
}

/**
 * Registers the OpenTelemetry SDK for this process: spans go to `spanProcessor`, the active span
 * follows async work (AsyncLocalStorage), and trace context travels as W3C `traceparent`.
 */
export function installTracing({
  serviceName,
  spanProcessor,
}: {
  serviceName: string;
  spanProcessor: SpanProcessor;
}): TracingInstallation {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [spanProcessor],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** Batches spans to an OTLP/HTTP collector (the exporter also honours OTEL_EXPORTER_OTLP_HEADERS). */
export function otlpSpanProcessor(tracesUrl: string): SpanProcessor {
  return new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl }));
}
