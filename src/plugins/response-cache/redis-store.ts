// The response cache's Redis store, shared by every replica: one versioned, tagged value per answer
// under REDIS_KEY_PREFIXES.responseCache, expiring with the answer's TTL and stale-if-error window.
import type { Logger } from 'pino';
import { isRecord } from '../../partner/error-from-response.js';
import type { SharedRedis } from '../../redis.js';
import { REDIS_KEY_PREFIXES } from '../../redis-keys.js';
import { REDIS_VALUE_TAG_BYTES } from '../../redis-values.js';
import type { ResponseStore } from './store-contract.js';

/** The Redis key of an answer whose cache key (key.ts) is `id`. */
export const redisKeyOf = (id: string): string => REDIS_KEY_PREFIXES.responseCache + id;

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
export function createRedisStore(redis: SharedRedis, { maxEntryBytes, staleIfErrorMs, logger }: RedisStoreOptions): ResponseStore {
  const maxStoredBytes = maxEntryBytes + REDIS_VALUE_TAG_BYTES;
  const dropping = new Set<string>();
  const drop = (id: string, reason: string): undefined => {
    if (dropping.has(id)) return undefined;
    dropping.add(id);
    logger.warn({ key: redisKeyOf(id), reason }, 'response cache: a Redis value that is not an answer of this service is dropped');
    void redis.attempt((client) => client.del(redisKeyOf(id))).finally(() => dropping.delete(id));
    return undefined;
  };
  const read = async (id: string): Promise<RedisEnvelope | undefined> => {
    const value = await redis.attempt(async (client) => {
      try {
        // One byte past the cap (and the tag) tells a value over it, without reading all of it.
        return await client.getrangeBuffer(redisKeyOf(id), 0, maxStoredBytes);
      } catch (error) {
        if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return WRONG_TYPE;
        throw error;
      }
    });
    if (value === undefined) return undefined;
    if (value === WRONG_TYPE) return drop(id, 'not a string');
    if (value.length === 0) return undefined;
    if (value.length > maxStoredBytes) return drop(id, 'over RESPONSE_CACHE_MAX_ENTRY_BYTES');
    const text = redis.values.open(redisKeyOf(id), value.toString('utf8'), 'response_cache');
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
      await redis.attempt((client) => client.set(redisKeyOf(id), redis.values.seal(redisKeyOf(id), text), 'PX', ttl + staleIfErrorMs));
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
