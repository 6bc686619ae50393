// Budgets shared through Redis: two replicas over one partner simulator and one real redis-server,
// RATE_LIMIT_MAX=5. The fee calls of made-up tokens spend one budget for the whole fleet, whichever
// replica they reach; the record of accepted credentials is the fleet's, so a token read on one
// replica has fees of its own on the other too; Redis keys hold no token.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDIS_KEY_PREFIX as ACCEPTED_PREFIX } from '../../src/partner/accepted-credentials.js';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { CalculateListingFeeDocument, InventoryTotalDocument } from '../generated/graphql.js';
import { redisSeenBy, startRedisServer, type RedisServer } from '../support/redis.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, type Testkit } from '../support/testkit.js';

const BUDGET = 5;
/** A fee mutation of one item costs 2 units: two fit in a budget of 5. */
const FEE_COST = 2;

let redis: RedisServer;
let a: Testkit;
let b: Testkit;
const tokensSent = new Set<string>();

beforeAll(async () => {
  redis = await startRedisServer();
  // A deadline no stall of a loaded machine reaches: a missed one marks Redis down, and each
  // replica would count on its own (redis-hung tests cover that).
  const config = { redisUrl: redis.url, redisCommandTimeoutMs: 5000, rateLimit: { max: BUDGET, windowMs: 60_000 } };
  a = await startTestkit({ config });
  b = await startTestkit({ config, sharedSimulator: a.simulator });
  await redisSeenBy('up', a, b);
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  await redis?.stop();
});

const feeCalls = () => a.simulator.callsOf('calculateListingFee').length;

function fees(replica: Testkit, token: string) {
  tokensSent.add(token);
  return replica.execute(CalculateListingFeeDocument, { input: { items: [{ price: 250 }] } }, { token });
}

function read(replica: Testkit, token: string) {
  tokensSent.add(token);
  return replica.execute(InventoryTotalDocument, { platformId: platformIdWithSize(3), appId: 730 }, { token });
}

describe('budgets shared through Redis by two replicas', () => {
  it('lets twenty made-up tokens sending five fee mutations each, on either replica, make what one budget allows', async () => {
    const before = feeCalls();
    const outcomes: string[] = [];
    for (let token = 0; token < 20; token++) {
      for (let sent = 0; sent < 5; sent++) {
        const replica = (token * 5 + sent) % 2 === 0 ? a : b;
        outcomes.push(errorCodes(await fees(replica, `made-up-fleet-fee-token-${token}`)).join() || 'ok');
      }
    }
    // One budget for the fleet: each replica counting on its own would have let twice as many through.
    expect(feeCalls() - before).toBe(Math.floor(BUDGET / FEE_COST));
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(Math.floor(BUDGET / FEE_COST));
    expect(new Set(outcomes.filter((outcome) => outcome !== 'ok'))).toEqual(new Set(['RATE_LIMITED']));
    expect(await redis.commandCalls('evalsha')).toBeGreaterThan(0);

    // The shared counter is the one of unproven callers' fees; no key names a token.
    const keys = (await redis.dump()).map(({ key }) => key);
    expect(keys).toContain('tradegraph:rate-limit:unproven-fees');
    for (const key of keys) {
      expect(key).toMatch(/^tradegraph:(rate-limit:(anonymous|unproven-fees|[0-9a-f]{64})|accepted-credential:[0-9a-f]{64})$/);
      for (const token of tokensSent) expect(key).not.toContain(token);
    }
  });

  it('gives a token fees of its own on every replica once one saw the partner accept it', async () => {
    // The shared fee budget is spent (by the test above, or here).
    for (let sent = 0; sent < 3; sent++) await fees(a, 'made-up-fleet-flood');
    expect(errorCodes(await fees(b, 'made-up-fleet-flood'))).toEqual(['RATE_LIMITED']);

    // A new user's read is never locked out by the flood, and gets its token accepted on A (1 of 5 spent).
    expectNoGraphQLErrors(await read(a, 'fleet-new-user'));
    await vi.waitFor(async () => expect((await redis.dump()).some(({ key }) => key.startsWith(ACCEPTED_PREFIX))).toBe(true), {
      timeout: 15_000,
      interval: 50,
    });
    const calls = feeCalls();
    // B never served it, yet knows from the fleet's record: its fees there spend its own budget (3 spent)...
    expectNoGraphQLErrors(await fees(b, 'fleet-new-user'));
    expect(feeCalls()).toBe(calls + 1);
    // ...counted across both replicas: 2 more fit on A (5 spent), then nothing more does.
    expectNoGraphQLErrors(await fees(a, 'fleet-new-user'));
    expect(feeCalls()).toBe(calls + 2);
    expect(errorCodes(await read(b, 'fleet-new-user'))).toEqual(['RATE_LIMITED']);
    // Made-up tokens still share the spent budget.
    expect(errorCodes(await fees(b, 'made-up-fleet-flood'))).toEqual(['RATE_LIMITED']);
  });
});
