// What Redis holds is data, not trusted code. With the response cache in a real redis-server, a
// cached answer's key overwritten with a value this service did not write (not JSON, a number, an
// array, an empty object, planted errors, a wrong Redis type, a well-formed envelope without this
// fleet's tag, one tagged under another secret, another key's tagged answer) or one over the entry
// cap (30 MB) is a miss: the read gets the partner's answer (never a 500, never the planted body),
// the value is logged once, counted and deleted, and the fresh answer takes its place. And rate-limit counters survive
// the eviction policy docs/response-cache.md recommends: the counts in a Redis of their own with
// noeviction (REDIS_URL), the answers in another that evicts (RESPONSE_CACHE_REDIS_URL), both at
// maxmemory 4mb, other callers' answers filling the cache's; and a counts' Redis that may evict is
// warned of at start.
import { print } from 'graphql';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisKeyOf } from '../../src/plugins/response-cache/redis-store.js';
import { REDIS_VALUE_TAG_BYTES, redisValues } from '../../src/redis-values.js';
import { DEMO_APP_KEY } from '../../src/simulator/data.js';
import { operationCost } from '../../src/cost/price.js';
import { buildSchema } from '../../src/schema.js';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { InventoryItemsFullDocument, InventoryTotalDocument } from '../generated/graphql.js';
import { redisSeenBy, redisStateOf, startRedisServer, type RedisServer } from '../support/redis.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, type Testkit } from '../support/testkit.js';

const TTL_MS = 60_000;
const MAX_ENTRY_BYTES = 64 * 1024;

/** Waits (bounded) until the service reports the response cache's own Redis up, in /readiness and its gauge. */
const cacheRedisSeenUp = (kit: Testkit) =>
  vi.waitFor(async () => expect(await redisStateOf(kit.url, 'response cache')).toEqual({ readiness: 'up', gauge: '1' }), { timeout: 15_000, interval: 100 });

describe('a cached answer in Redis overwritten with a value this service did not write', () => {
  let redis: RedisServer;
  let kit: Testkit;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedisServer();
    // A deadline no stall of a loaded machine reaches: a missed one marks Redis down and bypasses the cache.
    kit = await startTestkit({
      config: { redisUrl: redis.url, redisCommandTimeoutMs: 5000, responseCacheTtlMs: TTL_MS, responseCacheMaxEntryBytes: MAX_ENTRY_BYTES },
    });
    client = new Redis(redis.port, '127.0.0.1');
    await redisSeenBy('up', kit);
  });
  afterAll(async () => {
    client?.disconnect();
    await kit?.close();
    await redis?.stop();
  });

  /** A GET read of one inventory's total: its status, body and ETag (the cache key). */
  const read = async (size: number) => {
    const url = new URL(kit.graphqlUrl);
    url.searchParams.set('query', print(InventoryTotalDocument));
    url.searchParams.set('variables', JSON.stringify({ platformId: platformIdWithSize(size), appId: 730 }));
    const response = await fetch(url, { headers: { authorization: 'Bearer redis-values-token', 'x-graphql-csrf': '1', accept: 'application/graphql-response+json' } });
    kit.addSecret('redis-values-token');
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, etag: response.headers.get('etag') };
  };
  const dropLines = (key: string) =>
    kit.logs.map((line) => JSON.parse(line) as { msg: string; key?: string; level: number }).filter((line) => line.key === key && line.level === 40);

  const wellFormed = () => JSON.stringify({ v: 1, at: Date.now(), ttl: TTL_MS, data: { inventory: { id: 'x', totalCount: 666 } } });
  /** The tagged answer the service stored for another inventory (size 59), as another key's value. */
  const anotherKeysAnswer = async () => {
    const other = await read(59);
    return (await client.get(redisKeyOf(other.etag!)))!;
  };
  const rejectedCount = async () =>
    Number(/^tradegraph_redis_values_rejected_total\{store="response_cache"\} (\d+)$/m.exec(await (await fetch(`${kit.url}/metrics`)).text())?.[1]);
  const planted: [string, (key: string) => Promise<unknown>][] = [
    // What a writer without the fleet's secret makes of the answer format: the fleet's tag is missing, or made under another secret.
    ['a well-formed envelope without a tag', (key) => client.set(key, wellFormed())],
    ['a well-formed envelope tagged under another secret', (key) => client.set(key, redisValues(`not ${DEMO_APP_KEY}`).seal(key, wellFormed()))],
    ['a well-formed envelope tagged with the tag of another value', async (key) => client.set(key, (await anotherKeysAnswer()).slice(0, REDIS_VALUE_TAG_BYTES) + wellFormed())],
    ["another key's tagged answer, copied", async (key) => client.set(key, await anotherKeysAnswer())],
    ['not json', (key) => client.set(key, 'not json')],
    ['42', (key) => client.set(key, '42')],
    ['[1,2]', (key) => client.set(key, '[1,2]')],
    ['{}', (key) => client.set(key, '{}')],
    ['planted errors without a code', (key) => client.set(key, JSON.stringify({ errors: [{ message: 'planted' }] }))],
    ['an answer of the old format', (key) => client.set(key, JSON.stringify({ data: { inventory: { id: 'x', totalCount: 666 } } }))],
    ['an envelope with errors beside its data', (key) => client.set(key, JSON.stringify({ v: 1, at: Date.now(), ttl: TTL_MS, data: { inventory: null }, errors: [{ message: 'planted' }] }))],
    ['a hash, not a string', async (key) => (await client.del(key), client.hset(key, 'data', '{}'))],
    // A well-formed envelope, 30 MB of it: over the entry cap, whatever it holds.
    ['a 30 MB value', (key) => client.set(key, JSON.stringify({ v: 1, at: Date.now(), ttl: TTL_MS, data: { inventory: { id: 'x', totalCount: 666, pad: 'x'.repeat(30_000_000) } } }))],
  ];

  it.each(planted.map(([name, plant], index) => ({ name, plant, size: 60 + index })))(
    'answers $name as a miss: the partner answer, the value logged once and deleted',
    async ({ name, plant, size }) => {
      const first = await read(size);
      expect(first.status).toBe(200);
      expect(first.etag).toMatch(/^[0-9a-f]{64}$/);
      const key = redisKeyOf(first.etag!);
      expect(await client.exists(key)).toBe(1);
      await plant(key);
      const calls = kit.simulator.callsOf('readInventory').length;
      const rejected = await rejectedCount();

      const again = await read(size);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ data: first.body.data, extensions: { responseCache: { hit: false, didCache: true, ttl: TTL_MS }, cost: expect.any(Object) } });
      expect(kit.simulator.callsOf('readInventory').length).toBe(calls + 1);
      // Deleted, and the answer just read cached in its place: the next read is a hit.
      const third = await read(size);
      expect(third.body).toEqual({ data: first.body.data, extensions: { responseCache: { hit: true }, cost: expect.any(Object) } });
      expect(kit.simulator.callsOf('readInventory').length).toBe(calls + 1);
      expect(JSON.parse((await client.get(key))!.slice(REDIS_VALUE_TAG_BYTES))).toMatchObject({ v: 1, ttl: TTL_MS, data: first.body.data });
      expect(dropLines(key)).toHaveLength(1);
      expect(dropLines(key)[0]!.msg).toMatch(/a Redis value that is not an answer of this service is dropped/);
      // Counted once, when its tag is read: a value of another type or over the cap is dropped before.
      expect(await rejectedCount()).toBe(rejected + (['a hash, not a string', 'a 30 MB value'].includes(name) ? 0 : 1));
    },
  );
});

