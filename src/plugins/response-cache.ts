// The response cache (Yoga's plugin over envelop's): a read's answer is reused for
// RESPONSE_CACHE_TTL_MS, only ever for the same credential, in the store chosen by
// response-cache/store.ts; its parts are conditional GET (response-cache/conditional-get.ts) and
// stale-if-error (response-cache/stale-if-error.ts), over one key (response-cache/key.ts).
import { useResponseCache } from '@graphql-yoga/plugin-response-cache';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { TradegraphContext } from '../context.js';
import { credentialKeyOf } from '../credentials.js';
import type { SharedRedis } from '../redis.js';
import { useConditionalGet } from './response-cache/conditional-get.js';
import type { InProcessStore } from './response-cache/in-process-store.js';
import { responseCacheKey } from './response-cache/key.js';
import { cacheStateOf } from '../request-scope.js';
import { servedStale, staleInPlaceOf } from './response-cache/stale-if-error.js';
import { chooseResponseStore } from './response-cache/store.js';
import type { ResponseStore } from './response-cache/store-contract.js';

export interface ResponseCacheOptions {
  ttlMs: number;
  /** Shares the cache between replicas; the in-process store when omitted. */
  redis?: SharedRedis;
  /** Adds `extensions.responseCache` (hit, didCache, ttl) to answers; for development. */
  includeMetadata: boolean;
  /** The in-process store's budget, in bytes of the heap its entries are weighed at (RESPONSE_CACHE_MAX_BYTES). */
  maxBytes: number;
  /** An answer larger than this is not cached, in-process or in Redis (RESPONSE_CACHE_MAX_ENTRY_BYTES). */
  maxEntryBytes: number;
  /** How long past its TTL an answer may stand in for one the partner cannot give (RESPONSE_CACHE_STALE_IF_ERROR_MS); 0: never. */
  staleIfErrorMs: number;
  /** Where a Redis value that is not an answer of this service is reported. */
  logger: Logger;
  /** Told the in-process store once it exists, so that metrics can read its size. */
  onInProcessStore?: (store: InProcessStore) => void;
  /** Told how each lookup of a cacheable query ended. */
  onLookup?: (result: CacheLookupResult) => void;
}

/** How a cacheable query's lookup ended: a fresh answer, none (the query ran), or a stale answer in place of an outage. */
export type CacheLookupResult = 'hit' | 'miss' | 'stale';

/** The mark Yoga's response-cache plugin puts on an answer it served from the cache. */
const SERVED_FROM_CACHE = Symbol.for('servedFromResponseCache');

/** Whether Yoga's response-cache plugin served this execution result from the cache. */
export function servedFromResponseCache(result: unknown): boolean {
  return typeof result === 'object' && result !== null && SERVED_FROM_CACHE in result;
}

/**
 * A request without a document text (an id not resolved to one) is never cached: the key would not
 * tell two such documents apart. Marked as its key is worked out, which the plugin does for every
 * request before it asks whether the request is cacheable.
 */
const cacheable = (request: Request) => credentialKeyOf(request) !== null && !cacheStateOf(request).withoutText;

/**
 * Listed after the plugins that settle the document (trusted documents) and after compiled
 * execution: the cache hands the execute function a rewritten document, which must be the one run.
 */
export function useTradegraphResponseCache(options: ResponseCacheOptions): Plugin<TradegraphContext>[] {
  const store = chooseResponseStore(options);
  return [
    useConditionalGet<TradegraphContext>(options.ttlMs),
    useLookupReport(options.onLookup),
    yogaResponseCache(store, options),
    useStaleIfError(store, options.staleIfErrorMs),
  ];
}

/**
 * The last onExecutionResult hook (the plugins after this one have none, and the result hooks
 * before the answer is written change only answers with errors): the result seen here is the
 * answer the request gets. One hook rather than two: Yoga runs every hook of every request through
 * its promise helpers, a few objects each.
 */
function useLookupReport(onLookup: ResponseCacheOptions['onLookup']): Plugin<TradegraphContext> {
  return {
    onExecutionResult({ request, result }) {
      const state = cacheStateOf(request);
      if (servedFromResponseCache(result)) {
        onLookup?.('hit');
        if (state.ifNoneMatch !== undefined) state.servedFromCache = true;
      } else if (state.ranQuery) onLookup?.(servedStale(result) ? 'stale' : 'miss');
    },
  };
}

function yogaResponseCache(store: ResponseStore, { ttlMs, includeMetadata }: ResponseCacheOptions): Plugin<TradegraphContext> {
  return useResponseCache({
    // The key holds this hash of the bearer token, never the token; anonymous and malformed
    // credentials are not cached at all.
    session: (request) => credentialKeyOf(request),
    enabled: cacheable,
    ttl: ttlMs,
    buildResponseCacheKey: (params) => {
      const state = cacheStateOf(params.request);
      if (!params.documentString) state.withoutText = true;
      state.key = responseCacheKey(params);
      return state.key;
    },
    // Whole successes only (the plugin's default), and never a stale answer as a fresh one.
    shouldCacheResult: ({ result }) => !result.errors?.length && !servedStale(result),
    cache: store,
    includeExtensionMetadata: includeMetadata,
    // Mutations are never cached (the plugin's mutation path). Their "invalidation" is a no-op
    // in the stores: the only mutation computes fees and changes nothing a cached read holds.
  }) as Plugin<TradegraphContext>;
}

/** After the cache's own hooks, so that the answer it decides to cache is the one executed. */
function useStaleIfError(store: ResponseStore, staleIfErrorMs: number): Plugin<TradegraphContext> {
  return {
    onExecute({ args }) {
      const { request } = args.contextValue as unknown as { request: Request };
      if (!cacheable(request) || getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      const state = cacheStateOf(request);
      state.ranQuery = true;
      if (staleIfErrorMs === 0) return;
      return {
        onExecuteDone({ result, setResult }) {
          return staleInPlaceOf(store, state.key, result)?.then((stale) => {
            if (stale) setResult(stale);
          });
        },
      };
    },
  };
}
