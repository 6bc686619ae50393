// The tags of Redis values (src/redis-values.ts): a value opens only at the key it was sealed for,
// unchanged, under the same secret; anything else is refused and counted for its store.
import { describe, expect, it } from 'vitest';
import { REDIS_VALUE_TAG_BYTES, redisValues, type RedisValueStore } from '../../src/redis-values.js';

const KEY = 'tradegraph:response:v1:abc';

describe('redisValues', () => {
  const rejected: RedisValueStore[] = [];
  const values = redisValues('a secret every replica shares', (store) => rejected.push(store));

  it('opens what it sealed, at the same key, under the same secret', () => {
    const sealed = values.seal(KEY, '{"v":1}');
    expect(sealed).toHaveLength(REDIS_VALUE_TAG_BYTES + '{"v":1}'.length);
    expect(sealed).toMatch(/^[A-Za-z0-9_-]{43}\.\{"v":1\}$/);
    expect(values.open(KEY, sealed, 'response_cache')).toBe('{"v":1}');
    expect(redisValues('a secret every replica shares').open(KEY, sealed, 'response_cache')).toBe('{"v":1}');
    expect(rejected).toEqual([]);
  });

  it.each([
    ['no tag', () => '{"v":1}'],
    ['another key', () => values.seal(`${KEY}x`, '{"v":1}')],
    ['a changed value', () => `${values.seal(KEY, '{"v":1}').slice(0, -2)}2}`],
    ['another secret', () => redisValues('another secret').seal(KEY, '{"v":1}')],
    ['a cut tag', () => values.seal(KEY, '{"v":1}').slice(1)],
    ['the empty string', () => ''],
  ])('refuses %s, and counts it for its store', (_case, stored) => {
    rejected.length = 0;
    expect(values.open(KEY, stored(), 'accepted_credentials')).toBeUndefined();
    expect(rejected).toEqual(['accepted_credentials']);
  });
});