describe('rate-limit counters in a Redis of their own (noeviction), the answers in another that evicts', () => {
  const BUDGET_READS = 3;
  const page = (size: number) => ({ platformId: platformIdWithSize(size), appId: 730, first: 20 });
  const READ_PRICE = operationCost(buildSchema(), InventoryItemsFullDocument, undefined, page(20))!;
  let counts: RedisServer;
  let answers: RedisServer;
  let kit: Testkit;
  beforeAll(async () => {
    [counts, answers] = await Promise.all([startRedisServer(), startRedisServer()]);
    await configure(counts, 'noeviction');
    await configure(answers, 'allkeys-lru');
    kit = await startTestkit({
      config: {
        redisUrl: counts.url,
        responseCacheRedisUrl: answers.url,
        redisCommandTimeoutMs: 5000,
        responseCacheTtlMs: TTL_MS,
        rateLimit: { max: BUDGET_READS * READ_PRICE, windowMs: 600_000 },
      },
    });
    await redisSeenBy('up', kit);
  });
  afterAll(async () => {
    await kit?.close();
    await Promise.all([counts?.stop(), answers?.stop()]);
  });

  it("keeps a spent token's counter while other callers' answers fill and evict the cache's Redis", async () => {
    const read = (token: string, size: number) => {
      kit.addSecret(token);
      return kit.execute(InventoryItemsFullDocument, page(size), { token });
    };
    let answerBytes = 0;
    for (let sent = 0; sent < BUDGET_READS; sent++) {
      const answer = await read('spent-eviction-token', 20 + sent);
      expectNoGraphQLErrors(answer);
      answerBytes = JSON.stringify(answer.data).length;
    }
    expect(errorCodes(await read('spent-eviction-token', 30))).toEqual(['RATE_LIMITED']);

    // Other callers, each reading a page of its own: answers enough to fill 4 MB three times over.
    const callers = Math.ceil((3 * 4 * 2 ** 20) / answerBytes);
    for (let caller = 0; caller < callers; caller++) {
      expectNoGraphQLErrors(await read(`other-eviction-token-${caller}`, 20 + (caller % 50)));
    }
    // The spent token is refused still, on a read of its own and on one cached for it.
    expect(errorCodes(await read('spent-eviction-token', 31))).toEqual(['RATE_LIMITED']);
    expect(errorCodes(await read('spent-eviction-token', 20))).toEqual(['RATE_LIMITED']);
    // The cache's Redis did evict answers; the counts' Redis evicted nothing.
    expect(await evictedKeys(answers)).toBeGreaterThan(0);
    expect(await evictedKeys(counts)).toBe(0);
  }, 300_000);
});

