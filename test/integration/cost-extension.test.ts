// Cost and budget in every answer, over real HTTP: `extensions.cost` with Shopify's names
// (requestedQueryCost, actualQueryCost, throttleStatus) and, with a rate limit, the RateLimit-Policy
// and RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) on every answer, 429 included.
// An answer from the response cache (in-process or Redis) never carries a stored budget, and a
// @defer stream carries the cost on its first payload and the work done on its last.
import { parse, print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationCost } from '../../src/cost/price.js';
import { buildSchema } from '../../src/schema.js';
import { DEMO_APP_ID, DEMO_PLATFORM_ID, platformIdWithSize } from '../../src/simulator/data.js';
import { CalculateListingFeeDocument, InventoryPageDocument, InventoryWithDeferredFeesDocument } from '../generated/graphql.js';
import { payloadsOf, type IncrementalPayload } from '../support/incremental.js';
import { redisSeenBy, startRedisServer, type RedisServer } from '../support/redis.js';
import { errorCodes, startTestkit, useTestkit, type Testkit } from '../support/testkit.js';

interface Cost {
  requestedQueryCost: number | null;
  actualQueryCost?: number;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}
interface Answer {
  status: number;
  headers: Headers;
  body: { data?: unknown; errors?: { extensions?: Record<string, unknown> }[]; extensions?: { cost?: Cost; responseCache?: { hit: boolean } } };
}

const schema = buildSchema();
/** A page of `first: 5` of a 3-item inventory: priced for 5 items, answered with 3. */
const page = { platformId: platformIdWithSize(3), appId: 730, first: 5 };
const pagePrice = operationCost(schema, InventoryPageDocument, undefined, page)!;

