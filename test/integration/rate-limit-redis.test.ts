// Budgets shared through Redis: two replicas over one partner simulator and one real redis-server,
// RATE_LIMIT_MAX=5. The fee calls of made-up tokens spend one budget for the whole fleet, whichever
// replica they reach; the record of accepted credentials is the fleet's, so a token read on one
// replica has fees of its own on the other too; Redis keys hold no token.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDIS_KEY_PREFIXES } from '../../src/redis-keys.js';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { CalculateListingFeeDocument, InventoryTotalDocument } from '../generated/graphql.js';
import { startRedisServer, type RedisServer } from '../support/redis.js';
import { startTwoReplicas } from '../support/replicas.js';
import { closeClientAddresses, feeFrom, newUsersDuringAFeeFlood } from '../support/client-addresses.js';
import { errorCodes, expectNoGraphQLErrors, type Testkit } from '../support/testkit.js';

const BUDGET = 5;

let redis: RedisServer;
let a: Testkit;
let b: Testkit;
const tokensSent = new Set<string>();

beforeAll(async () => {
  redis = await startRedisServer();
  ({ a, b } = await startTwoReplicas(redis.url, { rateLimit: { max: BUDGET, windowMs: 60_000 } }));
});

afterAll(async () => {
  await closeClientAddresses();
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
  it('lets twenty made-up tokens, each from an address of its own, sending five fee mutations each, on either replica, make what one budget allows', async () => {
    const before = feeCalls();
    const outcomes: string[] = [];
    for (let token = 0; token < 20; token++) {
      for (let sent = 0; sent < 5; sent++) {
        const replica = (token * 5 + sent) % 2 === 0 ? a : b;
        tokensSent.add(`made-up-fleet-fee-token-${token}`);
        outcomes.push(await feeFrom(replica, `127.0.6.${token + 1}`, `made-up-fleet-fee-token-${token}`));
      }
    }
    // One budget of fee items for the fleet: each replica counting on its own would have let twice as many through.
    expect(feeCalls() - before).toBe(BUDGET);
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(BUDGET);
    expect(new Set(outcomes.filter((outcome) => outcome !== 'ok'))).toEqual(new Set(['RATE_LIMITED']));
    expect(await redis.commandCalls('evalsha')).toBeGreaterThan(0);

    // The shared counters are the one of unproven callers' fees and the clients' shares of it; no key names a token or an address.
    const keys = (await redis.dump()).map(({ key }) => key);
    expect(keys).toContain('tradegraph:rate-limit:unproven-fees');
    expect(keys.some((key) => key.startsWith('tradegraph:rate-limit:share:address-'))).toBe(true);
    expect(keys.some((key) => key.startsWith('tradegraph:rate-limit:share:token-'))).toBe(true);
    for (const key of keys) {
      expect(key).toMatch(/^tradegraph:(rate-limit:(anonymous|unproven-fees|[0-9a-f]{64}|share:(address|token)-[0-9a-f]{64})|accepted-credential:[0-9a-f]{64})$/);
      for (const token of tokensSent) expect(key).not.toContain(token);
      expect(key).not.toContain('127.0.');
    }
  });

  it('gives a token fees of its own on every replica once one saw the partner accept it', async () => {
    // The shared fee budget is spent (by the test above, or here).
    for (let sent = 0; sent < 3; sent++) await fees(a, 'made-up-fleet-flood');
    expect(errorCodes(await fees(b, 'made-up-fleet-flood'))).toEqual(['RATE_LIMITED']);

    // A new user's read is never locked out by the flood, and gets its token accepted on A (1 of 5 spent).
    expectNoGraphQLErrors(await read(a, 'fleet-new-user'));
    await vi.waitFor(async () => expect((await redis.dump()).some(({ key }) => key.startsWith(REDIS_KEY_PREFIXES.acceptedCredential))).toBe(true), {
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

describe('the fee budget of callers the partner has not accepted, shared fairly by two replicas through Redis', () => {
  const MAX = 50;
  let c: Testkit;
  let d: Testkit;

  beforeAll(async () => {
    await redis.stop();
    await redis.start();
    ({ a: c, b: d } = await startTwoReplicas(redis.url, { rateLimit: { max: MAX, windowMs: 60_000 } }));
  });

  afterAll(async () => {
    await d?.close();
    await c?.close();
  });

  it('serves 40 new users asking one fee each, on either replica, while one client floods both, and the partner sees at most the budget', async () => {
    const outcome = await newUsersDuringAFeeFlood([c, d], 40);
    expect(outcome.usersServed).toBeGreaterThanOrEqual(35);
    // One share for the flooder across the fleet, not one per replica.
    expect(outcome.floodServed).toBeLessThanOrEqual(MAX / 10);
    const feeCallsMade = c.simulator.callsOf('calculateListingFee').length;
    // At most one call per fee served: identical fee calls in flight at once share one partner call.
    expect(feeCallsMade).toBeLessThanOrEqual(outcome.usersServed + outcome.floodServed);
    expect(feeCallsMade).toBeLessThanOrEqual(MAX);
    expect((await redis.dump()).map(({ key }) => key)).toContain('tradegraph:rate-limit:unproven-fees');
  });
});
