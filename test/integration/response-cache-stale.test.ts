// The last good answer during an outage (RFC 5861's stale-if-error): with the response cache on, a
// query's answer is kept RESPONSE_CACHE_STALE_IF_ERROR_MS past its TTL, and when the partner cannot
// answer (stopped, 5xx, no answer in time) the same credential's same query gets it, marked
// `extensions.stale` with its age and an Age header. Never to another credential, never past the window, never for a mutation,
// never in place of a refusal the partner did answer; in-process and through Redis alike.
import { print, type GraphQLFormattedError } from 'graphql';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { itemAt, platformIdWithSize } from '../../src/simulator/data.js';
import { CalculateListingFeeDocument, InventoryPageDocument } from '../generated/graphql.js';
import { startRedisServer, type RedisServer } from '../support/redis.js';
import { startTwoReplicas } from '../support/replicas.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, useTestkit, type Testkit } from '../support/testkit.js';

const TTL_MS = 1000;
const page = (size: number) => ({ platformId: platformIdWithSize(size), appId: 730, first: 3 });

/** A read of a page over HTTP: status, Age header and body. */
async function read(kit: Testkit, size: number, token: string) {
  kit.addSecret(token);
  const response = await kit.post({ query: print(InventoryPageDocument), variables: page(size) }, { token });
  const body = (await response.json()) as { data?: { inventory: unknown } | null; errors?: GraphQLFormattedError[]; extensions?: Record<string, unknown> };
  return { status: response.status, age: response.headers.get('age'), body };
}

// A TTL and the stale window are measured on Date's clock (the in-process store's and Redis
// envelopes' `at`): each test holds that clock still and moves it past a TTL rather than waiting,
// so a stalled machine can neither expire an answer early nor make a test wait. Only Date is faked:
// sockets, timers and Redis's own expiry run in real time.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves Date's clock past `time` (ms since the epoch): an answer's TTL or window running out. */
function until(time: number): void {
  vi.setSystemTime(time + 1);
}

/** Reads a page and waits until its answer's TTL has passed: the answer is kept for the window only. */
async function readThenOutlive(kit: Testkit, size: number, token: string, ms = TTL_MS) {
  const fresh = await read(kit, size, token);
  expect(fresh.status).toBe(200);
  expect(fresh.body.errors).toBeUndefined();
  until(Date.now() + ms);
  return fresh;
}

