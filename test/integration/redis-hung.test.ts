// A hung Redis (SIGSTOP: its port accepts, nothing answers) is a Redis that is down: a command past
// its deadline marks it down (readiness `redis: down`, the gauge 0, one warning), requests go on
// without it, sending it nothing more, and once it answers again (SIGCONT) sharing resumes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { InventoryPageDocument } from '../generated/graphql.js';
import { redisSeenBy, redisStateOf, startRedisServer, type RedisServer } from '../support/redis.js';
import { expectNoGraphQLErrors, logLinesStartingWith, startTestkit, type Testkit } from '../support/testkit.js';

const REQUESTS_WHILE_HUNG = 20;
const page = (size: number) => ({ platformId: platformIdWithSize(size), appId: 730, first: 2 });

let redis: RedisServer;
let kit: Testkit;

beforeAll(async () => {
  redis = await startRedisServer();
  kit = await startTestkit({
    config: { redisUrl: redis.url, responseCacheTtlMs: 60_000, rateLimit: { max: 1000, windowMs: 60_000 } },
  });
  await redisSeenBy('up', kit);
});

afterAll(async () => {
  redis?.resume();
  await kit?.close();
  await redis?.stop();
});

const logged = (message: string) => logLinesStartingWith(kit.logs, message);

describe('a Redis that hangs', () => {
  it('is marked down, is sent nothing more, fails no request, and is used again once it answers', async () => {
    // Shared as usual first: a read, then the same read from the cache.
    expectNoGraphQLErrors(await kit.execute(InventoryPageDocument, page(31), {}));
    expect((await kit.execute(InventoryPageDocument, page(31), {})).extensions).toMatchObject({ responseCache: { hit: true } });
    expect(await redisStateOf(kit.url)).toEqual({ readiness: 'up', gauge: '1' });
    const getsBefore = await redis.commandCalls('get');

    redis.pause();
    let answered = 0;
    for (let index = 0; index < REQUESTS_WHILE_HUNG; index++) {
      const result = await kit.execute(InventoryPageDocument, page(40 + index), {});
      expectNoGraphQLErrors(result);
      if (result.data?.inventory?.items.edges.length === 2) answered += 1;
    }
    expect(answered).toBe(REQUESTS_WHILE_HUNG);
    await vi.waitFor(async () => expect(await redisStateOf(kit.url)).toEqual({ readiness: 'down', gauge: '0' }), { timeout: 10_000, interval: 100 });
    const warnings = logged('Redis is unreachable');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);

    redis.resume();
    await vi.waitFor(async () => expect(await redisStateOf(kit.url)).toEqual({ readiness: 'up', gauge: '1' }), { timeout: 15_000, interval: 100 });
    expect(logged('Redis is reachable again')).toHaveLength(1);
    expect(logged('Redis is unreachable')).toHaveLength(1);
    // What was sent before the deadline was missed reaches Redis now; the requests after it sent
    // no lookup at all (twenty requests, at most the first one's lookup).
    expect((await redis.commandCalls('get')) - getsBefore).toBeLessThanOrEqual(1);

    // Shared again: a read is cached in Redis and served from it.
    expectNoGraphQLErrors(await kit.execute(InventoryPageDocument, page(32), {}));
    expect((await kit.execute(InventoryPageDocument, page(32), {})).extensions).toMatchObject({ responseCache: { hit: true } });
  });
});
