// Tracing of partner calls: a CLIENT span per call, and its W3C trace context sent upstream. Uses
// the OpenTelemetry API only, whose spans are no-ops until an SDK is installed (tracing.ts).
import { SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Span } from '@opentelemetry/api';
import type { PartnerCallEvent } from '../partner/client.js';

export const TRACER_NAME = 'tradegraph';

// Looked up per span rather than once: a tracer taken before the SDK is installed stays a no-op.
export const tracer = () => trace.getTracer(TRACER_NAME);

/**
 * The span of one partner call. Its URL attributes carry the path only: the query string holds
 * the caller's access token.
 */
export function startPartnerCallSpan(call: { operation: string; method: string }, origin: string, path: string): Span {
  const url = new URL(origin);
  const attributes: Attributes = {
    'http.request.method': call.method,
    'server.address': url.hostname,
    'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    'url.path': path,
    'tradegraph.partner.operation': call.operation,
  };
  return tracer().startSpan(`partner ${call.operation}`, { kind: SpanKind.CLIENT, attributes });
}

/** Adds `traceparent` for the call's span, so the partner can join the trace if it wants to. */
export function injectTraceContext(span: Span, headers: Record<string, string>): void {
  propagation.inject(trace.setSpan(context.active(), span), headers);
}

export function endPartnerCallSpan(span: Span, event: PartnerCallEvent): void {
  if (!span.isRecording()) return span.end();
  span.setAttribute('tradegraph.partner.outcome', event.outcome);
  span.setAttribute('tradegraph.partner.attempts', event.attempts);
  if (event.httpStatus !== undefined) span.setAttribute('http.response.status_code', event.httpStatus);
  if (event.upstreamErrorCode !== undefined && event.upstreamErrorCode !== null) {
    span.setAttribute('tradegraph.partner.error_code', String(event.upstreamErrorCode));
  }
  if (event.outcome !== 'ok' && event.outcome !== 'cancelled') span.setStatus({ code: SpanStatusCode.ERROR, message: event.outcome });
  span.end();
}
