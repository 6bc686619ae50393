// A fleet: two replicas of the service over one partner simulator and one real redis-server. They
// share the response cache and the rate-limit counts; Redis holds no secret; stopping Redis fails
// no request (each replica works on its own, warns once, and reports it), and sharing resumes by
// itself once Redis is back.
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationCost } from '../../src/cost/price.js';
import { buildSchema } from '../../src/schema.js';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { InventoryPageDocument } from '../generated/graphql.js';
import { redisSeenBy, redisStateOf, startRedisServer, type RedisServer } from '../support/redis.js';
import { startTwoReplicas } from '../support/replicas.js';
import { errorCodes, expectNoGraphQLErrors, type Testkit } from '../support/testkit.js';

const TTL_MS = 60_000;
const page = (size: number) => ({ platformId: platformIdWithSize(size), appId: 730, first: 4 });
/** Reads of a page each credential may make per window: a budget spends a read's price. */
const BUDGET = 5;
const READ_PRICE = operationCost(buildSchema(), InventoryPageDocument, undefined, page(0))!;

let redis: RedisServer;
let a: Testkit;
let b: Testkit;
const tokensSent = new Set<string>();

beforeAll(async () => {
  redis = await startRedisServer();
  // The outage here is a stopped Redis, found by its closed connection.
  ({ a, b } = await startTwoReplicas(redis.url, { responseCacheTtlMs: TTL_MS, rateLimit: { max: BUDGET * READ_PRICE, windowMs: 60_000 } }));
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  await redis?.stop();
});

/** Reads a page on a replica with a token; every token is remembered for the secret checks. */
function read(replica: Testkit, token: string, size: number) {
  tokensSent.add(token);
  return replica.execute(InventoryPageDocument, page(size), { token });
}

const inventoryCalls = () => a.simulator.callsOf('readInventory').length;

