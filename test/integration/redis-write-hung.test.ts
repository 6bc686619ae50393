// A write that Redis does not answer marks it down as a read does: the response cache's SET has the
// same command deadline, and missing it marks Redis down (readiness `redis: down`, the gauge 0, one
// warning naming a command, not the heartbeat). Redis hangs writes only (CLIENT PAUSE WRITE), so the
// cache's lookups and the heartbeat's PINGs before the SET are answered: only the write can find the hang.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { InventoryPageDocument } from '../generated/graphql.js';
import { redisSeenBy, redisStateOf, startRedisServer, type RedisServer } from '../support/redis.js';
import { expectNoGraphQLErrors, logLinesStartingWith, startTestkit, type Testkit } from '../support/testkit.js';

const page = (size: number) => ({ platformId: platformIdWithSize(size), appId: 730, first: 2 });

let redis: RedisServer;
let kit: Testkit;

beforeAll(async () => {
  redis = await startRedisServer();
  // No rate limit: the response cache's GET and SET are the only commands a request sends.
  kit = await startTestkit({ config: { redisUrl: redis.url, responseCacheTtlMs: 60_000 } });
  await redisSeenBy('up', kit);
});

afterAll(async () => {
  await redis?.unpauseWrites().catch(() => undefined);
  await kit?.close();
  await redis?.stop();
});

const warnings = () => logLinesStartingWith(kit.logs, 'Redis is unreachable');

describe('a Redis that hangs on a write', () => {
  it('is marked down by the write, fails no request, and is used again once it answers', async () => {
    expectNoGraphQLErrors(await kit.execute(InventoryPageDocument, page(61), {}));
    expect((await kit.execute(InventoryPageDocument, page(61), {})).extensions).toMatchObject({ responseCache: { hit: true } });
    expect(await redisStateOf(kit.url)).toEqual({ readiness: 'up', gauge: '1' });

    await redis.pauseWrites();
    // Its lookup is answered (a miss); the SET of its answer hangs.
    const missed = await kit.execute(InventoryPageDocument, page(62), {});
    expectNoGraphQLErrors(missed);
    expect(missed.extensions).toMatchObject({ responseCache: { hit: false } });
    await vi.waitFor(async () => expect(await redisStateOf(kit.url)).toEqual({ readiness: 'down', gauge: '0' }), { timeout: 10_000, interval: 50 });
    expect(warnings().map((line) => line.reason)).toEqual([expect.stringMatching(/^a command got no answer within \d+ ms$/)]);
    // Requests go on without it.
    expectNoGraphQLErrors(await kit.execute(InventoryPageDocument, page(63), {}));

    await redis.unpauseWrites();
    await vi.waitFor(async () => expect(await redisStateOf(kit.url)).toEqual({ readiness: 'up', gauge: '1' }), { timeout: 15_000, interval: 100 });
    expect(warnings()).toHaveLength(1);
    expectNoGraphQLErrors(await kit.execute(InventoryPageDocument, page(64), {}));
    expect((await kit.execute(InventoryPageDocument, page(64), {})).extensions).toMatchObject({ responseCache: { hit: true } });
  });
});
