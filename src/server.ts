// The composition root: builds the partner clients, Redis, the plugin list (plugins/index.ts), Yoga
// and the node:http server (http/), and hands them back with listen and close.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import { ConfigError, type Config } from './config.js';
import { createContextFactory, type ContextDependencies, type TradegraphContext } from './context.js';
import { credentialKeyOfHeader } from './credentials.js';
import { graphiqlOptions, graphiqlPage } from './graphiql.js';
import { helpText } from './http/help.js';
import { createNodeServer, listen } from './http/node-server.js';
import { serviceRoutes } from './http/routes.js';
import { createLoadShedding } from './http/shedding.js';
import { createLiveInventories, type LiveInventories } from './live/inventories.js';
import { createRedisRelay, type LiveRelay } from './live/relay.js';
import { useLiveInventories } from './plugins/live-inventories.js';
import { serveGraphQLOverWebSocket, type GraphQLWebSocket } from './live/websocket.js';
import { createShutdown, type Shutdown } from './http/shutdown.js';
import { yogaLogging } from './logger.js';
import { createMetrics, type TradegraphMetrics } from './observability/metrics.js';
import { partnerCallLog } from './observability/partner-call-log.js';
import { partnerCallTracing } from './observability/partner-spans.js';
import { createReadinessCheck } from './observability/readiness.js';
import { createClientIdentities } from './observability/client-identity.js';
import { PartnerApi, type PartnerApiOptions } from './partner/index.js';
import { maskedErrorsOf } from './plugins/error-codes.js';
import { tradegraphPlugins } from './plugins/index.js';
import { createRateLimit, type RateLimit } from './plugins/rate-limit.js';
import { prepareTrustedDocuments, type TrustedDocuments } from './plugins/trusted-documents.js';
import { connectRedis, warnIfEvicting, type SharedRedis } from './redis.js';
import { redisValues, type RedisValues } from './redis-values.js';
import { buildSchema } from './schema.js';
import { READINESS_CACHE_MS, READINESS_TIMEOUT_MS } from './tunables.js';

type ServiceConfig = Config & { partnerApiUrl: string; partnerOpenApiUrl: string };

