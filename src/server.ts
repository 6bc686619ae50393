// The HTTP face of the service: a node:http server that answers its own routes (/health) and hands
// everything else to Yoga (GraphQL, and GraphiQL in development). It owns the partner API clients.
import { createServer, ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createYoga, type Plugin, type YogaInitialContext, type YogaServerInstance } from 'graphql-yoga';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createContextFactory, type TradegraphContext } from './context.js';
import { graphiqlOptions } from './graphiql.js';
import { ErrorCode } from './errors.js';
import { helpText, isBrowserVisit, sendHelp } from './http/help.js';
import { acceptRequestBody } from './http/request-body.js';
import { sendJson } from './http/send-json.js';
import { createMetrics, type TradegraphMetrics } from './observability/metrics.js';
import { partnerCallLog } from './observability/partner-call-log.js';
import { partnerCallTracing } from './observability/partner-spans.js';
import { createReadinessCheck } from './observability/readiness.js';
import { PartnerApi } from './partner/index.js';
import { useCompiledExecution } from './plugins/compiled-execution.js';
import { useCsrfPrevention } from './plugins/csrf-prevention.js';
import { useErrorCodes } from './plugins/error-codes.js';
import { incrementalDeliveryValidation, useIncrementalDelivery } from './plugins/defer-stream.js';
import { operationLimitPlugins, operationLimitValidation } from './plugins/operation-limits.js';
import { useOperationObservability } from './plugins/operation-observability.js';
import { useOperationSpans } from './plugins/operation-spans.js';
import { productionPlugins, productionValidation } from './plugins/production.js';
import { useQuerySizeLimit } from './plugins/query-size-limit.js';
import { useRateLimit } from './plugins/rate-limit.js';
import { useTradegraphResponseCache } from './plugins/response-cache.js';
import { prepareTrustedDocuments, useTrustedDocuments, type TrustedDocuments } from './plugins/trusted-documents.js';
import { useValidationCache } from './plugins/validation-cache.js';
import { connectRedis, type SharedRedis } from './redis.js';
import { buildSchema } from './schema.js';

export interface TradegraphOptions {
  config: Config & { partnerApiUrl: string; partnerOpenApiUrl: string };
  logger: Logger;
  /** Headers GraphiQL opens with (the simulator's demo token); none when omitted. */
  graphiqlHeaders?: Record<string, string>;
  /** The executable schema, with the prices its SDL declares; the one of schema/ when omitted. */
  schema?: GraphQLSchema;
}

export interface Tradegraph {
  server: Server;
  yoga: YogaServerInstance<NodeServerContext, TradegraphContext>;
  partner: PartnerApi;
  metrics: TradegraphMetrics;
  /** The shared Redis connection; null without REDIS_URL. */
  redis: SharedRedis | null;
  listen(port: number, host?: string): Promise<string>;
  /**
   * Stops accepting, lets requests in flight finish (cutting their connections after `graceMs`),
   * then closes the upstream pools.
   */
  close(graceMs?: number): Promise<void>;
}

export const GRAPHQL_PATH = '/graphql';

/** What Yoga's node adapter adds to each request's context. */
export interface NodeServerContext {
  req: IncomingMessage;
  res: ServerResponse;
}

/** A route answered outside GraphQL; it always answers the request it is given. */
type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Readiness probes: how long one may take, and how long its answer is reused. */
const READINESS_TIMEOUT_MS = 2_000;
const READINESS_CACHE_MS = 2_000;

