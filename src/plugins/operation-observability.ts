// Per GraphQL request: one structured log line (name, type, outcome, error codes, duration, client), one
// metrics observation, and the request id returned to the caller as the x-request-id header.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { requestIdOf, type TradegraphContext } from '../context.js';
import type { ClientIdentities } from '../observability/client-identity.js';
import type { OperationOutcome, TradegraphMetrics } from '../observability/metrics.js';
import { scopeOf, type OperationState } from '../request-scope.js';
import { servedFromResponseCache } from './response-cache.js';
import { servedStale } from './response-cache/stale-if-error.js';
import {
  errorCodesOf,
  isAsyncIterable,
  nodeResponseOf,
  watchStream,
  type PayloadLike,
  type ResultLike,
} from '../observability/operation-results.js';
import { boundedLabel } from '../observability/bounded-label.js';
import { MAX_OPERATION_NAME_LABELS } from '../tunables.js';

export interface OperationObservabilityOptions {
  logger: Logger;
  metrics: TradegraphMetrics;
  /** The client of each request, bounded (graphql-client-name and -version headers). */
  clients: ClientIdentities;
  /** Distinct operation names that get a series of their own; later ones share `other`. */
  maxOperationNames?: number;
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;

export function useOperationObservability({
  logger,
  metrics,
  clients,
  maxOperationNames = MAX_OPERATION_NAME_LABELS,
}: OperationObservabilityOptions): Plugin<TradegraphContext> {
  // Operation names are chosen by clients: bound the label values they can create.
  const recorder: Recorder = { logger, metrics, clients, nameLabel: boundedLabel(maxOperationNames) };

  return {
    // Runs for every GraphQL HTTP request before its body is read (GraphiQL's page never gets here).
    onRequestParse({ request }) {
      scopeOf(request).operation = { started: performance.now(), name: null, type: null, outcome: 'ok', errorCodes: [] };
    },
    onParams({ request, params }) {
      const state = scopeOf(request).operation;
      // Yoga refuses a non-string operationName (400); it never becomes a name here.
      if (state && typeof params.operationName === 'string' && params.operationName) state.name = params.operationName;
    },
    onExecute({ args }) {
      const state = scopeOf(args.contextValue.request).operation;
      if (!state) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation) {
        state.type = operation.operation;
        state.name = operation.name?.value ?? null;
      }
    },
    onResultProcess({ request, result, setResult, serverContext }) {
      const state = scopeOf(request).operation;
      if (!state) return;
      if (isAsyncIterable(result)) {
        // A stream (@defer): its outcome is known, and its line written, once the last payload is sent.
        const { stream, ended } = summarizeStream(result, state, nodeResponseOf(serverContext));
        state.streamEnded = ended;
        setResult(stream as typeof result);
        return;
      }
      const { outcome, errorCodes } = summarize(result);
      state.outcome = outcome;
      state.errorCodes = errorCodes;
      if (servedStale(result)) state.responseCache = 'stale';
      if (servedFromResponseCache(result)) {
        state.responseCache ??= 'hit';
        // Only queries are cached; the cached answer never went through onExecute.
        state.type ??= 'query';
      }
    },
    onResponse({ request, response, serverContext }) {
      response.headers.set('x-request-id', requestIdOf(request));
      const scope = scopeOf(request);
      const state = scope.operation;
      if (!state) return;
      scope.operation = undefined;
      // A client that left before its request's body arrived asked for nothing: Yoga still answers
      // it (a body it cannot parse), but that is no operation to log or count.
      if ((serverContext as { req?: IncomingMessage } | undefined)?.req?.complete === false) return;
      if (state.streamEnded) void state.streamEnded.then(() => record(recorder, request, state, response.status));
      else record(recorder, request, state, response.status);
    },
  };
}

/** Where an operation is told: its log, its metrics, the request's client, and the bound on operation names. */
interface Recorder extends Pick<OperationObservabilityOptions, 'logger' | 'metrics' | 'clients'> {
  nameLabel: (name: string) => string;
}

/** The operation's metrics observation and log line. */
function record({ logger, metrics, clients, nameLabel }: Recorder, request: Request, state: OperationState, httpStatus: number): void {
  const durationMs = performance.now() - state.started;
  const operationName = state.name === null ? 'anonymous' : GRAPHQL_NAME.test(state.name) ? state.name : 'invalid';
  const operationType = state.type ?? 'unknown';
  const client = clients.of(request);
  metrics.observeOperation({
    operationName: nameLabel(operationName),
    operationType,
    outcome: state.outcome,
    errorCodes: state.errorCodes,
    durationSeconds: durationMs / 1000,
    clientName: client.name,
    clientVersion: client.version,
  });
  // Error messages are left out on purpose: codes are enough to find the request, and a
  // message may quote client input.
  if (!logger.isLevelEnabled('info')) return;
  logger.info(
    {
      requestId: requestIdOf(request),
      operationName,
      operationType,
      clientName: client.name,
      clientVersion: client.version,
      outcome: state.outcome,
      errorCodes: state.errorCodes,
      httpStatus,
      durationMs: Math.round(durationMs * 1000) / 1000,
      ...(state.responseCache && { responseCache: state.responseCache }),
    },
    'graphql operation',
  );
}

/** A stream's outcome: the first payload's data, the errors of all of them. */
function summarizeStream(
  source: AsyncIterable<PayloadLike>,
  state: OperationState,
  response: ServerResponse | undefined,
): { stream: AsyncIterable<PayloadLike>; ended: Promise<void> } {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const stream = watchStream(
    source,
    (results) => {
      Object.assign(state, summarize(results));
      end();
    },
    response,
  );
  return { stream, ended };
}

/** The outcome and distinct error codes of a result (or of every result of a batch or a stream). */
function summarize(result: unknown): { outcome: OperationOutcome; errorCodes: string[] } {
  const results: ResultLike[] = Array.isArray(result)
    ? (result as ResultLike[])
    : result && typeof result === 'object'
      ? [result as ResultLike]
      : [];
  const hasData = results.some((each) => each.data !== undefined && each.data !== null);
  const errorCodes = [...new Set(results.flatMap((each) => errorCodesOf(each.errors)))];
  const outcome: OperationOutcome = errorCodes.length === 0 ? 'ok' : hasData ? 'partial' : 'error';
  return { outcome, errorCodes };
}
