// Listing fees over real HTTP: order, batching across fields and inventories, the merchant key,
// and the ways the partner's answer can fail to match the request.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CalculateListingFeeDocument,
  InventoryWithFeesDocument,
  TwoInventoriesWithFeesDocument,
} from '../generated/graphql.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, useTestkit } from '../support/testkit.js';
import { DEMO_APP_KEY, assetIdAt, listingFeeFor, platformIdWithSize } from '../../src/simulator/data.js';

const APP_ID = 730;
const withSize = platformIdWithSize;
const token = (assetId: string) => `tok_${APP_ID}_${assetId}`;

const kit = useTestkit();

const readFixture = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../fixtures/partner/${name}`, import.meta.url), 'utf8')) as T;

const feeCalls = () => kit().simulator.callsOf('calculateListingFee');

describe('calculateListingFee', () => {
  it('answers one fee per input item, in input order', async () => {
    const items = [
      { price: 10_000, token: token('111'), styleToken: 'sty_100007' },
      { price: 50 },
      { price: 2_000_000, token: token('222') },
      { price: 99, styleToken: 'sty_100001' },
    ];
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items } });
    expectNoGraphQLErrors(result);
    expect(result.data.calculateListingFee.fees).toEqual(items.map((item) => listingFeeFor(item)));
    expect(result.data.calculateListingFee.fees.map((fee) => fee.assetId)).toEqual(['111', null, '222', null]);
    expect(feeCalls()).toHaveLength(1);
    expect(feeCalls()[0]!.batchSize).toBe(4);
  });

  it('sends identical entries once and still answers each in place', async () => {
    const repeated = { price: 500, token: token('7') };
    const items = [repeated, { price: 600 }, repeated, repeated];
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items } });
    expectNoGraphQLErrors(result);
    expect(result.data.calculateListingFee.fees).toEqual(items.map((item) => listingFeeFor(item)));
    expect(feeCalls()[0]!.batchSize).toBe(2);
  });

  it('splits 100 items into POSTs of at most LISTING_FEE_BATCH_MAX', async () => {
    const items = Array.from({ length: 100 }, (_, n) => ({ price: 100 + n, token: token(String(n)) }));
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items } });
    expectNoGraphQLErrors(result);
    expect(result.data.calculateListingFee.fees.map((fee) => fee.assetId)).toEqual(items.map((_, n) => String(n)));
    expect(feeCalls().map((call) => call.batchSize)).toEqual([50, 50]);
  });

  it.each([
    ['no items', []],
    ['a zero price', [{ price: 10 }, { price: 0 }]],
    ['a negative price', [{ price: -5 }]],
    ['an empty token', [{ price: 5, token: '' }]],
  ])('refuses %s as BAD_USER_INPUT with no upstream call', async (_case, items) => {
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items } });
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.data).toBeNull();
    expect(feeCalls()).toHaveLength(0);
  });

  // More items than one mutation takes is refused as execution starts, before it is priced and
  // charged (docs/operation-limits.md): no data at all, where a refusal by the resolver gives null.
  it('refuses 101 items as BAD_USER_INPUT before anything runs', async () => {
    const items = Array.from({ length: 101 }, () => ({ price: 1 }));
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items } });
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.data).toBeUndefined();
    expect(feeCalls()).toHaveLength(0);
  });

  // Entries the answer cannot tell apart (one token, or none, at several prices) each take a call
  // of their own, with the merchant's key: ten such of each identity at most, not 100.
  it('takes ten items without a token at distinct prices, in ten calls, and the same price many times in one', async () => {
    const items = Array.from({ length: 10 }, (_, n) => ({ price: 100 + n }));
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items } });
    expectNoGraphQLErrors(result);
    expect(result.data.calculateListingFee.fees).toEqual(items.map((item) => listingFeeFor(item)));
    expect(feeCalls()).toHaveLength(10);
    kit().simulator.reset();
    const same = Array.from({ length: 100 }, () => ({ price: 100 }));
    expectNoGraphQLErrors(await kit().execute(CalculateListingFeeDocument, { input: { items: same } }));
    expect(feeCalls()).toHaveLength(1);
  });

  it.each([
    ['eleven items without a token', Array.from({ length: 11 }, (_, n) => ({ price: 100 + n }))],
    ['eleven items of one token', Array.from({ length: 11 }, (_, n) => ({ price: 100 + n, token: token('7') }))],
    ['one asset at eleven prices among others', [...Array.from({ length: 11 }, (_, n) => ({ price: 100 + n, assetId: '42' })), { price: 5, token: token('8') }]],
  ])('refuses %s, which would need eleven partner calls, as BAD_USER_INPUT with no upstream call', async (_case, items) => {
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items } });
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0]!.message).toMatch(/^'input\.items' holds more than 10 items that .* each needs a partner call of its own/);
    expect(feeCalls()).toHaveLength(0);
  });

  it('names the offending item', async () => {
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items: [{ price: 10 }, { price: 0 }] } });
    expect(result.errors![0]!.message).toBe("'input.items[1].price' must be a positive integer; got 0.");
  });
});

describe('InventoryItem.listingFee', () => {
  it('sends each item’s own token and styleToken with the price, and lands each fee on its item', async () => {
    const result = await kit().execute(InventoryWithFeesDocument, { platformId: withSize(30), appId: APP_ID, first: 30, price: 10_000 });
    expectNoGraphQLErrors(result);
    const nodes = result.data.inventory!.items.nodes;
    expect(nodes).toHaveLength(30);
    for (const node of nodes) {
      expect(node.listingFee!.assetId).toBe(node.assetId);
      expect(node.listingFee!.fee).toBe(250);
    }
    expect(feeCalls()).toHaveLength(1);
    expect(feeCalls()[0]!.batchSize).toBe(30);
  });

  it('batches 120 fee fields across two inventories into ceil(120 / 50) POSTs', async () => {
    const [a, b] = [withSize(60), withSize(75)];
    const result = await kit().execute(TwoInventoriesWithFeesDocument, { a, b, appId: APP_ID, first: 60, price: 12_345 });
    expectNoGraphQLErrors(result);
    const expectedAssets = (platformId: string) => Array.from({ length: 60 }, (_, n) => assetIdAt(platformId, APP_ID, n));
    for (const [alias, platformId] of [['a', a], ['b', b]] as const) {
      const nodes = result.data[alias]!.items.nodes;
      expect(nodes.map((node) => node.assetId)).toEqual(expectedAssets(platformId));
      for (const node of nodes) expect(node.listingFee!.assetId).toBe(node.assetId);
    }
    const sizes = feeCalls().map((call) => call.batchSize!);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(120);
    expect(sizes.length).toBeLessThanOrEqual(Math.ceil(120 / 50));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(50);
  });

  it('refuses a non-positive price without calling upstream', async () => {
    const result = await kit().execute(InventoryWithFeesDocument, { platformId: withSize(3), appId: APP_ID, first: 3, price: 0 });
    expect(new Set(errorCodes(result))).toEqual(new Set(['BAD_USER_INPUT']));
    expect(result.data!.inventory!.items.nodes.map((node) => node.listingFee)).toEqual([null, null, null]);
    expect(feeCalls()).toHaveLength(0);
  });
});

describe('the merchant key', () => {
  it('sends only the configured key as the app-key header, never one a client sent', async () => {
    const result = await kit().execute(
      CalculateListingFeeDocument,
      { input: { items: [{ price: 150 }] } },
      { headers: { 'app-key': 'client-chosen-key' } },
    );
    expectNoGraphQLErrors(result);
    const [call] = feeCalls();
    expect(call!.appKeyHeader).toBe(kit().simulator.fingerprint(DEMO_APP_KEY));
    expect(call!.appKeyQuery).toBeNull();
  });

  it('turns a refused key into UPSTREAM_ERROR with the partner’s code, and leaks the key nowhere', async () => {
    kit().simulator.configure({ appKey: 'the-partner-wants-another-key' });
    const response = await kit().post({
      query: 'mutation { calculateListingFee(input: { items: [{ price: 150 }] }) { fees { fee } } }',
    });
    const text = await response.text();
    const result = JSON.parse(text) as { errors: Array<{ extensions: { code: string; upstream: Record<string, unknown> } }> };
    expect(result.errors[0]!.extensions.code).toBe('UPSTREAM_ERROR');
    expect(result.errors[0]!.extensions.upstream).toEqual({
      errorCode: 40_101,
      errorCodeStr: 'APP_KEY_INVALID',
      errorMsg: 'app-key invalid',
      errorData: null,
    });
    expect(text).not.toContain(DEMO_APP_KEY);
    expect(kit().logs.join('\n')).not.toContain(DEMO_APP_KEY);
  });
});

describe('answers that cannot be matched', () => {
  it('fails every entry of a chunk whose result count differs, rather than misplace a fee', async () => {
    kit().simulator.injectFault({ kind: 'count-mismatch', operation: 'calculateListingFee' });
    const items = [
      { price: 150, token: token('1') },
      { price: 250, token: token('2') },
    ];
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items } });
    expect(errorCodes(result)).toEqual(['UPSTREAM_BAD_RESPONSE']);
    expect(result.errors![0]!.message).toContain('2 items were sent but 1 results came back');
  });

  it('lands each item’s fee on it by assetId when the answer comes in another order', async () => {
    kit().simulator.injectFault({ kind: 'reversed-results', operation: 'calculateListingFee' });
    const result = await kit().execute(InventoryWithFeesDocument, { platformId: withSize(3), appId: APP_ID, first: 3, price: 150 });
    expectNoGraphQLErrors(result);
    const nodes = result.data.inventory!.items.nodes;
    expect(nodes.map((node) => node.listingFee!.assetId)).toEqual([0, 1, 2].map((n) => assetIdAt(withSize(3), APP_ID, n)));
  });

  it('answers the mutation in input order, by each item’s assetId, when the answer comes reversed', async () => {
    kit().simulator.injectFault({ kind: 'reversed-results', operation: 'calculateListingFee' });
    const assets = ['31', '32', '33'];
    const items = assets.map((assetId, n) => ({ price: 1000 * (n + 1), token: token(assetId), assetId }));
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items } });
    expectNoGraphQLErrors(result);
    expect(result.data.calculateListingFee.fees).toEqual(items.map(({ price, token }) => listingFeeFor({ price, token })));
    expect(feeCalls()).toHaveLength(1);
  });

  it('matches by the asset id of an answer shaped as partner-api.md 2.6 shows it, whatever its order', async () => {
    // The golden answer and request (test/fixtures/partner/), written from the document, not from
    // the simulator: the partner answers the request's two items in reversed order.
    const answer = readFixture<{ data: Array<{ assetId: string; fee: number }> }>('listing-fee.json').data;
    const request = readFixture<{ dataList: Array<{ price: number; token: string; styleToken: string }> }>('listing-fee-request.json');
    kit().simulator.injectFault({ kind: 'bad-shape', operation: 'calculateListingFee', data: [...answer].reverse() });
    const items = request.dataList.map((item, n) => ({ ...item, assetId: answer[n]!.assetId }));
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items } });
    expectNoGraphQLErrors(result);
    expect(result.data.calculateListingFee.fees).toEqual(answer);
    expect(feeCalls()).toHaveLength(1);
  });

  it('sends one asset at two prices in two calls, so that the asset id tells its fees apart', async () => {
    kit().simulator.injectFault({ kind: 'reversed-results', operation: 'calculateListingFee' });
    const items = [
      { price: 1000, token: token('41'), assetId: '41' },
      { price: 3000, token: token('41'), assetId: '41' },
      { price: 5000, token: token('42'), assetId: '42' },
    ];
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items } });
    expectNoGraphQLErrors(result);
    expect(result.data.calculateListingFee.fees).toEqual(items.map(({ price, token }) => listingFeeFor({ price, token })));
    expect(feeCalls().map((call) => call.batchSize).sort()).toEqual([1, 2]);
  });

  it.each(['', 'abc', '12a', '1'.repeat(65)])("refuses assetId '%s' as BAD_USER_INPUT with no upstream call", async (assetId) => {
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items: [{ price: 150, assetId }] } });
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0]!.message).toContain("'input.items[0].assetId'");
    expect(feeCalls()).toHaveLength(0);
  });

  it('fails a fee field whose result names an asset it did not ask for', async () => {
    const stranger = { assetId: '999', itemId: null, fee: 1, freeFeePrice: 1 };
    kit().simulator.injectFault({ kind: 'bad-shape', operation: 'calculateListingFee', data: [stranger] });
    const result = await kit().execute(InventoryWithFeesDocument, { platformId: withSize(1), appId: APP_ID, first: 1, price: 150 });
    expect(result.data!.inventory!.items.nodes[0]!.listingFee).toBeNull();
    expect(errorCodes(result)).toEqual(['UPSTREAM_BAD_RESPONSE']);
    expect(result.errors![0]!.message).toContain('came back for asset 999');
  });

  it('never retries the fee POST', async () => {
    kit().simulator.injectFault({ kind: 'http-503', operation: 'calculateListingFee', times: 1 });
    const result = await kit().execute(CalculateListingFeeDocument, { input: { items: [{ price: 150 }] } });
    expect(errorCodes(result)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(feeCalls()).toHaveLength(1);
  });
});

describe('LISTING_FEE_BATCH_MAX', () => {
  it('is configurable', async () => {
    const small = await startTestkit({ config: { listingFeeBatchMax: 7 } });
    try {
      const items = Array.from({ length: 20 }, (_, n) => ({ price: 1000 + n, token: token(String(n)) }));
      const result = await small.execute(CalculateListingFeeDocument, { input: { items } });
      expectNoGraphQLErrors(result);
      expect(small.simulator.callsOf('calculateListingFee').map((call) => call.batchSize)).toEqual([7, 7, 6]);
    } finally {
      await small.close();
    }
  });
});
