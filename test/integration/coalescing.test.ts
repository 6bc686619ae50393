// One partner call per burst, over real HTTP, counted at the simulator: concurrent identical reads
// of one user share one call whatever fields each operation selects, with the response cache off
// and on; two users never share a call or an answer; callers that leave do not cut the call for
// the others; a failed call answers every waiter alike; the calls saved are counted in /metrics.
// The simulator's latency only keeps the burst's call in flight while the burst arrives: nothing
// here asserts a duration.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { CalculateListingFeeDocument } from '../generated/graphql.js';
import { errorCodes, expectNoGraphQLErrors, useTestkit, type GraphQLResponse, type Testkit } from '../support/testkit.js';
import { DEMO_APP_ID, platformIdWithSize } from '../../src/simulator/data.js';

/** Long next to the time a loaded machine takes to send a burst; far inside every timeout below. */
const LATENCY_MS = 3000;
const TIMEOUTS = { upstreamTimeoutMs: 60_000, operationTimeoutMs: 120_000 };
const PLATFORM_ID = platformIdWithSize(30);
const TOKEN = 'burst-user-token';

const TOTAL_AND_IDS = `query A($p: String!) { inventory(platformId: $p, appId: ${DEMO_APP_ID}) { totalCount items(first: 5) { nodes { id } } } }`;
const NAMES = `query B($p: String!) { inventory(platformId: $p, appId: ${DEMO_APP_ID}) { items(first: 5) { nodes { name assetId } } } }`;

async function read<T = { inventory: Record<string, unknown> }>(
  kit: Testkit,
  query: string,
  token = TOKEN,
  signal?: AbortSignal,
): Promise<GraphQLResponse<T>> {
  const response = await fetch(kit.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables: { p: PLATFORM_ID } }),
    signal,
  });
  return (await response.json()) as GraphQLResponse<T>;
}