describe('a fleet of two replicas sharing one Redis', () => {
  it('shares cached pages per credential: A then B costs one partner call; another credential costs its own', async () => {
    a.simulator.reset();
    const onA = await read(a, 'fleet-token-one', 21);
    const onB = await read(b, 'fleet-token-one', 21);
    expectNoGraphQLErrors(onA);
    expectNoGraphQLErrors(onB);
    expect(onB.data).toEqual(onA.data);
    expect(onB.extensions).toMatchObject({ responseCache: { hit: true } });
    expect(inventoryCalls()).toBe(1);

    const other = await read(b, 'fleet-token-two', 21);
    expectNoGraphQLErrors(other);
    expect(other.extensions).toMatchObject({ responseCache: { hit: false } });
    expect(inventoryCalls()).toBe(2);
    // A credential the partner refuses sees its own refusal, never the pages cached for others.
    const refused = await read(b, 'forbidden-fleet-token', 21);
    expect(new Set(errorCodes(refused))).toEqual(new Set(['FORBIDDEN']));
    expect(refused.data?.inventory ?? null).toBeNull();
    expect(inventoryCalls()).toBe(3);
  });

  it('revalidates on one replica an ETag that the other one gave', async () => {
    const url = (replica: Testkit) => {
      const target = new URL(replica.graphqlUrl);
      target.searchParams.set('query', print(InventoryPageDocument));
      target.searchParams.set('variables', JSON.stringify(page(22)));
      return target;
    };
    tokensSent.add('fleet-token-three');
    const headers = { authorization: 'Bearer fleet-token-three', 'x-graphql-csrf': '1', accept: 'application/graphql-response+json' };
    const first = await fetch(url(a), { headers });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const revalidated = await fetch(url(b), { headers: { ...headers, 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
  });

  it("answers an ETag with 304 only for its own credential, on either replica", async () => {
    const url = (replica: Testkit) => {
      const target = new URL(replica.graphqlUrl);
      target.searchParams.set('query', print(InventoryPageDocument));
      target.searchParams.set('variables', JSON.stringify(page(23)));
      return target;
    };
    const get = (replica: Testkit, token: string, extra: Record<string, string> = {}) => {
      tokensSent.add(token);
      const headers = { authorization: `Bearer ${token}`, 'x-graphql-csrf': '1', accept: 'application/graphql-response+json' };
      return fetch(url(replica), { headers: { ...headers, ...extra } });
    };
    const first = await get(a, 'fleet-token-four');
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await get(b, 'fleet-token-four', { 'if-none-match': etag })).status).toBe(304);
    // (No credential at all is never looked up in the cache; response-cache.test.ts covers it.)
    for (const token of ['fleet-token-five', 'forbidden-token-2']) {
      for (const replica of [a, b]) {
        const withEtag = await get(replica, token, { 'if-none-match': etag });
        const without = await get(replica, token);
        expect({ token, status: withEtag.status }).toEqual({ token, status: without.status });
        type Answer = { data?: unknown; errors?: { extensions?: { code?: string } }[] };
        const [one, other] = (await Promise.all([withEtag.json(), without.json()])) as [Answer, Answer];
        expect(one.data).toEqual(other.data);
        expect(one.errors?.map((error) => error.extensions?.code)).toEqual(other.errors?.map((error) => error.extensions?.code));
      }
    }
  });

  it('keeps no secret in Redis: keys and values hold hashes and answers, never a token', async () => {
    // Its own entries, written whatever ran before: a counted read on A, served from Redis on B.
    expectNoGraphQLErrors(await read(a, 'fleet-token-secrets', 26));
    expect((await read(b, 'fleet-token-secrets', 26)).extensions).toMatchObject({ responseCache: { hit: true } });
    const entries = await redis.dump();
    expect(entries.some(({ key }) => key.startsWith('tradegraph:response:'))).toBe(true);
    expect(entries.some(({ key }) => key.startsWith('tradegraph:rate-limit'))).toBe(true);
    for (const { key, value } of entries) {
      expect(key).toMatch(/^tradegraph:(response:v1:|rate-limit:|accepted-credential:)[0-9a-f]{64}$/);
      for (const token of tokensSent) {
        expect(key).not.toContain(token);
        expect(value).not.toContain(token);
      }
    }
  });

  it('counts the rate limit across both replicas', async () => {
    const statuses: string[] = [];
    for (let sent = 0; sent < BUDGET; sent++) {
      const result = await read(sent % 2 === 0 ? a : b, 'fleet-token-budget', 30 + sent);
      statuses.push(errorCodes(result).join() || 'ok');
    }
    expect(statuses).toEqual(Array(BUDGET).fill('ok'));
    // The budget is spent on both replicas, whichever the next request reaches.
    expect(errorCodes(await read(a, 'fleet-token-budget', 40))).toEqual(['RATE_LIMITED']);
    expect(errorCodes(await read(b, 'fleet-token-budget', 40))).toEqual(['RATE_LIMITED']);
  });

  it('answers every request while Redis is down, each replica on its own, and shares again once it is back', async () => {
    await redis.stop();
    await redisSeenBy('down', a, b);
    a.simulator.reset();

    // The cache is bypassed: each replica asks the partner, and no request fails.
    for (const replica of [a, b, a, b]) expectNoGraphQLErrors(await read(replica, 'fleet-token-outage', 23));
    expect(inventoryCalls()).toBe(4);
    // Limits fall back to each replica's own counts: A's budget is A's alone.
    for (let sent = 0; sent < BUDGET; sent++) expectNoGraphQLErrors(await read(a, 'fleet-token-outage-budget', 24));
    expect(errorCodes(await read(a, 'fleet-token-outage-budget', 24))).toEqual(['RATE_LIMITED']);
    expectNoGraphQLErrors(await read(b, 'fleet-token-outage-budget', 24));

    for (const replica of [a, b]) {
      expect(await redisStateOf(replica.url)).toEqual({ readiness: 'down', gauge: '0' });
      // One warning for the outage, however many reconnection attempts failed meanwhile.
      expect(replica.logs.filter((line) => line.includes('Redis is unreachable'))).toHaveLength(1);
      expect((await fetch(`${replica.url}/readiness`)).status).toBe(200);
    }

    await redis.start();
    await redisSeenBy('up', a, b);
    for (const replica of [a, b]) {
      expect(await redisStateOf(replica.url)).toEqual({ readiness: 'up', gauge: '1' });
      expect(replica.logs.filter((line) => line.includes('Redis is reachable again'))).toHaveLength(1);
    }
    a.simulator.reset();
    expectNoGraphQLErrors(await read(a, 'fleet-token-after', 25));
    const shared = await read(b, 'fleet-token-after', 25);
    expectNoGraphQLErrors(shared);
    expect(shared.extensions).toMatchObject({ responseCache: { hit: true } });
    expect(inventoryCalls()).toBe(1);
  });
});
