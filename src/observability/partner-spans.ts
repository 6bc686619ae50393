// Tracing of partner calls, as an observer of the partner client: a CLIENT span per call, and its
// W3C trace context sent upstream. Uses the OpenTelemetry API only, whose spans are no-ops until an
// SDK is installed (tracing.ts).
import { SpanKind, SpanStatusCode, context, propagation, trace, type Attributes } from '@opentelemetry/api';
import type { PartnerCallObserver } from '../partner/index.js';

const TRACER_NAME = 'tradegraph';

// Looked up per span rather than once: a tracer taken before the SDK is installed stays a no-op.
export const tracer = () => trace.getTracer(TRACER_NAME);

/**
 * Opens the span of each call as it starts and adds `traceparent` to its headers, so that the
 * partner can join the trace if it wants to. URL attributes carry the path only: the query string
 * holds the caller's access token.
 */
export const partnerCallTracing: PartnerCallObserver = {
  callStarted(call, headers) {
    const url = new URL(call.origin);
    const attributes: Attributes = {
      'http.request.method': call.method,
      'server.address': url.hostname,
      'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      'url.path': call.path,
      'tradegraph.partner.operation': call.operation,
    };
    const span = tracer().startSpan(`partner ${call.operation}`, { kind: SpanKind.CLIENT, attributes });
    propagation.inject(trace.setSpan(context.active(), span), headers);
    return (event) => {
      if (!span.isRecording()) return span.end();
      span.setAttribute('tradegraph.partner.outcome', event.outcome);
      span.setAttribute('tradegraph.partner.attempts', event.attempts);
      if (event.httpStatus !== undefined) span.setAttribute('http.response.status_code', event.httpStatus);
      if (event.upstreamErrorCode !== undefined && event.upstreamErrorCode !== null) {
        span.setAttribute('tradegraph.partner.error_code', String(event.upstreamErrorCode));
      }
      if (event.outcome !== 'ok' && event.outcome !== 'cancelled') {
        span.setStatus({ code: SpanStatusCode.ERROR, message: event.outcome });
      }
      span.end();
    };
  },
};
