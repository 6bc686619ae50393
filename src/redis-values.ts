// What this service writes in Redis carries a tag that proves it wrote it: HMAC-SHA256 of the key
// and the value, under a key derived (HKDF-SHA256) from a secret every replica already holds
// (REDIS_VALUE_KEY, else PARTNER_APP_KEY). A value without a valid tag (planted by anyone else with
// write access to Redis, or copied from another key, or written under another secret) is a miss:
// Redis is a trust boundary, and a cached answer or an accepted credential must not cross it unproven.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** The stores whose values are tagged, as the rejection metric labels them. */
export const REDIS_VALUE_STORES = ['response_cache', 'accepted_credentials', 'live_results'] as const;
export type RedisValueStore = (typeof REDIS_VALUE_STORES)[number];

/** A tag: 43 characters of base64url (the 32 bytes of HMAC-SHA256), then a dot, then the value. */
const TAG_CHARS = 43;
/** What a stored value holds beside the value itself. */
export const REDIS_VALUE_TAG_BYTES = TAG_CHARS + 1;

/** Fixed, public inputs of the derivation: the secret alone keys it; the info names its one use. */
const HKDF_SALT = 'tradegraph';
const HKDF_INFO = 'tradegraph redis values v1';

export interface RedisValues {
  /** The text to write at `key` for `value`: the tag, a dot, the value. */
  seal(key: string, value: string): string;
  /** The value written at `key`, or undefined (counted as rejected for `store`) when its tag is missing or wrong. */
  open(key: string, stored: string, store: RedisValueStore): string | undefined;
}

/** Tags values under a key derived from `secret`; `onRejected` hears every value refused. */
export function redisValues(secret: string, onRejected: (store: RedisValueStore) => void = () => undefined): RedisValues {
  const key = Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, HKDF_INFO, 32));
  // The key and value are joined by a NUL, which no Redis key of this service holds: no other
  // split of the same bytes makes the same tag.
  const tagOf = (redisKey: string, value: string) => createHmac('sha256', key).update(redisKey).update('\0').update(value).digest();
  return {
    seal: (redisKey, value) => `${tagOf(redisKey, value).toString('base64url')}.${value}`,
    open(redisKey, stored, store) {
      const value = stored.slice(REDIS_VALUE_TAG_BYTES);
      const given = Buffer.from(stored.slice(0, TAG_CHARS), 'base64url');
      const expected = tagOf(redisKey, value);
      if (stored[TAG_CHARS] === '.' && given.length === expected.length && timingSafeEqual(given, expected)) return value;
      onRejected(store);
      return undefined;
    },
  };
}