async function send(kit: Testkit, body: unknown, token: string | null = 'cost-token', headers: Record<string, string> = {}): Promise<Answer> {
  const response = await kit.post(body, { token, headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Answer['body'] };
}
/** The `r` (remaining) parameter of the RateLimit field. */
const remainingOf = (headers: Headers) => Number(/^"default";r=(\d+);t=\d+$/.exec(headers.get('ratelimit') ?? '')?.[1]);
const readPage = (kit: Testkit, token?: string) => send(kit, { query: print(InventoryPageDocument), variables: page }, token);

describe('extensions.cost without a rate limit', () => {
  const kit = useTestkit();

  it('tells the price and the partner work done, and no budget or RateLimit field', async () => {
    const { body, headers } = await readPage(kit());
    expect(body.errors).toBeUndefined();
    const cost = body.extensions!.cost!;
    expect(cost.requestedQueryCost).toBe(pagePrice);
    // One partner call answering 3 items, of the 5 priced.
    expect(cost.actualQueryCost).toBe(1 + 3);
    expect(cost.actualQueryCost).toBeLessThan(pagePrice);
    expect(cost.throttleStatus).toBeUndefined();
    expect(headers.get('ratelimit')).toBeNull();
    expect(headers.get('ratelimit-policy')).toBeNull();
  });

  it('counts no partner work for a fee mutation its resolver refuses', async () => {
    const { body } = await send(kit(), { query: print(CalculateListingFeeDocument), variables: { input: { items: [{ price: -5 }] } } });
    expect(errorCodes(body as never)).toEqual(['BAD_USER_INPUT']);
    expect(body.extensions!.cost).toEqual({ requestedQueryCost: 2, actualQueryCost: 0 });
    expect(kit().simulator.callsOf('calculateListingFee')).toHaveLength(0);
  });

  it('tells a cost-limit refusal its price, the figure its message names, and no partner work', async () => {
    const pages = Array.from({ length: 11 }, (_, n) => `a${n}: inventory(platformId: "${page.platformId}", appId: 730) { items(first: 100) { nodes { assetId } } }`);
    const query = `{ ${pages.join(' ')} }`;
    const { status, body } = await send(kit(), { query });
    expect(status).toBe(400);
    expect(errorCodes(body as never)).toEqual(['OPERATION_LIMIT_EXCEEDED']);
    const price = operationCost(schema, parse(query), undefined, {})!;
    expect(price).toBeGreaterThan(1000);
    expect((body.errors![0] as { message: string }).message).toContain(`would cost ${price} units`);
    expect(body.extensions!.cost).toEqual({ requestedQueryCost: price, actualQueryCost: 0 });
    expect(kit().simulator.callsOf('readInventory')).toHaveLength(0);
  });
});

describe('extensions.cost and the RateLimit fields with a rate limit', () => {
  const MAX = 30;
  const kit = useTestkit({ config: { rateLimit: { max: MAX, windowMs: 60_000 } } });

  it("reports the caller's bucket after each operation, in extensions.cost and in the RateLimit fields", async () => {
    const first = await readPage(kit(), 'bucket-token');
    expect(first.body.extensions!.cost!.throttleStatus).toEqual({ maximumAvailable: MAX, currentlyAvailable: MAX - pagePrice, restoreRate: MAX / 60 });
    expect(first.headers.get('ratelimit-policy')).toBe(`"default";q=${MAX};w=60`);
    const field = /^"default";r=(\d+);t=(\d+)$/.exec(first.headers.get('ratelimit') ?? '');
    expect(field, first.headers.get('ratelimit') ?? 'no RateLimit field').not.toBeNull();
    expect(Number(field![1])).toBe(MAX - pagePrice);
    expect(Number(field![2])).toBeGreaterThanOrEqual(1);
    expect(Number(field![2])).toBeLessThanOrEqual(60);

    const second = await readPage(kit(), 'bucket-token');
    expect(second.body.extensions!.cost!.throttleStatus!.currentlyAvailable).toBe(MAX - 2 * pagePrice);
    expect(second.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${MAX - 2 * pagePrice};t=\\d+$`));
    // Another caller's bucket is its own.
    expect((await readPage(kit(), 'other-bucket-token')).body.extensions!.cost!.throttleStatus!.currentlyAvailable).toBe(MAX - pagePrice);
  });

  it('lets a front end on another origin read the fields (CORS exposes them)', async () => {
    const { headers } = await send(kit(), { query: '{ __typename }' }, 'cors-token', { origin: 'https://shop.example.com' });
    const exposed = (headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy', 'retry-after']));
    expect(headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
  });

  it('carries the fields on a refusal (429 with Retry-After) and on an answer refused before execution', async () => {
    let refused: Answer | undefined;
    for (let sent = 0; sent < MAX && !refused; sent++) {
      const answer = await readPage(kit(), 'spent-token');
      if (answer.status === 429) refused = answer;
    }
    expect(refused).toBeDefined();
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused!.headers.get('ratelimit-policy')).toBe(`"default";q=${MAX};w=60`);
    expect(refused!.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
    expect(remainingOf(refused!.headers)).toBeLessThan(pagePrice);
    expect(refused!.body.extensions?.cost).toEqual({
      requestedQueryCost: pagePrice,
      actualQueryCost: 0,
      throttleStatus: { maximumAvailable: MAX, currentlyAvailable: remainingOf(refused!.headers), restoreRate: MAX / 60 },
    });
    // A document that does not validate spends nothing, and still says what is left.
    const invalid = await send(kit(), { query: '{ nothingHere }' }, 'spent-token');
    expect(invalid.status).toBe(400);
    expect(remainingOf(invalid.headers)).toBe(remainingOf(refused!.headers));
  });
});

describe("the RateLimit fields on the refusals the node:http server makes before Yoga", () => {
  const MAX = 30;
  // Production, for its 406 help page to a browser; one operation in flight, for the 503.
  const kit = useTestkit({
    config: { production: true, rateLimit: { max: MAX, windowMs: 60_000 }, maxBodyBytes: 1024, maxOperationsInFlight: 1, upstreamTimeoutMs: 60_000, operationTimeoutMs: 120_000 },
  });
  const spentBy = async (token: string) => {
    const read = await readPage(kit(), token);
    expect(read.status).toBe(200);
    return remainingOf(read.headers);
  };
  const expectBudget = (headers: Headers, remaining: number) => {
    expect(headers.get('ratelimit-policy')).toBe(`"default";q=${MAX};w=60`);
    expect(remainingOf(headers)).toBe(remaining);
  };

  it("carries the caller's own budget on a 413 and on the production help page's 406", async () => {
    const left = await spentBy('large-body-token');
    expect(left).toBe(MAX - pagePrice);
    const tooLarge = await kit().post({ query: `{ __typename }${' '.repeat(2048)}` }, { token: 'large-body-token' });
    expect(tooLarge.status).toBe(413);
    expectBudget(tooLarge.headers, left);
    const browser = await fetch(kit().graphqlUrl, { headers: { accept: 'text/html', authorization: 'Bearer large-body-token' } });
    expect(browser.status).toBe(406);
    expectBudget(browser.headers, left);
  });

  it("carries the caller's own budget on a 503 shed at MAX_OPERATIONS_IN_FLIGHT", async () => {
    const left = await spentBy('shed-token');
    // The one admitted operation waits for a listing fee the simulator holds: it stays in flight.
    const release = kit().simulator.holdListingFees();
    const held = kit().post({ query: `{ inventory(platformId: "${page.platformId}", appId: 730) { items(first: 1) { nodes { listingFee(price: 1000) { fee } } } } }` }, { token: 'holder-token' });
    try {
      await expect.poll(() => kit().simulator.callsOf('calculateListingFee').length).toBe(1);
      const shed = await kit().post({ query: '{ __typename }' }, { token: 'shed-token' });
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('1');
      expectBudget(shed.headers, left);
    } finally {
      release();
    }
    expect((await held).status).toBe(200);
  });
});

describe('extensions.cost with the response cache (in-process)', () => {
  const MAX = 40;
  const kit = useTestkit({ config: { responseCacheTtlMs: 60_000, rateLimit: { max: MAX, windowMs: 60_000 } } });

  it('gives each answer from the cache the budget of its own moment, and no partner work', async () => {
    const miss = await readPage(kit(), 'cached-cost-token');
    expect(miss.body.extensions!.responseCache).toMatchObject({ hit: false, didCache: true });
    expect(miss.body.extensions!.cost).toMatchObject({ requestedQueryCost: pagePrice, actualQueryCost: 4 });
    const left = MAX - pagePrice;
    for (let hit = 1; hit <= 2; hit++) {
      const again = await readPage(kit(), 'cached-cost-token');
      expect(again.body.extensions!.responseCache).toMatchObject({ hit: true });
      expect(again.body.extensions!.cost).toEqual({
        requestedQueryCost: 1,
        actualQueryCost: 0,
        throttleStatus: { maximumAvailable: MAX, currentlyAvailable: left - hit, restoreRate: MAX / 60 },
      });
      expect(again.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${left - hit};t=\\d+$`));
    }
    expect(kit().simulator.callsOf('readInventory')).toHaveLength(1);
  });
});

