// The envelop plugins of the service, in the one order they run. Yoga calls a hook of every plugin
// in list order, so the order is a contract: each entry says why it stands where it does, and
// test/unit/plugin-order.test.ts pins the names in order. The headings name the phase each group
// acts in (docs/lifecycle.md); only plugins that hook the same phase depend on each other's place.
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { TradegraphContext } from '../context.js';
import type { ClientIdentities } from '../observability/client-identity.js';
import type { TradegraphMetrics } from '../observability/metrics.js';
import type { SharedRedis } from '../redis.js';
import { createAnswerBudget, useAnswerBudget } from './answer-budget.js';
import { useAcceptNegotiation } from './accept-negotiation.js';
import { useCompiledExecution } from './compiled-execution.js';
import { useAnswerCompression } from './compression.js';
import { useCostExtension } from './cost-extension.js';
import { useCsrfPrevention } from './csrf-prevention.js';
import { useDeprecatedUsage } from './deprecated-usage.js';
import { useIncrementalDelivery } from './defer-stream.js';
import { useFederationIntrospection } from './federation-introspection.js';
import { useGraphiQLCaching } from './graphiql-caching.js';
import type { GraphiQLPage } from '../graphiql.js';
import { ANSWER_BYTES_IN_FLIGHT, COMPRESSION_MIN_BYTES, KEPT_ENCODINGS_SHARE } from '../tunables.js';
import { maskedErrorsOf, useErrorCodes } from './error-codes.js';
import { operationLimitPlugins } from './operation-limits.js';
import { useOperationObservability } from './operation-observability.js';
import { useOperationSpans } from './operation-spans.js';
import { productionPlugins } from './production.js';
import { useQuerySizeLimit } from './query-size-limit.js';
import { useRefusalBodies } from './refusal-bodies.js';
import type { RateLimit } from './rate-limit.js';
import { useTradegraphResponseCache } from './response-cache.js';
import { useTrustedDocuments, type TrustedDocuments } from './trusted-documents.js';
import { useVariablesDepthLimit } from './variables-depth-limit.js';

/** What the plugins are built from: the configuration and the service's shared parts. */
export interface PluginParts {
  config: Config;
  logger: Logger;
  metrics: TradegraphMetrics;
  /** The client of each request (graphql-client-name and -version headers), bounded. */
  clients: ClientIdentities;
  redis: SharedRedis | null;
  /** The response cache's own Redis (RESPONSE_CACHE_REDIS_URL); `redis` when omitted. */
  cacheRedis?: SharedRedis | null;
  /** The rate limit (RATE_LIMIT_MAX), made once for its plugin and the node:http server's refusals; null when off. */
  rateLimit: RateLimit | null;
  /** Filled from the manifest once Yoga's pipeline exists; empty, it still refuses unknown ids. */
  trustedDocuments: TrustedDocuments;
  /** GraphiQL's page and the endpoint it is served at; none in production, which serves no GraphiQL. */
  graphiql?: { page: GraphiQLPage; graphqlPath: string } | null;
}

interface PluginEntry {
  name: string;
  /** The entry's plugins; none when its feature is switched off. */
  build(parts: PluginParts): Plugin<TradegraphContext>[];
}