const lookups = async (kit: Testkit, result: string) =>
  Number(new RegExp(`^tradegraph_response_cache_lookups_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(await (await fetch(`${kit.url}/metrics`)).text())?.[1] ?? 0);

/** The answer of an outage, stale: the same data, its age in extensions.stale and the Age header. */
function expectStale(outage: Awaited<ReturnType<typeof read>>, fresh: Awaited<ReturnType<typeof read>>, minimumAge: number) {
  expect(outage.status).toBe(200);
  expect(outage.body.errors).toBeUndefined();
  expect(outage.body.data).toEqual(fresh.body.data);
  const ageSeconds = (outage.body.extensions?.stale as { ageSeconds: number } | undefined)?.ageSeconds;
  // Beside the operation's own extensions.cost, only the mark of a stale answer.
  expect(outage.body.extensions).toEqual({ stale: { ageSeconds }, cost: expect.any(Object) });
  expect(ageSeconds).toBeGreaterThanOrEqual(minimumAge);
  expect(outage.age).toBe(String(ageSeconds));
}

describe('stale-if-error, in-process', () => {
  // Its simulator is reset before each test, faults included.
  const kitOf = useTestkit({ config: { responseCacheTtlMs: TTL_MS, responseCacheStaleIfErrorMs: 300_000 } });

  it("serves the same credential's last good answer, marked stale, when the partner answers 503 past the TTL", async () => {
    const kit = kitOf();
    const fresh = await readThenOutlive(kit, 41, 'stale-token-one');
    kit.simulator.injectFault({ kind: 'http-503', operation: 'readInventory' });
    const staleBefore = await lookups(kit, 'stale');
    expectStale(await read(kit, 41, 'stale-token-one'), fresh, 1);
    expect(await lookups(kit, 'stale')).toBe(staleBefore + 1);
    // The log line says so: a query that ran, and was answered stale.
    const logged = kit.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'graphql operation').at(-1);
    expect(logged).toMatchObject({ operationType: 'query', outcome: 'ok', responseCache: 'stale' });
    // Another credential never gets it: its own outage, as the partner's failure.
    const other = await read(kit, 41, 'stale-token-two');
    expect(new Set(errorCodes(other.body))).toEqual(new Set(['UPSTREAM_UNAVAILABLE']));
    expect(other.body.data?.inventory ?? null).toBeNull();
    expect(other.body.extensions?.stale).toBeUndefined();
    expect(other.age).toBeNull();
  });

  it('serves a partial answer of outages stale too, and never in place of a refusal the partner answered', async () => {
    const kit = kitOf();
    const query = `query Two($one: String!, $two: String!) { one: inventory(platformId: $one, appId: 730) { totalCount } two: inventory(platformId: $two, appId: 730) { totalCount } }`;
    const variables = { one: platformIdWithSize(42), two: platformIdWithSize(43) };
    const send = async (token: string) => {
      kit.addSecret(token);
      const response = await kit.post({ query, variables }, { token });
      return { status: response.status, age: response.headers.get('age'), body: (await response.json()) as Awaited<ReturnType<typeof read>>['body'] };
    };
    const fresh = await send('stale-token-three');
    expect(fresh.body.data).toEqual({ one: { totalCount: 42 }, two: { totalCount: 43 } });
    until(Date.now() + TTL_MS);
    // One inventory fails, the other answers: the whole last good answer stands in.
    kit.simulator.injectFault({ kind: 'http-503', operation: 'readInventory', platformId: variables.two });
    expectStale(await send('stale-token-three'), fresh, 1);
    // A 403 is the partner's answer, not an outage: it is answered as such.
    kit.simulator.reset();
    kit.simulator.injectFault({ kind: 'http-403', operation: 'readInventory', platformId: variables.two });
    const refused = await send('stale-token-three');
    expect(errorCodes(refused.body)).toEqual(['FORBIDDEN']);
    expect(refused.body.extensions?.stale).toBeUndefined();
  });

  it('never answers a mutation with a stale answer', async () => {
    const kit = kitOf();
    const item = itemAt(platformIdWithSize(3), 730, 0);
    const input = { items: [{ price: 1500, token: item.token, styleToken: item.styleToken }] };
    expectNoGraphQLErrors(await kit.execute(CalculateListingFeeDocument, { input }, { token: 'stale-token-four' }));
    until(Date.now() + TTL_MS);
    kit.simulator.injectFault({ kind: 'http-503', operation: 'calculateListingFee' });
    const outage = await kit.execute(CalculateListingFeeDocument, { input }, { token: 'stale-token-four' });
    expect(errorCodes(outage)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(outage.extensions?.stale).toBeUndefined();
  });
});

describe('stale-if-error never stands in for this service refusing to ask', () => {
  // Two connections for one inventory (8 in all, a quarter each), a short wait for one, and a
  // partner slow enough that two other callers hold that share while the token's read waits.
  const kitOf = useTestkit({
    config: {
      production: true,
      responseCacheTtlMs: TTL_MS,
      responseCacheStaleIfErrorMs: 300_000,
      upstreamConnections: 8,
      upstreamConnectionWaitMs: 300,
      upstreamTimeoutMs: 60_000,
      operationTimeoutMs: 120_000,
    },
  });

  it('answers OVERLOADED, not the cached answer of a token the partner has since refused, and then its 401', async () => {
    const kit = kitOf();
    const token = 'stale-token-revoked';
    const platformId = platformIdWithSize(49);
    await readThenOutlive(kit, 49, token);
    const callsOfToken = () => kit.simulator.callsOf('readInventory').filter((call) => call.query.access_token === kit.simulator.fingerprint(token)).length;
    expect(callsOfToken()).toBe(1);
    // The token is revoked: the partner answers it 401 from now on. Two other callers hold the
    // inventory's share of the connections meanwhile.
    kit.simulator.configure({ latencyMs: 3000 });
    kit.simulator.injectFault({ kind: 'http-401', operation: 'readInventory', platformId });
    const holders = ['stale-holder-one', 'stale-holder-two'].map((holder) => read(kit, 49, holder));
    await vi.waitFor(() => expect(kit.simulator.callsOf('readInventory')).toHaveLength(3), { timeout: 30_000, interval: 20 });
    // No connection came free for the token's read: the service refused to ask, so nothing says
    // the partner failed, and the stale answer is not served.
    const refused = await read(kit, 49, token);
    expect(new Set(errorCodes(refused.body))).toEqual(new Set(['OVERLOADED']));
    expect(refused.body.extensions?.stale).toBeUndefined();
    expect(refused.age).toBeNull();
    expect(callsOfToken()).toBe(1);
    await Promise.all(holders);
    // Asked once a connection is free, the partner's 401 is the answer.
    const answered = await read(kit, 49, token);
    expect(new Set(errorCodes(answered.body))).toEqual(new Set(['UNAUTHENTICATED']));
    expect(answered.body.extensions?.stale).toBeUndefined();
    expect(callsOfToken()).toBe(2);
  });
});

describe('stale-if-error once the partner stops', () => {
  it('serves the answer of 2 s ago after the TTL, with the partner stopped', async () => {
    const kit = await startTestkit({ config: { responseCacheTtlMs: TTL_MS, responseCacheStaleIfErrorMs: 300_000 } });
    try {
      const fresh = await readThenOutlive(kit, 44, 'stale-token-five', 2000);
      await kit.simulator.close();
      expectStale(await read(kit, 44, 'stale-token-five'), fresh, 2);
    } finally {
      await kit.close();
    }
  });
});

describe('stale-if-error when the partner does not answer in time', () => {
  it('serves the last good answer in place of UPSTREAM_TIMEOUT', async () => {
    // Seconds of margin for the fresh read on a loaded machine; the hung partner answers far later.
    const kit = await startTestkit({ config: { responseCacheTtlMs: TTL_MS, responseCacheStaleIfErrorMs: 300_000, upstreamTimeoutMs: 4000 } });
    try {
      const fresh = await readThenOutlive(kit, 47, 'stale-token-nine');
      kit.simulator.injectFault({ kind: 'slow', operation: 'readInventory', delayMs: 60_000 });
      expectStale(await read(kit, 47, 'stale-token-nine'), fresh, 1);
    } finally {
      await kit.close();
    }
  });
});

describe('stale-if-error past its window', () => {
  const kitOf = useTestkit({ config: { responseCacheTtlMs: TTL_MS, responseCacheStaleIfErrorMs: 1000 } });

  it('answers the outage once the window after the TTL has passed', async () => {
    const kit = kitOf();
    // The clock stands still: the answer is stored at this instant.
    const storedAt = Date.now();
    const fresh = await read(kit, 45, 'stale-token-six');
    kit.simulator.injectFault({ kind: 'http-503', operation: 'readInventory' });
    // The window's last millisecond still has it; the next one does not.
    vi.setSystemTime(storedAt + TTL_MS + 1000);
    expectStale(await read(kit, 45, 'stale-token-six'), fresh, 2);
    vi.setSystemTime(storedAt + TTL_MS + 1001);
    const outage = await read(kit, 45, 'stale-token-six');
    expect(new Set(errorCodes(outage.body))).toEqual(new Set(['UPSTREAM_UNAVAILABLE']));
    expect(outage.body.extensions?.stale).toBeUndefined();
  });
});

describe('stale-if-error through Redis', () => {
  let redis: RedisServer;
  let a: Testkit;
  let b: Testkit;
  beforeAll(async () => {
    redis = await startRedisServer();
    ({ a, b } = await startTwoReplicas(redis.url, { responseCacheTtlMs: TTL_MS, responseCacheStaleIfErrorMs: 300_000 }));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  it("serves on another replica the same credential's answer, marked stale, and never another credential's", async () => {
    const fresh = await readThenOutlive(a, 46, 'stale-token-seven');
    a.simulator.injectFault({ kind: 'http-503', operation: 'readInventory' });
    expectStale(await read(b, 46, 'stale-token-seven'), fresh, 1);
    const other = await read(b, 46, 'stale-token-eight');
    expect(new Set(errorCodes(other.body))).toEqual(new Set(['UPSTREAM_UNAVAILABLE']));
    expect(other.body.extensions?.stale).toBeUndefined();
  });
});
