// Tracing of GraphQL operations: a SERVER span around each one, active while it executes so that
// partner call spans (partner-spans.ts) become its children.
import { SpanKind, SpanStatusCode, context, propagation, trace, type Span, type TextMapGetter } from '@opentelemetry/api';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { requestIdOf, type TradegraphContext } from '../context.js';
import { errorCodesOf } from './operation-observability.js';
import { tracer } from '../observability/partner-spans.js';

const HEADERS: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/**
 * A SERVER span around each GraphQL operation, active while it executes so that partner call spans
 * become its children. A caller's `traceparent` makes it part of the caller's trace.
 */
export function useOperationSpans(): Plugin<TradegraphContext> {
  const spans = new WeakMap<Request, Span>();
  return {
    instrumentation: {
      operation({ request }, wrapped) {
        const parent = propagation.extract(context.active(), request.headers, HEADERS);
        const span = tracer().startSpan(
          'graphql.operation',
          { kind: SpanKind.SERVER, attributes: { 'tradegraph.request_id': requestIdOf(request) } },
          parent,
        );
        spans.set(request, span);
        const end = () => {
          spans.delete(request);
          span.end();
        };
        let result: ReturnType<typeof wrapped>;
        try {
          result = context.with(trace.setSpan(parent, span), wrapped);
        } catch (error) {
          end();
          throw error;
        }
        if (result && typeof (result as Promise<void>).then === 'function') return (result as Promise<void>).finally(end);
        end();
        return result;
      },
    },
    onExecute({ args }) {
      const span = spans.get(args.contextValue.request);
      const operation = span && getOperationAST(args.document, args.operationName);
      if (!span || !operation) return;
      const name = operation.name?.value;
      span.updateName(name ? `${operation.operation} ${name}` : operation.operation);
      span.setAttribute('graphql.operation.type', operation.operation);
      if (name) span.setAttribute('graphql.operation.name', name);
    },
    onExecutionResult({ request, result }) {
      const span = spans.get(request);
      if (!span || !result || Symbol.asyncIterator in result) return;
      const codes = errorCodesOf(result.errors);
      if (codes.length === 0) return;
      // Codes only: messages may quote client input.
      span.setAttribute('graphql.error.codes', codes);
      span.setStatus({ code: SpanStatusCode.ERROR, message: codes.join(',') });
    },
  };
}
