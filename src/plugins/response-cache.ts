// The response cache (Yoga's plugin over envelop's): a read's answer is reused for
// RESPONSE_CACHE_TTL_MS, only ever for the same credential, in-process or shared by every replica
// through Redis; cached GET reads carry an ETag and Cache-Control, and If-None-Match gets 304.
// While the partner cannot answer, a query's last good answer stands in for
// RESPONSE_CACHE_STALE_IF_ERROR_MS past its TTL, for the same credential, marked stale.
import { hash } from 'node:crypto';
import { useResponseCache } from '@graphql-yoga/plugin-response-cache';
import stableStringify from 'fast-json-stable-stringify';
import { getOperationAST, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { TradegraphContext } from '../context.js';
import { credentialKeyOf } from '../credentials.js';
import { ErrorCode } from '../errors.js';
import { isAsyncIterable } from '../observability/operation-results.js';
import type { SharedRedis } from '../redis.js';
import { REDIS_VALUE_TAG_BYTES } from '../redis-values.js';
import { createInProcessStore, type InProcessStore, type ResponseStore, type StaleAnswer } from './response-cache-store.js';

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
 * Whether an If-None-Match list names this ETag, compared weakly (RFC 9110 13.1.2); If-Modified-Since
 * is not consulted, as a request with If-None-Match must not (RFC 9110 13.1.3).
 */
function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * Every key this cache writes in Redis starts so; the rest is a SHA-256 hash. It names the
 * envelope's version, so that during a rolling deploy replicas of another version never read
 * these values, nor these replicas theirs.
 */
export const REDIS_KEY_PREFIX = 'tradegraph:response:v1:';

/** The mark of an answer served stale in place of an outage: it is never cached again as fresh. */
const SERVED_STALE = Symbol('servedStale');

/**
 * The codes of a partner that failed (RFC 5861's stale-if-error covers the origin's failures): an
 * error status, a connection refused or reset, no answer in time, or its circuit open, which is the
 * record of such failures. OVERLOADED is not one: it is this service refusing to ask (no connection
 * came free, the operation shed), and a stale answer then would stand in for an answer the partner
 * was never asked for, such as the 401 of a token revoked since it was cached.
 */
const OUTAGE_CODES: ReadonlySet<unknown> = new Set([ErrorCode.UPSTREAM_UNAVAILABLE, ErrorCode.UPSTREAM_TIMEOUT]);

/**
 * Listed after the plugins that settle the document (trusted documents) and after compiled
 * execution: the cache hands the execute function a rewritten document, which must be the one run.
 */
export function useTradegraphResponseCache(options: ResponseCacheOptions): Plugin<TradegraphContext>[] {
  const { ttlMs, redis, includeMetadata, maxBytes, maxEntryBytes, staleIfErrorMs, logger, onLookup } = options;
  let store: ResponseStore;
  if (redis) store = resilientStore(redis, { maxEntryBytes, staleIfErrorMs, logger });
  else {
    const inProcess = createInProcessStore({ maxBytes, maxEntryBytes, staleIfErrorMs });
    options.onInProcessStore?.(inProcess);
    store = inProcess;
  }
  // A request without a document text (an id not resolved to one) is never cached: the key would
  // not tell two such documents apart. Marked as its key is worked out, which the plugin does for
  // every request before it asks whether the request is cacheable.
  const withoutText = new WeakSet<Request>();
  const cacheable = (request: Request) => credentialKeyOf(request) !== null && !withoutText.has(request);
  // If-None-Match, taken off each request before the plugin sees it: the plugin answers 304 to any
  // request whose If-None-Match names an entry it holds, whoever sends it. Here a 304 is given only
  // when the answer this request gets, under its own credential, came from the cache with that ETag.
  const ifNoneMatch = new WeakMap<Request, string>();
  const servedFromCache = new WeakSet<Request>();
  // Each request's cache key, as the plugin worked it out, for the stale answer of an outage.
  const keyOf = new WeakMap<Request, string>();
  // The cacheable queries that ran: each is a lookup that found no fresh answer.
  const ranQueries = new WeakSet<Request>();
  return [
    {
      onRequest({ request }) {
        const given = request.headers.get('if-none-match');
        if (given === null) return;
        request.headers.delete('if-none-match');
        if (request.method === 'GET') ifNoneMatch.set(request, given);
      },
      // The last onExecutionResult hook (the plugins after this one have none, and the result
      // hooks before the answer is written change only answers with errors): the result seen here
      // is the answer the request gets. One hook rather than two: Yoga runs every hook of every
      // request through its promise helpers, a few objects each.
      onExecutionResult({ request, result }) {
        if (servedFromResponseCache(result)) {
          onLookup?.('hit');
          if (ifNoneMatch.has(request)) servedFromCache.add(request);
        } else if (ranQueries.has(request)) onLookup?.(servedStale(result) ? 'stale' : 'miss');
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
      buildResponseCacheKey: (params) => {
        if (!params.documentString) withoutText.add(params.request);
        const key = buildResponseCacheKey(params);
        keyOf.set(params.request, key);
        return key;
      },
      // Whole successes only (the plugin's default), and never a stale answer as a fresh one.
      shouldCacheResult: ({ result }) => !result.errors?.length && !servedStale(result),
      cache: store,
      includeExtensionMetadata: includeMetadata,
      // Mutations are never cached (the plugin's mutation path). Their "invalidation" is a no-op
      // below: the only mutation computes fees and changes nothing a cached read holds.
    }) as Plugin<TradegraphContext>,
    {
      // After the cache's own hooks, so that the answer it decides to cache is the one executed.
      onExecute({ args }) {
        const { request } = args.contextValue as unknown as { request: Request };
        if (!cacheable(request) || getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
        ranQueries.add(request);
        if (staleIfErrorMs === 0) return;
        return {
          onExecuteDone({ result, setResult }) {
            // A stream (@defer) has sent its first part before a later one can fail: it is not replaced.
            const key = keyOf.get(request);
            if (isAsyncIterable(result) || key === undefined || !onlyOutages(result as ExecutionResult)) return;
            return Promise.resolve(store.staleIfError(key)).then((stale) => {
              if (stale) setResult(staleAnswer(stale));
            });
          },
        };
      },
    },
  ];
}

/** Whether this answer is a stale one served in place of an outage. */
export function servedStale(result: unknown): boolean {
  return typeof result === 'object' && result !== null && SERVED_STALE in result;
}

/**
 * Whether every error of an answer says the partner failed: a stale answer may stand in for it,
 * partial or not. An answer with any other error keeps it: a token the partner refused or a bad
 * argument (the partner has answered, and its refusal is the answer), or this service's own
 * refusal (OVERLOADED: the partner was not asked, so nothing says it failed).
 */
function onlyOutages(result: ExecutionResult): boolean {
  const errors = result.errors ?? [];
  return errors.length > 0 && errors.every((error) => OUTAGE_CODES.has(error.extensions?.code));
}

/** The answer of an outage: the last good one, marked stale with its age (RFC 5861's stale-if-error, RFC 9111's Age). */
function staleAnswer({ data, ageMs }: StaleAnswer): ExecutionResult & { [SERVED_STALE]: true } {
  const ageSeconds = Math.max(0, Math.floor(ageMs / 1000));
  return { data, extensions: { stale: { ageSeconds }, http: { headers: { Age: String(ageSeconds) } } }, [SERVED_STALE]: true };
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

/** What this service writes in Redis for an answer: a versioned envelope of its data, when it was stored and its TTL. */
interface RedisEnvelope {
  v: 1;
  /** When it was stored, in ms since the epoch. */
  at: number;
  ttl: number;
  data: Record<string, unknown>;
}

/** A GETRANGE of a key that holds no string. */
const WRONG_TYPE = Symbol('wrongType');

interface RedisStoreOptions {
  maxEntryBytes: number;
  staleIfErrorMs: number;
  logger: Logger;
}

/**
 * The Redis store, bypassed while Redis is away: a failed read is a miss, a failed write is dropped.
 * Answers expire by their TTL (and the stale-if-error window) only, and nothing is invalidated (the
 * schema's one mutation changes no state): one key per answer, expiring with it, and no entity sets
 * that would grow without bound. Written with one SET of its own rather than through envelop's
 * Redis cache, whose write goes through a pipeline that resolves without an error past the command
 * deadline: a write to a hung Redis then never marked it down.
 *
 * What Redis holds is data, not trusted: a value is read only up to the entry cap and its tag
 * (GETRANGE), and one without this fleet's tag for its key (redis-values.ts), not an envelope this
 * store writes, or over the cap, is a miss, logged once and deleted. The ETag and Last-Modified of a
 * hit are made here, from the key and the envelope.
 */
function resilientStore(redis: SharedRedis, { maxEntryBytes, staleIfErrorMs, logger }: RedisStoreOptions): ResponseStore {
  const maxStoredBytes = maxEntryBytes + REDIS_VALUE_TAG_BYTES;
  const dropping = new Set<string>();
  const drop = (id: string, reason: string): undefined => {
    if (dropping.has(id)) return undefined;
    dropping.add(id);
    logger.warn({ key: REDIS_KEY_PREFIX + id, reason }, 'response cache: a Redis value that is not an answer of this service is dropped');
    void redis.attempt((client) => client.del(REDIS_KEY_PREFIX + id)).finally(() => dropping.delete(id));
    return undefined;
  };
  const read = async (id: string): Promise<RedisEnvelope | undefined> => {
    const value = await redis.attempt(async (client) => {
      try {
        // One byte past the cap (and the tag) tells a value over it, without reading all of it.
        return await client.getrangeBuffer(REDIS_KEY_PREFIX + id, 0, maxStoredBytes);
      } catch (error) {
        if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return WRONG_TYPE;
        throw error;
      }
    });
    if (value === undefined) return undefined;
    if (value === WRONG_TYPE) return drop(id, 'not a string');
    if (value.length === 0) return undefined;
    if (value.length > maxStoredBytes) return drop(id, 'over RESPONSE_CACHE_MAX_ENTRY_BYTES');
    const text = redis.values.open(REDIS_KEY_PREFIX + id, value.toString('utf8'), 'response_cache');
    if (text === undefined) return drop(id, 'no valid tag of this fleet for its key (REDIS_VALUE_KEY, else PARTNER_APP_KEY)');
    const envelope = envelopeOf(text);
    return typeof envelope === 'string' ? drop(id, envelope) : envelope;
  };
  return {
    get: async (id) => {
      const envelope = await read(id);
      if (envelope === undefined || Date.now() >= envelope.at + envelope.ttl) return undefined;
      return { data: envelope.data, extensions: { http: { headers: { ETag: id, 'Last-Modified': new Date(envelope.at).toUTCString() } } } };
    },
    set: async (id, result, _entities, ttl) => {
      if (!redis.up || !Number.isFinite(ttl) || ttl <= 0) return;
      const envelope: RedisEnvelope = { v: 1, at: Date.now(), ttl, data: result.data as Record<string, unknown> };
      const text = JSON.stringify(envelope);
      if (Buffer.byteLength(text) > maxEntryBytes) return;
      // Dropped when it fails: the next read of this answer goes upstream again.
      await redis.attempt((client) => client.set(REDIS_KEY_PREFIX + id, redis.values.seal(REDIS_KEY_PREFIX + id, text), 'PX', ttl + staleIfErrorMs));
    },
    invalidate: () => undefined,
    staleIfError: async (id) => {
      const envelope = await read(id);
      if (envelope === undefined) return undefined;
      // Another replica's clock may run ahead of this one's.
      const ageMs = Math.max(0, Date.now() - envelope.at);
      return ageMs <= envelope.ttl + staleIfErrorMs ? { data: envelope.data, ageMs } : undefined;
    },
  };
}

/** The envelope a Redis value holds, or why it is none: what a store of this service wrote, and nothing else. */
function envelopeOf(text: string): RedisEnvelope | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!isRecord(value)) return 'not a JSON object';
  const { v, at, ttl, data, ...rest } = value;
  const wellFormed =
    v === 1 &&
    typeof at === 'number' &&
    Number.isFinite(at) &&
    typeof ttl === 'number' &&
    Number.isFinite(ttl) &&
    ttl > 0 &&
    isRecord(data) &&
    Object.keys(data).length > 0 &&
    Object.keys(rest).length === 0;
  return wellFormed ? (value as unknown as RedisEnvelope) : 'not an answer envelope of this service (v 1, at, ttl, data)';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