/** A counter's value in the service's /metrics, 0 when it has no such series. */
async function counter(kit: Testkit, name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${kit.url}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith(`${name}{${labels}}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

const coalesced = (kit: Testkit, operation = 'readInventory') =>
  counter(kit, 'tradegraph_upstream_calls_coalesced_total', `operation="${operation}"`);
const inventoryCalls = (kit: Testkit) => kit.simulator.callsOf('readInventory');

describe('with the response cache off', () => {
  const kit = useTestkit({ simulator: { latencyMs: LATENCY_MS }, config: { ...TIMEOUTS } });

  it('100 identical reads of one user at once make at most 2 partner calls, and every one is answered', async () => {
    const before = await coalesced(kit());
    const results = await Promise.all(Array.from({ length: 100 }, () => read(kit(), TOTAL_AND_IDS)));
    for (const result of results) expectNoGraphQLErrors(result);
    expect(new Set(results.map((result) => JSON.stringify(result.data))).size).toBe(1);
    expect(results[0]!.data).toMatchObject({ inventory: { totalCount: 30 } });
    const calls = inventoryCalls(kit()).length;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(2);
    expect((await coalesced(kit())) - before).toBe(100 - calls);
  });

  it("counts a shared call's partner work once: in the cost of the read that made it, none in those that joined it", async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => read<{ inventory: Record<string, unknown> }>(kit(), TOTAL_AND_IDS)));
    for (const result of results) expectNoGraphQLErrors(result);
    const costs = results.map((result) => (result.extensions as { cost: { requestedQueryCost: number; actualQueryCost: number } }).cost);
    const calls = inventoryCalls(kit()).length;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThan(5);
    // Every call is the same page: the work of one, counted by the reads that made the calls.
    const work = Math.max(...costs.map((cost) => cost.actualQueryCost));
    expect(work).toBeGreaterThan(1);
    expect(costs.filter((cost) => cost.actualQueryCost === work)).toHaveLength(calls);
    expect(costs.filter((cost) => cost.actualQueryCost === 0)).toHaveLength(5 - calls);
    expect(costs.reduce((sum, cost) => sum + cost.actualQueryCost, 0)).toBe(calls * work);
    // Each is still priced, and charged, as it would be alone: the charge comes before the call.
    expect(new Set(costs.map((cost) => cost.requestedQueryCost)).size).toBe(1);
  });

  it('two users reading the same page at once never share a call or an answer', async () => {
    // The simulator refuses a token starting 'forbidden' with HTTP 403: its answer is its own.
    const [allowed, refused] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => read(kit(), TOTAL_AND_IDS, 'first-user-token'))),
      Promise.all(Array.from({ length: 20 }, () => read(kit(), TOTAL_AND_IDS, 'forbidden-second-user'))),
    ]);
    for (const result of allowed) expectNoGraphQLErrors(result);
    for (const result of refused) expect(new Set(errorCodes(result))).toEqual(new Set(['FORBIDDEN']));
    const tokens = inventoryCalls(kit()).map((call) => call.query.access_token);
    const sentAs = (token: string) => kit().simulator.fingerprint(token);
    expect(new Set(tokens)).toEqual(new Set(['first-user-token', 'forbidden-second-user'].map(sentAs)));
    for (const token of ['first-user-token', 'forbidden-second-user']) {
      expect(tokens.filter((sent) => sent === sentAs(token)).length).toBeLessThanOrEqual(2);
    }
  });

  it('25 of 50 waiting callers leaving does not cut the call for the other 25', async () => {
    const before = await coalesced(kit());
    const leaving = new AbortController();
    const staying = Array.from({ length: 25 }, () => read(kit(), TOTAL_AND_IDS));
    const left = Array.from({ length: 25 }, () => read(kit(), TOTAL_AND_IDS, TOKEN, leaving.signal).catch((error: Error) => error));
    // Every caller waits on the call in flight (sent, or coalesced onto it) before half of them leave.
    await vi.waitFor(async () => expect(inventoryCalls(kit()).length + (await coalesced(kit())) - before).toBe(50), {
      timeout: 30_000,
      interval: 50,
    });
    leaving.abort();
    for (const result of await Promise.all(left)) expect(result).toBeInstanceOf(Error);
    for (const result of await Promise.all(staying)) expectNoGraphQLErrors(result);
    expect(inventoryCalls(kit())).toHaveLength(1);
    expect(await counter(kit(), 'tradegraph_upstream_calls_total', 'operation="readInventory",outcome="cancelled",upstream_error_code=""')).toBe(0);
  });

  it('a failed shared call answers every waiter with the same code', async () => {
    kit().simulator.injectFault({ operation: 'readInventory', kind: 'http-500' });
    const results = await Promise.all(Array.from({ length: 30 }, () => read(kit(), NAMES)));
    for (const result of results) expect(errorCodes(result)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(inventoryCalls(kit()).length).toBeLessThanOrEqual(2);
  });

  it('identical listing-fee calls share one call: the same items, the same merchant key', async () => {
    const before = await coalesced(kit(), 'calculateListingFee');
    const release = kit().simulator.holdListingFees();
    const input = { items: [{ price: 500, token: 'tok_730_1' }] };
    const burst = Array.from({ length: 20 }, (_, n) => kit().execute(CalculateListingFeeDocument, { input }, { token: `fee-caller-${n}` }));
    const feeCalls = () => kit().simulator.callsOf('calculateListingFee').length;
    await vi.waitFor(async () => expect(feeCalls() + (await coalesced(kit(), 'calculateListingFee')) - before).toBe(20), {
      timeout: 30_000,
      interval: 50,
    });
    release();
    for (const result of await Promise.all(burst)) expectNoGraphQLErrors(result);
    expect(feeCalls()).toBe(1);
  });
});

describe('with the response cache on', () => {
  const kit = useTestkit({ simulator: { latencyMs: LATENCY_MS }, config: { ...TIMEOUTS, responseCacheTtlMs: 60_000 } });

  it('100 identical reads of one user at once make at most 2 partner calls', async () => {
    const results = await Promise.all(Array.from({ length: 100 }, () => read(kit(), TOTAL_AND_IDS)));
    for (const result of results) expectNoGraphQLErrors(result);
    expect(inventoryCalls(kit()).length).toBeLessThanOrEqual(2);
  });

  it('100 reads of one page with two field selections make at most 2 partner calls', async () => {
    const results = await Promise.all(Array.from({ length: 100 }, (_, n) => read(kit(), n % 2 === 0 ? TOTAL_AND_IDS.replace('query A', 'query C') : NAMES)));
    for (const result of results) expectNoGraphQLErrors(result);
    const calls = inventoryCalls(kit());
    expect(calls.length).toBeLessThanOrEqual(2);
    // Both selections asked the partner the same page.
    expect(new Set(calls.map((call) => JSON.stringify(call.query))).size).toBe(1);
  });
});

describe("a shared call and its callers' shares of the connections", () => {
  // Eight connections, two for one caller: a client without a token fills its share with held fee
  // calls, and its third call waits for a connection of that share.
  const kit = useTestkit({ config: { ...TIMEOUTS, production: true, upstreamConnections: 8, upstreamConnectionWaitMs: 1000 } });
  const fee = (price: number, token: string | null, requestId?: string) =>
    kit().execute(
      CalculateListingFeeDocument,
      { input: { items: [{ price, token: 'tok_730_1' }] } },
      { token, headers: requestId ? { 'x-request-id': requestId } : {} },
    );
  const feeCalls = () => kit().simulator.callsOf('calculateListingFee').length;

  it("admits a call joined while it waits under the joiner's own share: the joiner is never refused for the starter's", async () => {
    const release = kit().simulator.holdListingFees();
    try {
      const held = [fee(510, null), fee(520, null)];
      await vi.waitFor(() => expect(feeCalls()).toBe(2), { timeout: 30_000, interval: 20 });
      const before = await coalesced(kit(), 'calculateListingFee');
      // The same fee, by the client without a token and then by a user with one: the user joins.
      const starter = fee(530, null, 'fee-share-starter');
      await sleep(200);
      const joiner = fee(530, 'fee-share-user-token', 'fee-share-joiner');
      await vi.waitFor(async () => expect((await coalesced(kit(), 'calculateListingFee')) - before).toBe(1), { timeout: 30_000, interval: 20 });
      // The user's share has room: the shared call goes to the partner now, not after the
      // starter's wait runs out as OVERLOADED; it is the starter's call (its request id).
      await vi.waitFor(() => expect(feeCalls()).toBe(3), { timeout: 5_000, interval: 20 });
      expect(kit().simulator.callsOf('calculateListingFee')[2]!.requestId).toBe('fee-share-starter');
      release();
      const [joined, started, ...others] = await Promise.all([joiner, starter, ...held]);
      expectNoGraphQLErrors(joined);
      expectNoGraphQLErrors(started);
      for (const result of others) expectNoGraphQLErrors(result);
      expect(feeCalls()).toBe(3);
    } finally {
      release();
    }
  });
});