export const PLUGIN_ORDER: readonly PluginEntry[] = [
  // ── Observers: every phase, from onRequestParse to onResponse ──
  // First, so that every operation, refused ones included, is logged and counted.
  { name: 'observability', build: ({ logger, metrics, clients }) => [useOperationObservability({ logger, metrics, clients })] },
  // With TRACING only; beside the other observer, ahead of every plugin that may refuse the operation.
  { name: 'tracing', build: ({ config, clients }) => (config.tracing ? [useOperationSpans(clients)] : []) },
  // Counts on execution only, so its place among the observers is free; beside them, it reads the same client.
  { name: 'deprecated-usage', build: ({ metrics, clients }) => [useDeprecatedUsage({ metrics, clients })] },
  // ── onRequest and onRequestParse: the request's headers ──
  // Before anything reads Accept (GraphiQL, the result processors, the @defer check): the header
  // they read is the client's, weighed, and a request that accepts nothing the service answers is refused here.
  { name: 'accept-negotiation', build: () => [useAcceptNegotiation<TradegraphContext>()] },
  // Before anything reads the body: a request a browser could forge across sites is refused on its headers.
  { name: 'csrf-prevention', build: () => [useCsrfPrevention()] },
  // ── onParams: refusals and substitutions before parsing ──
  // Before parsing, and before trusted documents: it measures the text the client sent, not a manifest's.
  { name: 'query-size-limit', build: ({ config }) => [useQuerySizeLimit(config.maxQueryBytes)] },
  // Before anything walks the variables (the response cache's key serialises them all, recursively).
  { name: 'variables-depth-limit', build: () => [useVariablesDepthLimit()] },
  // Before parsing: a documentId becomes its document, and an unknown one is refused.
  {
    name: 'trusted-documents',
    build: ({ config, trustedDocuments }) => [useTrustedDocuments({ documents: trustedDocuments, only: config.trustedDocumentsOnly })],
  },
  // ── parse, validate, and the checks as execution starts: what an operation may ask ──
  // Before the limits and execution: a client that cannot take several payloads is refused first.
  { name: 'incremental-delivery', build: () => useIncrementalDelivery<TradegraphContext & YogaInitialContext>() },
  // The token count runs in the parser, depth, aliases and directives in validation, and the cost
  // before execution; after observability, so that refused operations are seen (and counted) too.
  { name: 'operation-limits', build: () => operationLimitPlugins() },
  // Production only: hides the schema from validation's answers, and parser internals from the results.
  { name: 'production', build: ({ config }) => (config.production ? productionPlugins() : []) },
  // ── onExecuteDone, onResultProcess, onResponse: the answer's codes and bodies ──
  // Gives code-less graphql-js errors a code as execution ends; no other plugin depends on its place.
  { name: 'error-codes', build: ({ config, logger }) => [useErrorCodes({ ...maskedErrorsOf(config.production), logger })] },
  // Gives Yoga's bodiless refusals (406, 415) a JSON body with a code as the response leaves, and
  // keeps an unreadable body at 400; it touches no other answer, so its place does not matter.
  { name: 'refusal-bodies', build: () => [useRefusalBodies<TradegraphContext>()] },
  // ── onExecute: spending the budget, then running the operation (compiled, or from the cache) ──
  // After the cost limit: an operation over it is refused without spending the budget. A hit, which
  // Yoga's cache answers in onParams before any of this runs, is charged in onExecutionResult.
  { name: 'rate-limit', build: ({ rateLimit }) => (rateLimit ? [rateLimit.plugin] : []) },
  // After the rate limit, whose budget (and charge for a cache hit) it reports; its onExecutionResult
  // runs after the response cache has stored the result, so that no stored answer holds a budget.
  { name: 'cost-extension', build: () => [useCostExtension()] },
  // Development only (production refuses introspection): answers an introspection-only operation
  // from the schema without federation internals and stops execution, before compiled execution,
  // whose compiled code is kept per document whatever the schema.
  { name: 'federation-introspection', build: ({ config }) => (config.production ? [] : [useFederationIntrospection<TradegraphContext>()]) },
  // Replaces the execute function; the response cache below wraps whichever execute it finds.
  {
    name: 'compiled-execution',
    build: ({ logger }) => [
      useCompiledExecution<TradegraphContext>({
        onCompileFailure: (operationName, errors) =>
          logger.warn({ operationName, errors: errors.map(String) }, 'operation runs uncompiled: graphql-jit cannot compile it'),
      }),
    ],
  },
  // Development only: before compression, so that a 304 leaves no page to compress, and the 200's
  // ETag is there for compression to make weak.
  { name: 'graphiql-caching', build: ({ graphiql }) => (graphiql ? [useGraphiQLCaching<TradegraphContext>(graphiql)] : []) },
  // Yoga runs onResponse in list order: after every other plugin's but the response cache's, so it
  // compresses the body they have finished (refusal bodies included), with their headers
  // (x-request-id); before the response cache's, which makes a 304 from the answer as it goes out,
  // compressed, with the ETag and Vary of its 200 (RFC 9110 15.4.5). It has no other hook.
  {
    name: 'compression',
    build: ({ config, metrics }) => [
      useAnswerCompression<TradegraphContext>({
        minBytes: COMPRESSION_MIN_BYTES,
        keptBytes: config.responseCacheTtlMs > 0 ? Math.floor(config.responseCacheMaxBytes * KEPT_ENCODINGS_SHARE) : 0,
        keptMs: config.responseCacheTtlMs,
        onCompression: (encoding) => metrics.countCompression(encoding),
      }),
    ],
  },
  // After compiled execution: the cache runs the execute function with its own rewritten document.
  {
    name: 'response-cache',
    build: ({ config, redis, cacheRedis = redis, metrics, logger }) =>
      config.responseCacheTtlMs > 0
        ? useTradegraphResponseCache({
            ttlMs: config.responseCacheTtlMs,
            redis: cacheRedis ?? undefined,
            includeMetadata: !config.production,
            maxBytes: config.responseCacheMaxBytes,
            maxEntryBytes: config.responseCacheMaxEntryBytes,
            staleIfErrorMs: config.responseCacheStaleIfErrorMs,
            logger,
            onInProcessStore: (store) => metrics.watchResponseCache(() => store),
            onLookup: (result) => metrics.countResponseCacheLookup(result),
          })
        : [],
  },
  // Last: counts the body that goes out, compressed or not, and drops it for a 503 when the budget
  // of answers in flight has no room: no plugin after it makes the answer larger again.
  {
    name: 'answer-budget',
    build: ({ metrics }) => [useAnswerBudget<TradegraphContext>(createAnswerBudget(ANSWER_BYTES_IN_FLIGHT), () => metrics.countAnswerRefused())],
  },
];

/** The plugins for Yoga, in PLUGIN_ORDER. */
export function tradegraphPlugins(parts: PluginParts): Plugin<TradegraphContext>[] {
  return PLUGIN_ORDER.flatMap((entry) => entry.build(parts));
}