describe("the response cache's own Redis, as readiness and the metrics tell it", () => {
  it('is reported beside the shared one, and down while it is away, the shared one still up', async () => {
    const [counts, answers] = await Promise.all([startRedisServer(), startRedisServer()]);
    const kit = await startTestkit({ config: { redisUrl: counts.url, responseCacheRedisUrl: answers.url, redisCommandTimeoutMs: 5000, responseCacheTtlMs: TTL_MS } });
    try {
      await cacheRedisSeenUp(kit);
      expect(await redisStateOf(kit.url)).toEqual({ readiness: 'up', gauge: '1' });
      await answers.stop();
      // A read notices the cache's Redis gone (and is answered from the partner meanwhile).
      await vi.waitFor(
        async () => {
          expectNoGraphQLErrors(await kit.execute(InventoryTotalDocument, { platformId: platformIdWithSize(7), appId: 730 }, {}));
          expect(await redisStateOf(kit.url, 'response cache')).toEqual({ readiness: 'down', gauge: '0' });
        },
        { timeout: 30_000, interval: 200 },
      );
      expect(await redisStateOf(kit.url)).toEqual({ readiness: 'up', gauge: '1' });
      const readiness = await fetch(`${kit.url}/readiness`);
      // Neither Redis makes a replica unready: without them it works on its own.
      expect(readiness.status).toBe(200);
    } finally {
      await kit.close();
      await Promise.all([counts.stop(), answers.stop()]);
    }
  });

  it('is reported with RESPONSE_CACHE_REDIS_URL alone, and the shared one is not', async () => {
    const answers = await startRedisServer();
    const kit = await startTestkit({ config: { responseCacheRedisUrl: answers.url, redisCommandTimeoutMs: 5000, responseCacheTtlMs: TTL_MS } });
    try {
      await cacheRedisSeenUp(kit);
      expect(await redisStateOf(kit.url)).toEqual({ readiness: undefined, gauge: undefined });
    } finally {
      await kit.close();
      await answers.stop();
    }
  });
});

describe("a rate-limit Redis whose policy evicts keys once full", () => {
  it('is warned of at start, naming the policy; noeviction, or no maxmemory, is not', async () => {
    const redis = await startRedisServer();
    const started: Testkit[] = [];
    const warnings = async (policy: string, maxmemory: string) => {
      const client = new Redis(redis.port, '127.0.0.1');
      await client.config('SET', 'maxmemory', maxmemory);
      await client.config('SET', 'maxmemory-policy', policy);
      client.disconnect();
      const kit = await startTestkit({ config: { redisUrl: redis.url, redisCommandTimeoutMs: 5000, rateLimit: { max: 10, windowMs: 60_000 } } });
      started.push(kit);
      await redisSeenBy('up', kit);
      // A read counted through Redis: the INFO of the check went first on the same connection.
      expectNoGraphQLErrors(await kit.execute(InventoryTotalDocument, { platformId: platformIdWithSize(3), appId: 730 }, {}));
      return kit.logs.map((line) => JSON.parse(line) as { msg: string; maxmemoryPolicy?: string }).filter((line) => /evicts keys once full/.test(line.msg));
    };
    try {
      expect((await warnings('volatile-lru', '4mb')).map((line) => line.maxmemoryPolicy)).toEqual(['volatile-lru']);
      expect(await warnings('noeviction', '4mb')).toEqual([]);
      expect(await warnings('allkeys-lru', '0')).toEqual([]);
    } finally {
      for (const kit of started) await kit.close();
      await redis.stop();
    }
  });
});

async function configure(server: RedisServer, policy: string): Promise<void> {
  const client = new Redis(server.port, '127.0.0.1');
  try {
    await client.config('SET', 'maxmemory', '4mb');
    await client.config('SET', 'maxmemory-policy', policy);
  } finally {
    client.disconnect();
  }
}

async function evictedKeys(server: RedisServer): Promise<number> {
  const client = new Redis(server.port, '127.0.0.1');
  try {
    return Number(/^evicted_keys:(\d+)/m.exec(await client.info('stats'))?.[1]);
  } finally {
    client.disconnect();
  }
}