export interface TradegraphOptions {
  config: ServiceConfig;
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
  /** The response cache's own Redis connection; null without RESPONSE_CACHE_REDIS_URL. */
  cacheRedis: SharedRedis | null;
  /** Subscription.inventory's polls (docs/live-inventories.md). */
  live: LiveInventories;
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

export function createTradegraph({ config, logger, graphiqlHeaders = {}, schema = buildSchema() }: TradegraphOptions): Tradegraph {
  const metrics = createMetrics();
  const redisOptions = () => ({ commandTimeoutMs: config.redisCommandTimeoutMs, values: redisValuesOf(config, metrics), tlsCa: config.redisTlsCa });
  const redis = config.redisUrl === null ? null : connectRedis(config.redisUrl, logger, redisOptions());
  const partner = createPartnerApi(config, logger, metrics, redis);
  if (redis) metrics.watchRedis(() => redis.up);
  // The counts must outlive a full Redis: a policy that evicts them is said at once.
  if (redis && config.rateLimit) void warnIfEvicting(redis, logger);
  // The response cache's own Redis, apart from the rate-limit counts (docs/response-cache.md).
  const ownCacheRedis =
    config.responseCacheRedisUrl === null
      ? null
      : connectRedis(config.responseCacheRedisUrl, logger.child({ redis: 'RESPONSE_CACHE_REDIS_URL' }), redisOptions());
  if (ownCacheRedis) metrics.watchResponseCacheRedis(() => ownCacheRedis.up);
  // One rate limit for Yoga's answers (its plugin) and the node:http server's own refusals.
  const rateLimit = config.rateLimit
    ? createRateLimit({ ...config.rateLimit, accepted: partner.accepted, redis: redis ?? undefined, onRefusal: (budget) => metrics.countRateLimitRefusal(budget) })
    : null;
  const dependencies: ContextDependencies = {
    partner,
    listingFeeBatchMax: config.listingFeeBatchMax,
    operationTimeoutMs: config.operationTimeoutMs,
    pageMaxPartnerCalls: config.pageMaxPartnerCalls,
    feeBudget: rateLimit?.feeBudget,
  };
  const live = liveInventoriesOf(config, dependencies, rateLimit, metrics, redis && createRedisRelay(redis, logger));
  // Filled from the manifest once Yoga's pipeline exists (createServiceYoga).
  const trustedDocuments: TrustedDocuments = new Map();
  const parts: ServiceParts = { config, logger, metrics, partner, redis, ownCacheRedis, rateLimit, dependencies, live, trustedDocuments };
  const yoga = createServiceYoga(parts, schema, graphiqlHeaders);
  const { server, shutdown, websocket } = createServiceServer(parts, yoga);
  return {
    server,
    yoga,
    partner,
    metrics,
    redis,
    cacheRedis: ownCacheRedis,
    live,
    listen: (port, host = '127.0.0.1') => listen(server, port, host),
    close: (graceMs = Number.POSITIVE_INFINITY) => closeService(parts, server, shutdown, websocket, graceMs),
  };
}

/** Live streams first, so that their connections close within the drain; then the server's drain, then the upstreams. */
async function closeService(parts: ServiceParts, server: Server, shutdown: Shutdown, websocket: GraphQLWebSocket, graceMs: number): Promise<void> {
  const { partner, redis, ownCacheRedis, live } = parts;
  live.close();
  // A turn for graphql-ws to send each ended subscription its `complete` before the close frame;
  // the sockets, which node:http no longer counts as its requests, are closed (1001) after them.
  await new Promise((resolve) => setImmediate(resolve));
  await websocket.close();
  return shutdown.close(server, graceMs, () => Promise.all([partner.close(), redis?.close(), ownCacheRedis?.close()]));
}

/** What the service's Yoga and node:http server are built from. */
interface ServiceParts {
  config: ServiceConfig;
  logger: Logger;
  metrics: TradegraphMetrics;
  partner: PartnerApi;
  redis: SharedRedis | null;
  /** The response cache's own Redis (RESPONSE_CACHE_REDIS_URL); the cache uses `redis` without it. */
  ownCacheRedis: SharedRedis | null;
  rateLimit: RateLimit | null;
  /** What the context factory and the live polls build loaders from. */
  dependencies: ContextDependencies;
  live: LiveInventories;
  /** The trusted documents, read by Yoga's pipeline and the WebSocket transport alike. */
  trustedDocuments: TrustedDocuments;
}

/** Yoga with the service's plugins (plugins/index.ts) and the trusted documents, if any. */
function createServiceYoga(parts: ServiceParts, schema: GraphQLSchema, graphiqlHeaders: Record<string, string>): Tradegraph['yoga'] {
  const { config, logger, metrics, redis, ownCacheRedis, rateLimit } = parts;
  // The app-key too: a client header that carried it would put it in every log line and series.
  const clients = createClientIdentities({ maxNames: config.clientNamesMax, secrets: config.partnerAppKey ? [config.partnerAppKey] : [] });
  const { dependencies, live, trustedDocuments } = parts;
  const cacheRedis = ownCacheRedis ?? redis;
  const graphiql = config.production ? null : { page: graphiqlPage(graphiqlOptions(graphiqlHeaders)), graphqlPath: GRAPHQL_PATH };
  const yoga = createYoga<NodeServerContext, TradegraphContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    context: createContextFactory(dependencies),
    plugins: [
      ...tradegraphPlugins({ config, logger, metrics, clients, redis, cacheRedis, rateLimit, trustedDocuments, graphiql }),
      useLiveInventories<TradegraphContext>(live),
    ],
    graphiql: config.production ? false : graphiqlOptions(graphiqlHeaders),
    // The page of the options above, rendered once (src/graphiql.ts), whose digest is its ETag.
    renderGraphiQL: () => graphiql!.page.html(),
    landingPage: false,
    // Bodies are already capped at MAX_BODY_BYTES by receiveRequestBody (http/request-body.ts); Yoga's
    // own limit would pipe each body through a web TransformStream, on every request, for a check
    // already made.
    maxRequestBodySize: false,
    // Array batching stays off: one HTTP request, one operation, one cost check.
    batching: false,
    // Any origin may call (front ends on their own hosts), with the bearer token in a header. Never
    // with the browser's cookies, which nothing here reads: Yoga's default would allow credentials for
    // whatever origin asks, which a cookie-based proxy put in front would turn into a hole.
    // The budget fields are exposed so that a front end on another origin can read them (CORS hides
    // every response field but a few safelisted ones).
    cors: { credentials: false, exposedHeaders: ['RateLimit', 'RateLimit-Policy', 'Retry-After'] },
    // Production never shows an unexpected error's message or stack, whatever NODE_ENV Yoga sees.
    maskedErrors: maskedErrorsOf(config.production),
    logging: yogaLogging(logger),
  });
  // Throws a ConfigError naming TRUSTED_DOCUMENTS for a document no request could run.
  if (config.trustedDocuments) prepareTrustedDocuments(yoga as never, config.trustedDocuments, trustedDocuments);
  return yoga;
}

