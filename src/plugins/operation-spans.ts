// Tracing of GraphQL operations: a SERVER span around each one, active while it executes so that
// partner call spans (partner-spans.ts) become its children.
import { SpanKind, SpanStatusCode, context, propagation, trace, type Context, type Span, type TextMapGetter } from '@opentelemetry/api';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { requestIdOf, type TradegraphContext } from '../context.js';
import type { ClientIdentities } from '../observability/client-identity.js';
import { errorCodesOf, isAsyncIterable, nodeResponseOf, watchStream, type ResultLike } from '../observability/operation-results.js';
import { tracer } from '../observability/partner-spans.js';

const HEADERS: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

interface OperationSpan {
  span: Span;
  /** A streamed answer (@defer): the span ends with its last payload, not with the operation's first answer. */
  streaming: boolean;
}

/** Codes only: messages may quote client input. */
function markErrors(span: Span, results: readonly ResultLike[]): void {
  const codes = [...new Set(results.flatMap((result) => errorCodesOf(result.errors)))];
  if (codes.length === 0) return;
  span.setAttribute('graphql.error.codes', codes);
  span.setStatus({ code: SpanStatusCode.ERROR, message: codes.join(',') });
}

/** The operation's SERVER span, under the caller's trace when it sent one. */
function startOperationSpan(request: Request, clients: ClientIdentities, parent: Context): Span {
  const client = clients.of(request);
  const attributes = {
    'tradegraph.request_id': requestIdOf(request),
    'tradegraph.client.name': client.name,
    'tradegraph.client.version': client.version,
  };
  return tracer().startSpan('graphql.operation', { kind: SpanKind.SERVER, attributes }, parent);
}

/**
 * A SERVER span around each GraphQL operation, active while it executes so that partner call spans
 * become its children. A caller's `traceparent` makes it part of the caller's trace.
 */
export function useOperationSpans(clients: ClientIdentities): Plugin<TradegraphContext> {
  const spans = new WeakMap<Request, OperationSpan>();
  return {
    instrumentation: {
      operation({ request }, wrapped) {
        const parent = propagation.extract(context.active(), request.headers, HEADERS);
        const span = startOperationSpan(request, clients, parent);
        const state: OperationSpan = { span, streaming: false };
        spans.set(request, state);
        const end = () => {
          spans.delete(request);
          if (!state.streaming) span.end();
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
      const span = spans.get(args.contextValue.request)?.span;
      const operation = span && getOperationAST(args.document, args.operationName);
      if (!span || !operation) return;
      const name = operation.name?.value;
      span.updateName(name ? `${operation.operation} ${name}` : operation.operation);
      span.setAttribute('graphql.operation.type', operation.operation);
      if (name) span.setAttribute('graphql.operation.name', name);
    },
    // Yoga's last hook inside the operation (its onResultProcess runs after the operation's span would end).
    onExecutionResult({ request, result, setResult, context }) {
      const state = spans.get(request);
      if (!state || !result) return;
      if (!isAsyncIterable(result)) {
        markErrors(state.span, [result as ResultLike]);
        return;
      }
      // The deferred payloads, and the partner calls that feed them, still belong to the operation.
      state.streaming = true;
      const stream = watchStream(
        result,
        (results) => {
          markErrors(state.span, results);
          state.span.end();
        },
        nodeResponseOf(context),
      );
      setResult(stream as typeof result);
    },
  };
}
