// The response cache (Yoga's plugin over envelop's): a read's answer is reused for
// RESPONSE_CACHE_TTL_MS, only ever for the same credential, in-process or shared by every replica
// through Redis; cached GET reads carry an ETag and Cache-Control, and If-None-Match gets 304.
import { hash } from 'node:crypto';
import { useResponseCache, type Cache } from '@graphql-yoga/plugin-response-cache';
import stableStringify from 'fast-json-stable-stringify';
import type { Plugin } from 'graphql-yoga';
import type { TradegraphContext } from '../context.js';
import { credentialKeyOf } from '../credentials.js';
import type { SharedRedis } from '../redis.js';
import { createInProcessStore, type CachedResult, type InProcessStore } from './response-cache-store.js';

export interface ResponseCacheOptions {
  ttlMs: number;
  /** Shares the cache between replicas; the in-process store when omitted. */
  redis?: SharedRedis;
  /** Adds `extensions.responseCache` (hit, didCache, ttl) to answers; for development. */
  includeMetadata: boolean;
  /** The in-process store's budget, in bytes of its answers' JSON (RESPONSE_CACHE_MAX_BYTES). */
  maxBytes: number;
  /** An answer larger than this is not cached, in-process or in Redis (RESPONSE_CACHE_MAX_ENTRY_BYTES). */
  maxEntryBytes: number;
  /** Told the in-process store once it exists, so that metrics can read its size. */
  onInProcessStore?: (store: InProcessStore) => void;
}

/** The mark Yoga's response-cache plugin puts on an answer it served from the cache. */
const SERVED_FROM_CACHE = Symbol.for('servedFromResponseCache');

/** Whether Yoga's response-cache plugin served this execution result from the cache. */
export function servedFromResponseCache(result: unknown): boolean {
  return typeof result === 'object' && result !== null && SERVED_FROM_CACHE in result;
}

/**
 * Whether an If-None-Match list names this ETag, compared weakly (RFC 9110 13.1.2); If-Modified-Since
 * is not consulted, as a request with If-None-Match must not (RFC 9110 13.1.3).
 */
function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/** Every key this cache writes in Redis starts so; the rest is a SHA-256 hash. */
export const REDIS_KEY_PREFIX = 'tradegraph:response:';

/**
 * Listed after the plugins that settle the document (trusted documents) and after compiled
 * execution: the cache hands the execute function a rewritten document, which must be the one run.
 */
export function useTradegraphResponseCache(options: ResponseCacheOptions): Plugin<TradegraphContext>[] {
  const { ttlMs, redis, includeMetadata, maxBytes, maxEntryBytes } = options;
  let store: Cache;
  if (redis) store = resilientStore(redis, maxEntryBytes);
  else {
    const inProcess = createInProcessStore({ maxBytes, maxEntryBytes });
    options.onInProcessStore?.(inProcess);
    store = inProcess;
  }
  // A request without a document text (an id not resolved to one) is never cached: the key would
  // not tell two such documents apart.
  const withoutText = new WeakSet<Request>();
  const cacheable = (request: Request) => credentialKeyOf(request) !== null && !withoutText.has(request);
  // If-None-Match, taken off each request before the plugin sees it: the plugin answers 304 to any
  // request whose If-None-Match names an entry it holds, whoever sends it. Here a 304 is given only
  // when the answer this request gets, under its own credential, came from the cache with that ETag.
  const ifNoneMatch = new WeakMap<Request, string>();
  const servedFromCache = new WeakSet<Request>();
  return [
    {
      onRequest({ request }) {
        const given = request.headers.get('if-none-match');
        if (given === null) return;
        request.headers.delete('if-none-match');
        if (request.method === 'GET') ifNoneMatch.set(request, given);
      },
      onParams({ request, params }) {
        if (!params.query) withoutText.add(request);
      },
      onResultProcess({ request, result }) {
        if (ifNoneMatch.has(request) && servedFromResponseCache(result)) {
          servedFromCache.add(request);
        }
      },
      onResponse({ request, response, setResponse, fetchAPI }) {
        // The ETag is set on answers that were cached or came from the cache (and on 304s).
        if (request.method !== 'GET' || !response.headers.has('etag')) return;
        if (servedFromCache.has(request) && response.status === 200 && etagMatches(ifNoneMatch.get(request)!, response.headers.get('etag')!)) {
          const headers = new fetchAPI.Headers(response.headers);
          headers.delete('content-type');
          headers.delete('content-length');
          response = new fetchAPI.Response(null, { status: 304, headers });
          setResponse(response);
        }
        const cachedAt = Date.parse(response.headers.get('last-modified') ?? '');
        const ageSeconds = Number.isNaN(cachedAt) ? 0 : Math.max(0, (Date.now() - cachedAt) / 1000);
        const maxAge = Math.max(0, Math.floor(ttlMs / 1000 - ageSeconds));
        response.headers.set('cache-control', `private, max-age=${maxAge}`);
        // The answer belongs to the credential: a browser must not reuse it for another one.
        response.headers.append('vary', 'Authorization');
      },
    },
    useResponseCache({
      // The key holds this hash of the bearer token, never the token; anonymous and malformed
      // credentials are not cached at all.
      session: (request) => credentialKeyOf(request),
      enabled: cacheable,
      ttl: ttlMs,
      buildResponseCacheKey,
      cache: store,
      includeExtensionMetadata: includeMetadata,
      // Mutations are never cached (the plugin's mutation path). Their "invalidation" is a no-op
      // below: the only mutation computes fees and changes nothing a cached read holds.
    }) as Plugin<TradegraphContext>,
  ];
}

/**
 * The plugin's own key (SHA-256 hex of the document, operation name, variables and session), so
 * the same answer has the same key as before in a shared Redis, but hashed synchronously by
 * node:crypto: the default goes through WebCrypto's asynchronous digest, the largest single cost
 * of a cache hit.
 */
function buildResponseCacheKey(params: {
  documentString: string;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
  sessionId?: string | null;
}): string {
  const text = [params.documentString, params.operationName ?? '', stableStringify(params.variableValues ?? {}), params.sessionId ?? ''];
  return hash('sha256', text.join('|'), 'hex');
}

/**
 * The Redis store, bypassed while Redis is away: a failed read is a miss, a failed write is dropped.
 * Answers expire by their TTL only, and nothing is invalidated (the schema's one mutation changes
 * no state): one key per answer, expiring with it, and no entity sets that would grow without
 * bound. Written with one SET of its own rather than through envelop's Redis cache, whose write
 * goes through a pipeline that resolves without an error past the command deadline: a write to a
 * hung Redis then never marked it down. The answer is serialised once, for the cap and the write.
 */
function resilientStore(redis: SharedRedis, maxEntryBytes: number): Cache {
  return {
    get: async (id) => {
      const text = await redis.attempt((client) => client.get(REDIS_KEY_PREFIX + id));
      return typeof text === 'string' ? (JSON.parse(text) as CachedResult) : undefined;
    },
    set: async (id, result, _entities, ttl) => {
      if (!redis.up) return;
      const text = JSON.stringify(result);
      if (Buffer.byteLength(text) > maxEntryBytes) return;
      // Dropped when it fails: the next read of this answer goes upstream again.
      await redis.attempt((client) =>
        Number.isFinite(ttl) ? client.set(REDIS_KEY_PREFIX + id, text, 'PX', ttl) : client.set(REDIS_KEY_PREFIX + id, text),
      );
    },
    invalidate: () => undefined,
  };
}
