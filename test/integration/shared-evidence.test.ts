// The record of credentials the partner has accepted, shared by a fleet through a real
// redis-server: a replica started after the others knows the callers they know, so their failures
// count as distinct callers there too; Redis holds the credentials' digests only, with a time to live.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDIS_KEY_PREFIX } from '../../src/partner/accepted-credentials.js';
import { DEMO_APP_ID, DEMO_PLATFORM_ID, platformIdWithSize } from '../../src/simulator/data.js';
import { InventoryTotalDocument } from '../generated/graphql.js';
import { startRedisServer, type RedisServer } from '../support/redis.js';
import { startTwoReplicas } from '../support/replicas.js';
import { expectNoGraphQLErrors, type Testkit } from '../support/testkit.js';

const TOKENS = ['fleet-accepted-1', 'fleet-accepted-2', 'fleet-accepted-3'];

let redis: RedisServer;
let a: Testkit;
let b: Testkit;

beforeAll(async () => {
  redis = await startRedisServer();
  ({ a, b } = await startTwoReplicas(redis.url, { upstreamMaxRetries: 0 }));
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  await redis?.stop();
});

const readTotal = (kit: Testkit, platformId: string, token: string) =>
  kit.execute(InventoryTotalDocument, { platformId, appId: DEMO_APP_ID }, { token });

describe('accepted credentials shared through Redis', () => {
  it('a replica knows the callers another one saw accepted: their failures there open its circuit', async () => {
    for (const token of TOKENS) expectNoGraphQLErrors(await readTotal(a, DEMO_PLATFORM_ID, token));
    const shared = async () => (await redis.dump()).filter(({ key }) => key.startsWith(REDIS_KEY_PREFIX));
    await vi.waitFor(async () => expect(await shared()).toHaveLength(TOKENS.length), { timeout: 15_000, interval: 50 });
    // Digests with a time to live, never a token.
    for (const { key, value } of await shared()) for (const token of TOKENS) expect(`${key} ${value}`).not.toContain(token);
    const client = new Redis(redis.port, '127.0.0.1');
    try {
      for (const { key } of await shared()) expect(await client.pttl(key)).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }

    // Replica B never served these tokens: only the shared record tells it they are proven callers.
    const failing = Array.from({ length: 9 }, (_, n) => platformIdWithSize(700 + n));
    for (const platformId of failing) a.simulator.injectFault({ operation: 'readInventory', kind: 'http-500', platformId });
    for (const token of TOKENS) for (const platformId of failing) await readTotal(b, platformId, token);
    expect(b.service.partner.circuitStates()[0]!.state).toBe('open');
    // Replica A's circuit saw none of it.
    expect(a.service.partner.circuitStates()[0]!.state).toBe('closed');
  });
});