describe('extensions.cost with the response cache (in-process) in production', () => {
  // Production answers a hit with the cache's own object (no metadata copy): the cost must not be written into it.
  const MAX = 40;
  const kit = useTestkit({ config: { production: true, responseCacheTtlMs: 60_000, rateLimit: { max: MAX, windowMs: 60_000 } } });

  it('gives each hit the budget of its own moment', async () => {
    const miss = await readPage(kit(), 'production-cost-token');
    const left = miss.body.extensions!.cost!.throttleStatus!.currentlyAvailable;
    for (let hit = 1; hit <= 3; hit++) {
      const again = await readPage(kit(), 'production-cost-token');
      expect(again.body.data).toEqual(miss.body.data);
      expect(again.body.extensions).toEqual({
        cost: { requestedQueryCost: 1, actualQueryCost: 0, throttleStatus: { maximumAvailable: MAX, currentlyAvailable: left - hit, restoreRate: MAX / 60 } },
      });
    }
    expect(kit().simulator.callsOf('readInventory')).toHaveLength(1);
  });
});

describe('extensions.cost with the response cache in Redis', () => {
  let redis: RedisServer;
  let kit: Testkit;
  beforeAll(async () => {
    redis = await startRedisServer();
    kit = await startTestkit({ config: { redisUrl: redis.url, redisCommandTimeoutMs: 5000, responseCacheTtlMs: 60_000, rateLimit: { max: 40, windowMs: 60_000 } } });
    await redisSeenBy('up', kit);
  });
  afterAll(async () => {
    await kit?.close();
    await redis?.stop();
  });

  it('stores no cost or budget with the answer, and a hit reports the budget of its own moment', async () => {
    const miss = await readPage(kit, 'redis-cost-token');
    const left = miss.body.extensions!.cost!.throttleStatus!.currentlyAvailable;
    const stored = (await redis.dump()).filter(({ key }) => key.startsWith('tradegraph:response:'));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.value).not.toContain('"cost"');
    expect(stored[0]!.value).not.toContain('throttleStatus');
    const hit = await readPage(kit, 'redis-cost-token');
    expect(hit.body.extensions!.responseCache).toMatchObject({ hit: true });
    expect(hit.body.extensions!.cost!.throttleStatus!.currentlyAvailable).toBe(left - 1);
  });
});

describe('extensions.cost of a @defer stream', () => {
  const kit = useTestkit({ config: { rateLimit: { max: 100, windowMs: 60_000 } } });

  it('is on the first payload with the budget, and the work done on the last', async () => {
    const variables = { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID, first: 5, price: 10_000 };
    const price = operationCost(schema, InventoryWithDeferredFeesDocument, undefined, variables)!;
    const response = await kit().post({ query: print(InventoryWithDeferredFeesDocument), variables }, { headers: { accept: 'multipart/mixed' } });
    expect(response.status).toBe(200);
    expect(remainingOf(response.headers)).toBe(100 - price);
    const payloads: IncrementalPayload[] = [];
    for await (const payload of payloadsOf(response)) payloads.push(payload);
    expect(payloads.length).toBeGreaterThan(1);
    const costs = payloads.map((payload) => (payload as { extensions?: { cost?: Cost } }).extensions?.cost);
    expect(costs[0]).toEqual({ requestedQueryCost: price, throttleStatus: { maximumAvailable: 100, currentlyAvailable: 100 - price, restoreRate: 100 / 60 } });
    expect(costs.slice(1, -1).every((cost) => cost === undefined)).toBe(true);
    const last = costs.at(-1)!;
    // The page (one call, 5 items) and the fees (one call, 5 items), within the price.
    expect(last.actualQueryCost).toBe(Math.min(price, 1 + 5 + 1 + 5));
    expect(payloads.at(-1)!.hasNext).toBe(false);
  });
});