/** The node:http server in front of Yoga: its own routes, load shedding, write timeout and graceful shutdown. */
function createServiceServer(parts: ServiceParts, yoga: Tradegraph['yoga']): { server: Server; shutdown: Shutdown; websocket: GraphQLWebSocket } {
  const { config, logger, metrics, partner, redis, ownCacheRedis, rateLimit } = parts;
  const readiness = createReadinessCheck({
    probe: (timeoutMs) => partner.probeUpstreams(timeoutMs),
    timeoutMs: Math.min(READINESS_TIMEOUT_MS, config.upstreamTimeoutMs),
    cacheMs: READINESS_CACHE_MS,
  });
  const shutdown = createShutdown(logger);
  const help = helpText({ production: config.production, graphqlPath: GRAPHQL_PATH });
  const shedding = createLoadShedding(config.maxOperationsInFlight, config.maxOperationsInFlight * config.maxBodyBytes, () => metrics.countShed());
  metrics.watchOperationsInFlight(() => shedding.inFlight);
  const server = createNodeServer({
    config,
    logger,
    graphqlPath: GRAPHQL_PATH,
    help,
    routes: serviceRoutes({ help, readiness, metrics, redis, cacheRedis: ownCacheRedis, shutdown }),
    shedding,
    shutdown,
    onAnswerCut: (pendingBytes) => {
      metrics.countAnswerCut();
      logger.warn({ pendingBytes, writeTimeoutMs: config.httpWriteTimeoutMs }, 'answer cut: its client stopped reading it (HTTP_WRITE_TIMEOUT_MS)');
    },
    yoga: (req, res) => yoga.requestListener(req, res),
    budgetFieldsOf: rateLimit ? (req) => rateLimit.fieldsOf(credentialKeyOfHeader(req.headers.authorization)) : async () => ({}),
    bodyStream: yoga.fetchAPI.ReadableStream,
  });

  // graphql-ws over WebSocket at the same path: an upgrade request never reaches the handler above.
  const websocket = serveGraphQLOverWebSocket({
    server,
    path: GRAPHQL_PATH,
    yoga,
    trustedDocuments: parts.trustedDocuments,
    trustedDocumentsOnly: config.trustedDocumentsOnly,
    maxPayloadBytes: config.maxBodyBytes,
  });
  return { server, shutdown, websocket };
}

/** Subscription.inventory's polls, priced by the rate limit when there is one, and counted. */
function liveInventoriesOf(
  config: Config,
  dependencies: ContextDependencies,
  rateLimit: RateLimit | null,
  metrics: TradegraphMetrics,
  relay: LiveRelay | null,
): LiveInventories {
  const live = createLiveInventories({
    dependencies,
    intervalMs: config.livePollIntervalMs,
    maxSubscriptions: config.liveSubscriptionsMax,
    maxPerCredential: config.liveSubscriptionsPerCredential,
    spend: rateLimit ? (request, points) => rateLimit.spend(request, points) : undefined,
    onPoll: (subscribers, heard) => metrics.countLivePoll(subscribers, heard),
    relay: relay ?? undefined,
  });
  metrics.watchLiveSubscriptions(() => live.hub.subscribers);
  return live;
}

/** The partner clients' settings, every one from the configuration (config.ts holds the defaults). */
export function partnerClientOptions(config: Config): Omit<PartnerApiOptions, 'baseUrl' | 'openApiUrl' | 'appKey' | 'observers'> {
  return {
    timeoutMs: config.upstreamTimeoutMs,
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
    connectionsPerDomain: config.upstreamConnectionsPerDomain,
  };
}

/**
 * The tags of what the service writes in Redis, from the secret every replica shares:
 * REDIS_VALUE_KEY, else the partner app-key (config.ts refuses Redis with neither).
 */
function redisValuesOf(config: ServiceConfig, metrics: TradegraphMetrics): RedisValues {
  const secret = config.redisValueKey ?? config.partnerAppKey;
  if (secret === null) throw ConfigError.of('REDIS_VALUE_KEY', 'is required with Redis when PARTNER_APP_KEY is unset');
  return redisValues(secret, (store) => metrics.countRedisValueRejected(store));
}

/** The partner clients; metrics, logs and tracing listen to the calls they make. */
function createPartnerApi(config: ServiceConfig, logger: Logger, metrics: TradegraphMetrics, redis: SharedRedis | null): PartnerApi {
  const partner = new PartnerApi({
    ...partnerClientOptions(config),
    // The record of accepted credentials is the fleet's when there is one.
    redis,
    baseUrl: config.partnerApiUrl,
    openApiUrl: config.partnerOpenApiUrl,
    appKey: config.partnerAppKey,
    // The client emits; metrics, logs and tracing listen (tracing adds traceparent as a call starts;
    // without TRACING it is not listening at all, rather than starting spans of a no-op tracer).
    observers: [metrics.partnerCalls, partnerCallLog(logger), ...(config.tracing ? [partnerCallTracing] : [])],
  });
  metrics.watchCircuits(() =>
    partner.circuitStates().map(({ upstream, state }) => ({ upstream, open: state === 'open' || state === 'isolated' })),
  );
  return partner;
}
