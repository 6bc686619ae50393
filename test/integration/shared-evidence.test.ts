// The record of credentials the partner has accepted, shared by a fleet through a real
// redis-server: a replica started after the others knows the callers they know, so their failures
// count as distinct callers there too; Redis holds the credentials' digests only, with a time to live,
// and a value there that no replica wrote makes no token accepted.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { credentialDigest } from '../../src/credentials.js';
import { REDIS_KEY_PREFIXES } from '../../src/redis-keys.js';
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
    const shared = async () => (await redis.dump()).filter(({ key }) => key.startsWith(REDIS_KEY_PREFIXES.acceptedCredential));
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

// A value at an accepted-credential key that no replica wrote (needs write access to Redis):
// the old format, a well-formed end far ahead without the fleet's tag, another key's tagged value
// copied. None makes its made-up token accepted: the tokens stay one unproven caller, whose
// failures do not open the circuit, and each value is counted as rejected.
describe('values planted at accepted-credential keys', () => {
  const MADE_UP = ['planted-credential-1', 'planted-credential-2', 'planted-credential-3'];
  let fresh: Awaited<ReturnType<typeof startTwoReplicas>>;
  let plantedRedis: RedisServer;
  beforeAll(async () => {
    plantedRedis = await startRedisServer();
    fresh = await startTwoReplicas(plantedRedis.url, { upstreamMaxRetries: 0 });
  });
  afterAll(async () => {
    await fresh?.close();
    await plantedRedis?.stop();
  });

  it('makes no made-up token accepted: a miss, counted, and the circuit stays closed', async () => {
    const { a: writer, b: reader } = fresh;
    // One real acceptance, whose tagged value is copied below.
    expectNoGraphQLErrors(await readTotal(writer, DEMO_PLATFORM_ID, 'planted-credential-real'));
    const client = new Redis(plantedRedis.port, '127.0.0.1');
    try {
      const realKey = REDIS_KEY_PREFIXES.acceptedCredential + credentialDigest('planted-credential-real');
      await vi.waitFor(async () => expect(await client.exists(realKey)).toBe(1), { timeout: 15_000, interval: 50 });
      const realValue = (await client.get(realKey))!;
      const values = ['1', String(Date.now() + 3_600_000), realValue];
      for (const [n, token] of MADE_UP.entries()) {
        await client.set(REDIS_KEY_PREFIXES.acceptedCredential + credentialDigest(token), values[n]!, 'PX', 3_600_000);
      }
    } finally {
      client.disconnect();
    }

    const failing = Array.from({ length: 9 }, (_, n) => platformIdWithSize(800 + n));
    for (const platformId of failing) writer.simulator.injectFault({ operation: 'readInventory', kind: 'http-500', platformId });
    for (const token of MADE_UP) for (const platformId of failing) await readTotal(reader, platformId, token);
    expect(reader.service.partner.circuitStates()[0]!.state).toBe('closed');
    for (const token of MADE_UP) expect(await reader.service.partner.accepted.knows(credentialDigest(token))).toBe(false);
    const metrics = await (await fetch(`${reader.url}/metrics`)).text();
    expect(Number(/^tradegraph_redis_values_rejected_total\{store="accepted_credentials"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(MADE_UP.length);
  });
});