export function createTradegraph({ config, logger, graphiqlHeaders = {}, schema = buildSchema() }: TradegraphOptions): Tradegraph {
  const metrics = createMetrics();
  const partner = new PartnerApi({
    baseUrl: config.partnerApiUrl,
    openApiUrl: config.partnerOpenApiUrl,
    timeoutMs: config.upstreamTimeoutMs,
    appKey: config.partnerAppKey,
    maxRetries: config.upstreamMaxRetries,
    circuit: {
      failureRatio: config.upstreamBreakerFailureRatio,
      windowMs: config.upstreamBreakerWindowMs,
      minimumCalls: config.upstreamBreakerMinCalls,
      minimumDistinct: config.upstreamBreakerMinDistinct,
      halfOpenAfterMs: config.upstreamBreakerHalfOpenMs,
    },
    connections: config.upstreamConnections,
    connectionWaitMs: config.upstreamConnectionWaitMs,
    // The client emits; metrics, logs and tracing listen (tracing adds traceparent as a call starts;
    // without TRACING it is not listening at all, rather than starting spans of a no-op tracer).
    observers: [metrics.partnerCalls, partnerCallLog(logger), ...(config.tracing ? [partnerCallTracing] : [])],
  });
  metrics.watchCircuits(() =>
    partner.circuitStates().map(({ upstream, state }) => ({ upstream, open: state === 'open' || state === 'isolated' })),
  );
  const redis = config.redisUrl === null ? null : connectRedis(config.redisUrl, logger);
  if (redis) metrics.watchRedis(() => redis.up);
  const readiness = createReadinessCheck({
    probe: (timeoutMs) => partner.probeUpstreams(timeoutMs),
    timeoutMs: Math.min(READINESS_TIMEOUT_MS, config.upstreamTimeoutMs),
    cacheMs: READINESS_CACHE_MS,
  });

  // Envelop plugins, in order. Each concern (limits, observability, execution) adds its own here.
  const plugins: Plugin<TradegraphContext>[] = [];
  plugins.push(useOperationObservability({ logger, metrics }));
  if (config.tracing) plugins.push(useOperationSpans());
  plugins.push(useCsrfPrevention());
  plugins.push(useQuerySizeLimit(config.maxQueryBytes));
  // Filled from the manifest once Yoga's pipeline exists (below); empty, it still answers an
  // unknown documentId with PERSISTED_QUERY_NOT_FOUND.
  const trustedDocuments: TrustedDocuments = new Map();
  plugins.push(useTrustedDocuments({ documents: trustedDocuments, only: config.trustedDocumentsOnly }));
  // Before the limits and execution: a client that cannot take several payloads is refused first.
  plugins.push(...useIncrementalDelivery<TradegraphContext & YogaInitialContext>());
  // After observability, so that refused operations are seen (and counted) too.
  plugins.push(...operationLimitPlugins());
  // One cached validation for the limits, @defer/@stream and what production hides (validation-cache.ts).
  plugins.push(
    useValidationCache([
      ...operationLimitValidation(),
      ...incrementalDeliveryValidation(),
      ...(config.production ? productionValidation() : []),
    ]),
  );
  if (config.production) plugins.push(...productionPlugins());
  plugins.push(useErrorCodes());
  // Before the cache, so that an answer from the cache counts against the budget too.
  if (config.rateLimit) plugins.push(useRateLimit({ ...config.rateLimit, redis: redis ?? undefined }));
  plugins.push(
    useCompiledExecution<TradegraphContext>({
      onCompileFailure: (operationName, errors) =>
        logger.warn({ operationName, errors: errors.map(String) }, 'operation runs uncompiled: graphql-jit cannot compile it'),
    }),
  );
  // After compiled execution: the cache runs the execute function with its own rewritten document.
  if (config.responseCacheTtlMs > 0) {
    plugins.push(
      ...useTradegraphResponseCache({
        ttlMs: config.responseCacheTtlMs,
        redis: redis ?? undefined,
        includeMetadata: !config.production,
      }),
    );
  }

  const yoga = createYoga<NodeServerContext, TradegraphContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    context: createContextFactory({
      partner,
      listingFeeBatchMax: config.listingFeeBatchMax,
      operationTimeoutMs: config.operationTimeoutMs,
      pageMaxPartnerCalls: config.pageMaxPartnerCalls,
    }),
    plugins,
    graphiql: config.production ? false : graphiqlOptions(graphiqlHeaders),
    // Loaded on first use: the GraphiQL bundle is large, and production never renders it.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    landingPage: false,
    // Validation results are cached per document by useValidationCache (validation-cache.ts).
    parserAndValidationCache: { validationCache: false },
    // Bodies are already capped at MAX_BODY_BYTES by acceptRequestBody below; Yoga's own limit
    // would pipe each body through a web TransformStream, on every request, for a check already
    // made.
    maxRequestBodySize: false,
    // Array batching stays off: one HTTP request, one operation, one cost check.
    batching: false,
    // Production never shows an unexpected error's message or stack, whatever NODE_ENV Yoga sees.
    maskedErrors: config.production ? { isDev: false } : true,
    logging: yogaLogger(logger),
  });
  // Throws a ConfigError naming TRUSTED_DOCUMENTS for a document no request could run.
  if (config.trustedDocuments) prepareTrustedDocuments(yoga as never, config.trustedDocuments, trustedDocuments);

  let shuttingDown = false;
  let closing: Promise<void> | undefined;
  /**
   * Every response whose head is written once shutdown has begun asks its client to close the
   * connection, also one whose request was already in flight, so that no client sends another
   * request on a connection about to close. Decided as the head is written, rather than by keeping
   * the responses in flight in a set: a long-lived collection of short-lived responses costs the
   * garbage collector (see docs/decisions/request-lifetimes.md).
   */
  class TradegraphResponse extends ServerResponse {
    override writeHead(statusCode: number, statusMessage?: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
    override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
    override writeHead(statusCode: number, ...rest: [(string | OutgoingHttpHeaders | OutgoingHttpHeader[])?, (OutgoingHttpHeaders | OutgoingHttpHeader[])?]): this {
      if (shuttingDown && !this.headersSent) this.setHeader('connection', 'close');
      return super.writeHead(statusCode, ...(rest as [string, OutgoingHttpHeaders]));
    }
  }
  /** Requests being worked on, all of them for the shutdown log, GraphQL ones for MAX_OPERATIONS_IN_FLIGHT. */
  let requestsInFlight = 0;
  let operationsInFlight = 0;
  function requestEnded(this: ServerResponse) {
    requestsInFlight -= 1;
    if (shuttingDown) closeOnceAnswered(this.req.socket);
  }
  const operationEnded = () => (operationsInFlight -= 1);
  const help = helpText({ production: config.production, graphqlPath: GRAPHQL_PATH });
  const routes: Record<string, Route> = {
    '/': (_req, res) => sendHelp(res, 200, help),
    '/health': (_req, res) => {
      // 200 while the service takes requests; 503 once it is shutting down.
      sendJson(res, shuttingDown ? 503 : 200, { status: shuttingDown ? 'shutting down' : 'ok' });
    },
    '/readiness': async (_req, res) => {
      // Whether the partner API answers (see docs/observability.md). Redis is shown but never makes
      // a replica unready: without it the replica works on its own.
      const report = await readiness();
      const ready = report.ready && !shuttingDown;
      sendJson(res, ready ? 200 : 503, {
        status: ready ? 'ready' : 'not ready',
        upstreams: report.upstreams,
        ...(redis && { redis: redis.up ? 'up' : 'down' }),
      });
    },
    '/metrics': async (_req, res) => {
      const text = await metrics.registry.metrics();
      res.writeHead(200, { 'content-type': metrics.registry.contentType, 'content-length': Buffer.byteLength(text) });
      res.end(text);
    },
  };

  const server = createServer<typeof IncomingMessage, typeof TradegraphResponse>(
    {
      ServerResponse: TradegraphResponse,
      keepAlive: true,
      // A client gets this long to send its headers, and its whole request, before it is cut off.
      headersTimeout: config.httpHeadersTimeoutMs,
      requestTimeout: config.httpRequestTimeoutMs,
      // How often those limits are checked (Node's default is every 30 s).
      connectionsCheckingInterval: Math.min(1000, config.httpHeadersTimeoutMs),
    },
    (req, res) => {
      requestsInFlight += 1;
      res.once('close', requestEnded);
      const path = pathOf(req.url);
      if (config.production && path === GRAPHQL_PATH && isBrowserVisit(req)) {
        // Production has no GraphiQL, and Yoga would answer a browser 406 with an empty body.
        sendHelp(res, 406, help);
        return;
      }
      const route = routes[path];
      if (route && req.method === 'GET') {
        void Promise.resolve(route(req, res)).catch((error: unknown) => {
          logger.error({ err: error }, 'route failed');
          if (!res.headersSent) sendJson(res, 500, { status: 'error' });
        });
        return;
      }
      // Shed, not queued: past the cap a request is answered at once, before its body is read.
      if (operationsInFlight >= config.maxOperationsInFlight) return refuseOverloaded(res, config.maxOperationsInFlight);
      operationsInFlight += 1;
      res.once('close', operationEnded);
      void acceptRequestBody(req, res, config.maxBodyBytes).then((accepted) => {
        if (accepted) void yoga.requestListener(req, res);
      });
    },
  );
  server.maxConnections = config.httpMaxConnections;

  return {
    server,
    yoga,
    partner,
    metrics,
    redis,
    async listen(port, host = '127.0.0.1') {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`;
    },
    close(graceMs = Number.POSITIVE_INFINITY) {
      // Once: a second call (the entry point's signal handler and a test's teardown) waits for the first.
      closing ??= (async () => {
        shuttingDown = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // A request that outlives the grace period must not keep the process from exiting: its
        // connection is cut, which also aborts the partner calls it started.
        const forced = Number.isFinite(graceMs)
          ? setTimeout(() => {
              logger.warn({ inFlight: requestsInFlight }, 'requests still in flight after the grace period: closing their connections');
              server.closeAllConnections();
            }, graceMs)
          : undefined;
        forced?.unref();
        await closed;
        clearTimeout(forced);
        await Promise.all([partner.close(), redis?.close()]);
      })();
      return closing;
    },
  };
}

/**
 * During shutdown, the connection of an answer that has just ended. A response whose head went out
 * before shutdown began (a streamed one) left its client free to reuse the connection, and Node
 * would keep it until the keep-alive timeout. Its own connection only, and gently: the answer's
 * last bytes are still sent (destroySoon), and a connection already carrying the client's next
 * request (Node hands it the next response before this) is left to that response.
 */
function closeOnceAnswered(socket: Socket): void {
  if (socket.destroyed || (socket as Socket & { _httpMessage?: unknown })._httpMessage) return;
  socket.destroySoon();
}

function pathOf(url: string | undefined): string {
  const query = url?.indexOf('?') ?? -1;
  return url === undefined ? '/' : query === -1 ? url : url.slice(0, query);
}

function refuseOverloaded(res: ServerResponse, cap: number): void {
  const message = `The service is working on ${cap} operations, the most it takes at once; retry in 1 s.`;
  sendJson(res, 503, { errors: [{ message, extensions: { code: ErrorCode.OVERLOADED, retryAfter: 1 } }] }, { 'retry-after': '1' });
}

/** Yoga's own log lines go to pino, so every line of the service is structured JSON. */
function yogaLogger(logger: Logger) {
  const forward =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      // Yoga logs a few debug lines per request: build none of them when the level is off.
      if (!logger.isLevelEnabled(level)) return;
      const [first, ...rest] = args;
      if (first instanceof Error) logger[level]({ err: first }, rest.map(String).join(' ') || first.message);
      else logger[level](args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
    };
  return { debug: forward('debug'), info: forward('info'), warn: forward('warn'), error: forward('error') };
}
