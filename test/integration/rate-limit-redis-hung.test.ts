// A rate limit whose Redis hangs on its counts marks Redis down as the response cache's commands do:
// the limit's own command has the command deadline, and missing it marks Redis down at once (one
// warning naming a command, not the heartbeat), the replica counting on its own meanwhile. Redis
// hangs writes only (CLIENT PAUSE WRITE): a PING is answered until it queues behind a hung write,
// so the heartbeat finds such a hang only after the command that met it. So too for the refund of
// a refused operation's spend.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { operationCost } from '../../src/cost/price.js';
import { buildSchema } from '../../src/schema.js';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { InventoryTotalDocument } from '../generated/graphql.js';
import { redisSeenBy, redisStateOf, startRedisServer, type RedisServer } from '../support/redis.js';
import { errorCodes, expectNoGraphQLErrors, logLinesStartingWith, startTestkit, type Testkit } from '../support/testkit.js';

const variables = { platformId: platformIdWithSize(3), appId: 730 };
/** Reads that fit in the budget. */
const READS = 3;
const BUDGET = READS * operationCost(buildSchema(), InventoryTotalDocument, undefined, variables)!;

let redis: RedisServer;
let kit: Testkit;

beforeAll(async () => {
  redis = await startRedisServer();
  // No response cache: the limit's counts are the only commands a request sends.
  kit = await startTestkit({ config: { redisUrl: redis.url, rateLimit: { max: BUDGET, windowMs: 60_000 } } });
  await redisSeenBy('up', kit);
});

/** Undoes what a test did to the service's Redis connection (see the refund's test). */
let restoreConnection = () => {};

// Whatever a test left, the next starts from Redis answering and seen up.
afterEach(async () => {
  restoreConnection();
  restoreConnection = () => {};
  if (!redis || !kit) return;
  await redis.unpauseWrites();
  await redisSeenBy('up', kit);
});

afterAll(async () => {
  await kit?.close();
  await redis?.stop();
});

/**
 * Runs `around` for each count the limiter sends on the service's Redis connection (rate-limiter-
 * flexible's `rlflxIncr` script: key, points, ...), until the test ends: a test times a real fault
 * of Redis to one command, which no outside pause can.
 */
async function aroundCounts(around: (args: string[], count: () => Promise<unknown>) => Promise<unknown>): Promise<void> {
  const connection = (await kit.service.redis!.client()) as unknown as { rlflxIncr(args: string[]): Promise<unknown> };
  const count = connection.rlflxIncr;
  restoreConnection = () => (connection.rlflxIncr = count);
  connection.rlflxIncr = (args) => around(args, () => count.call(connection, args));
}

/** A refund is the limiter's count with negative points. */
const isRefund = (args: string[]) => args[1]?.startsWith('-') ?? false;

const read = (token: string) => kit.execute(InventoryTotalDocument, variables, { token });

const warnings = () => logLinesStartingWith(kit.logs, 'Redis is unreachable');

describe('a rate limit whose Redis hangs', () => {
  it('marks Redis down by its own command, fails no request, and keeps the budget on the replica meanwhile', async () => {
    expectNoGraphQLErrors(await read('hung-limit-token-before'));
    expect(await redisStateOf(kit.url)).toEqual({ readiness: 'up', gauge: '1' });

    await redis.pauseWrites();
    // Its count hangs until the command deadline; the replica counts it instead.
    expectNoGraphQLErrors(await read('hung-limit-token'));
    expect(await redisStateOf(kit.url)).toEqual({ readiness: 'down', gauge: '0' });
    expect(warnings().map((line) => line.reason)).toEqual([expect.stringMatching(/^a command got no answer within \d+ ms$/)]);

    // The replica's own counts hold the budget while Redis is away, that read counted in them.
    for (let more = 1; more < READS; more++) expectNoGraphQLErrors(await read('hung-limit-token'));
    expect(errorCodes(await read('hung-limit-token'))).toEqual(['RATE_LIMITED']);

    await redis.unpauseWrites();
    await vi.waitFor(async () => expect(await redisStateOf(kit.url)).toEqual({ readiness: 'up', gauge: '1' }), { timeout: 15_000, interval: 100 });
    expect(warnings()).toHaveLength(1);
    expectNoGraphQLErrors(await read('hung-limit-token-after'));
  });
});

describe('a rate limit whose Redis hangs on the refund of a refused operation', () => {
  it('refuses the operation and marks Redis down by the refund, its own command', async () => {
    const token = 'hung-refund-token';
    for (let spent = 0; spent < READS; spent++) expectNoGraphQLErrors(await read(token));
    expect(await redisStateOf(kit.url)).toEqual({ readiness: 'up', gauge: '1' });

    // Redis hangs its writes just as the refund is sent, and not before: the refused count is
    // answered, then the refund meets the pause.
    await aroundCounts(async (args, count) => {
      if (isRefund(args)) await redis.pauseWrites();
      return count();
    });

    const warned = warnings().length;
    expect(errorCodes(await read(token))).toEqual(['RATE_LIMITED']);
    expect(await redisStateOf(kit.url)).toEqual({ readiness: 'down', gauge: '0' });
    expect(warnings().slice(warned).map((line) => line.reason)).toEqual([expect.stringMatching(/^a command got no answer within \d+ ms$/)]);

    await redis.unpauseWrites();
    await vi.waitFor(async () => expect(await redisStateOf(kit.url)).toEqual({ readiness: 'up', gauge: '1' }), { timeout: 15_000, interval: 100 });
  });
});

describe('a refused operation whose Redis another request marks down meanwhile', () => {
  it('is refused without sending its refund to that Redis', async () => {
    const token = 'refund-after-down-token';
    for (let spent = 0; spent < READS; spent++) expectNoGraphQLErrors(await read(token));

    // The refused count is answered; just then a command of another request misses its deadline.
    const refunds: string[][] = [];
    await aroundCounts(async (args, count) => {
      if (isRefund(args)) refunds.push(args);
      const answer = await count();
      kit.service.redis!.commandFailed(new Error('Command timed out'));
      return answer;
    });

    expect(errorCodes(await read(token))).toEqual(['RATE_LIMITED']);
    expect(refunds).toEqual([]);
  });
});
