// The read path over real HTTP: field mapping, connection paging under every reading of the
// partner's paging, upstream call counts, token forwarding, and node refetch.
import { describe, expect, it } from 'vitest';
import {
  type InventoryPageQuery,
  InventoryItemsFullDocument,
  InventoryPageDocument,
  InventoryTotalDocument,
  NodeDocument,
} from '../generated/graphql.js';
import { errorCodes, expectNoGraphQLErrors, type GraphQLResponse, useTestkit } from '../support/testkit.js';
import { assetIdAt, itemAt, platformIdWithSize } from '../../src/simulator/data.js';

const APP_ID = 730;
const withSize = platformIdWithSize;

// Enough chained calls per page for full pages under the simulator's count caps (resilience.test.ts
// covers the cap itself).
const kit = useTestkit({ config: { pageMaxPartnerCalls: 10 } });

const inventoryCalls = () => kit().simulator.callsOf('readInventory');

describe('field mapping', () => {
  it('maps all 30 item fields and the nested objects exactly', async () => {
    const platformId = withSize(12);
    const result = await kit().execute(InventoryItemsFullDocument, { platformId, appId: APP_ID, first: 12 });
    expectNoGraphQLErrors(result);
    const nodes = result.data.inventory!.items.nodes;
    expect(nodes).toHaveLength(12);
    nodes.forEach((node, index) => {
      const upstream = itemAt(platformId, APP_ID, index);
      const { id, tradableTime, systemTime, ...passedThrough } = node;
      expect(id).toEqual(expect.any(String));
      expect(tradableTime).toBe(new Date(upstream.tradableTime! * 1000).toISOString());
      expect(systemTime).toBe(new Date(upstream.systemTime! * 1000).toISOString());
      const { tradableTime: _t, systemTime: _s, ...expected } = upstream;
      expect(passedThrough).toEqual(expected);
    });
    // Spot checks of what exactness means: decimals as sent, ids beyond 2^53, null-valued fields.
    const ninth = nodes[9]!;
    expect(ninth.price).toBe('12345678901234567.89');
    expect(BigInt(ninth.assetId!)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    expect(ninth.assetInfo!.wear).toMatch(/^0\.\d{18}$/);
    expect(nodes[0]!.tradableTime).toBe('2026-01-01T00:00:00.000Z');
    expect(nodes[0]!.inspect).toBeNull();
    expect(nodes[0]!.itemInfo!.itemName).toBeNull();
    expect(nodes[4]!.assetInfo!.stickers).toEqual([{ slot: 0, name: '印花 | 贴纸', wear: 0.25 }]);
    expect(nodes[0]!.name).toBe('AK-47 | 红线 (崭新出厂)');
  });

  it('gives items ids that are unique across inventories and stable across requests', async () => {
    const first = await kit().execute(InventoryPageDocument, { platformId: withSize(3), appId: APP_ID, first: 3 });
    const again = await kit().execute(InventoryPageDocument, { platformId: withSize(3), appId: APP_ID, first: 3 });
    const other = await kit().execute(InventoryPageDocument, { platformId: withSize(3), appId: 570, first: 3 });
    expectNoGraphQLErrors(first);
    expectNoGraphQLErrors(again);
    expectNoGraphQLErrors(other);
    const ids = (r: typeof first) => r.data.inventory!.items.edges.map((edge) => edge.node.id);
    expect(ids(again)).toEqual(ids(first));
    expect(new Set([...ids(first), ...ids(other)]).size).toBe(6);
  });
});

describe('connection paging', () => {
  const readings = [
    { startInclusive: false, countCap: null },
    { startInclusive: true, countCap: null },
    { startInclusive: false, countCap: 7 },
    { startInclusive: true, countCap: 7 },
  ];

  it.each(readings)('walks a 437-item inventory with every asset once, in order (%o)', async (switches) => {
    kit().simulator.configure(switches);
    const platformId = withSize(437);
    const expected = Array.from({ length: 437 }, (_, index) => assetIdAt(platformId, APP_ID, index));
    const walked: string[] = [];
    let after: string | null | undefined = null;
    let pages = 0;
    for (;;) {
      const result: GraphQLResponse<InventoryPageQuery> = await kit().execute(InventoryPageDocument, {
        platformId,
        appId: APP_ID,
        first: 50,
        after,
      });
      expectNoGraphQLErrors(result);
      const { edges, pageInfo, totalCount } = result.data.inventory!.items;
      expect(totalCount).toBe(437);
      walked.push(...edges.map((edge) => edge.node.assetId!));
      pages += 1;
      expect(pageInfo.hasPreviousPage).toBe(false);
      if (!pageInfo.hasNextPage) break;
      expect(edges).toHaveLength(50);
      after = pageInfo.endCursor;
    }
    expect(walked).toEqual(expected);
    expect(pages).toBe(9);
    if (switches.countCap === null) expect(inventoryCalls()).toHaveLength(9);
  });

  it('reports hasNextPage exactly at the boundary', async () => {
    for (const [size, first, hasNextPage] of [
      [20, 20, false],
      [21, 20, true],
      [0, 20, false],
      [1, 1, false],
      [2, 1, true],
    ] as const) {
      const result = await kit().execute(InventoryPageDocument, { platformId: withSize(size), appId: APP_ID, first });
      expectNoGraphQLErrors(result);
      const items = result.data.inventory!.items;
      expect(items.pageInfo.hasNextPage, `size ${size}, first ${first}`).toBe(hasNextPage);
      expect(items.edges).toHaveLength(Math.min(size, first));
    }
  });

  it('does not take a null lastAssetId for the end of the inventory', async () => {
    // The simulator answers lastAssetId null for a one-item inventory, as the document shows;
    // a facade that trusted it would still be right here, so check a capped multi-call page too.
    kit().simulator.configure({ countCap: 1 });
    const result = await kit().execute(InventoryPageDocument, { platformId: withSize(3), appId: APP_ID, first: 3 });
    expectNoGraphQLErrors(result);
    expect(result.data.inventory!.items.edges).toHaveLength(3);
    expect(result.data.inventory!.items.pageInfo.hasNextPage).toBe(false);
  });

  it('answers first: 0 with an empty page that still knows whether items exist', async () => {
    const result = await kit().execute(InventoryPageDocument, { platformId: withSize(5), appId: APP_ID, first: 0 });
    expectNoGraphQLErrors(result);
    expect(result.data.inventory!.items.edges).toEqual([]);
    expect(result.data.inventory!.items.pageInfo).toMatchObject({ hasNextPage: true, endCursor: null });
  });

  it('answers first: 0 after a cursor with that cursor as endCursor, so that a client pages on from where it was', async () => {
    const platformId = withSize(5);
    const page = (first: number, after: string | null) => kit().execute(InventoryPageDocument, { platformId, appId: APP_ID, first, after });
    const head = await page(2, null);
    expectNoGraphQLErrors(head);
    const cursor = head.data.inventory!.items.pageInfo.endCursor!;

    const peek = await page(0, cursor);
    expectNoGraphQLErrors(peek);
    expect(peek.data.inventory!.items.edges).toEqual([]);
    expect(peek.data.inventory!.items.pageInfo).toMatchObject({ hasNextPage: true, startCursor: cursor, endCursor: cursor });

    // A client paging on from the peek's endCursor until hasNextPage is false reads the rest once.
    const rest = await page(10, peek.data.inventory!.items.pageInfo.endCursor);
    expectNoGraphQLErrors(rest);
    expect(rest.data.inventory!.items.edges.map((edge) => edge.node.assetId)).toEqual([2, 3, 4].map((index) => assetIdAt(platformId, APP_ID, index)));
    expect(rest.data.inventory!.items.pageInfo.hasNextPage).toBe(false);

    const last = rest.data.inventory!.items.pageInfo.endCursor!;
    const atEnd = await page(0, last);
    expectNoGraphQLErrors(atEnd);
    expect(atEnd.data.inventory!.items.pageInfo).toMatchObject({ hasNextPage: false, endCursor: last });
  });

  it('defaults first to 20', async () => {
    const result = await kit().execute(InventoryPageDocument, { platformId: withSize(50), appId: APP_ID });
    expectNoGraphQLErrors(result);
    expect(result.data.inventory!.items.edges).toHaveLength(20);
  });

  it('reads first: null as the default of 20, as GraphQL fills in a first left out', async () => {
    const result = await kit().execute(InventoryPageDocument, { platformId: withSize(50), appId: APP_ID, first: null });
    expectNoGraphQLErrors(result);
    expect(result.data.inventory!.items.edges).toHaveLength(20);
  });

  // A `first` no page answers is refused as execution starts, before the operation is priced and
  // charged (docs/operation-limits.md): no field runs, so nothing is asked of the partner.
  it.each([
    [{ first: 101 }, 'first'],
    [{ first: -1 }, 'first'],
  ])('refuses %o as BAD_USER_INPUT before anything runs', async (args, argumentName) => {
    const result = await kit().execute(InventoryPageDocument, { platformId: withSize(5), appId: APP_ID, ...args });
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0]!.extensions?.argumentName).toBe(argumentName);
    expect(result.data).toBeUndefined();
    expect(inventoryCalls()).toHaveLength(0);
  });

  it.each([
    [{ after: 'abc' }, 'after'],
    [{ after: Buffer.from('item:v1:1:12x').toString('base64url') }, 'after'],
  ])('refuses %o as BAD_USER_INPUT with no upstream call', async (args, argumentName) => {
    const result = await kit().execute(InventoryPageDocument, { platformId: withSize(5), appId: APP_ID, ...args });
    // The query also asks for totalCount, which loads with a one-item call; the bad `items` field
    // adds no call of its own.
    const itemsError = result.errors?.find((error) => error.path?.includes('items'));
    expect(itemsError?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(itemsError?.extensions?.argumentName).toBe(argumentName);
    expect(inventoryCalls().map((call) => call.query.count)).toEqual(['1']);
  });

  it('refuses a bad cursor with a message that quotes it', async () => {
    const result = await kit().execute(InventoryItemsFullDocument, { platformId: withSize(5), appId: APP_ID, after: 'abc' });
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0]!.message).toBe("Cursor 'abc' is not a cursor of this API.");
    expect(inventoryCalls()).toHaveLength(0);
  });

  it.each([
    { platformId: 'has/slash', appId: APP_ID },
    { platformId: '', appId: APP_ID },
    { platformId: withSize(5), appId: 0 },
  ])('refuses bad inventory coordinates %o with no upstream call', async (variables) => {
    const result = await kit().execute(InventoryItemsFullDocument, variables);
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(inventoryCalls()).toHaveLength(0);
  });
});

describe('upstream calls', () => {
  it('makes one call for totalCount plus several aliased items fields of the same page', async () => {
    const query = /* GraphQL */ `
      query ($platformId: String!) {
        inventory(platformId: $platformId, appId: 730) {
          totalCount
          a: items(first: 5) { totalCount edges { node { assetId } } }
          b: items(first: 20) { nodes { assetId name } }
          c: items { pageInfo { hasNextPage } }
        }
      }
    `;
    const response = await kit().post({ query, variables: { platformId: withSize(100) } });
    const result = (await response.json()) as { data: { inventory: { totalCount: number; b: { nodes: unknown[] } } }; errors?: unknown };
    expect(result.errors).toBeUndefined();
    expect(result.data.inventory.totalCount).toBe(100);
    expect(result.data.inventory.b.nodes).toHaveLength(20);
    expect(inventoryCalls()).toHaveLength(1);
  });

  it('makes one call for totalCount alone, and one per page when paging', async () => {
    const total = await kit().execute(InventoryTotalDocument, { platformId: withSize(30), appId: APP_ID });
    expectNoGraphQLErrors(total);
    expect(total.data.inventory!.totalCount).toBe(30);
    expect(inventoryCalls()).toHaveLength(1);

    const first = await kit().execute(InventoryPageDocument, { platformId: withSize(30), appId: APP_ID, first: 10 });
    expectNoGraphQLErrors(first);
    const second = await kit().execute(InventoryPageDocument, {
      platformId: withSize(30),
      appId: APP_ID,
      first: 10,
      after: first.data.inventory!.items.pageInfo.endCursor,
    });
    expectNoGraphQLErrors(second);
    // The second page's totalCount rides on the page's own call.
    expect(inventoryCalls()).toHaveLength(3);
  });

  it('forwards each caller its own token, never another user’s, under 40 concurrent users', async () => {
    kit().simulator.configure({ latencyMs: 5 });
    const users = Array.from({ length: 40 }, (_, n) => ({
      token: `user-${n}-token`,
      platformId: withSize(10 + n),
    }));
    const results = await Promise.all(
      users.map((user) =>
        kit().execute(InventoryPageDocument, { platformId: user.platformId, appId: APP_ID, first: 5 }, { token: user.token }),
      ),
    );
    results.forEach((result, n) => {
      expectNoGraphQLErrors(result);
      expect(result.data.inventory!.totalCount).toBe(10 + n);
    });
    const calls = inventoryCalls();
    expect(calls).toHaveLength(40);
    for (const call of calls) {
      const owner = users.find((user) => call.path.endsWith(`/${user.platformId}/${APP_ID}`))!;
      expect(call.query.access_token).toBe(kit().simulator.fingerprint(owner.token));
    }
  });

  it('answers a caller without a token UNAUTHENTICATED, and a partner 401 is typed the same', async () => {
    const result = await kit().execute(InventoryTotalDocument, { platformId: withSize(3), appId: APP_ID }, { token: null });
    expect(errorCodes(result)).toEqual(['UNAUTHENTICATED']);
    expect(inventoryCalls()).toHaveLength(0);
    const refused = await kit().execute(InventoryTotalDocument, { platformId: withSize(3), appId: APP_ID }, { token: 'expired-token' });
    expect(errorCodes(refused)).toEqual(['UNAUTHENTICATED']);
    expect(inventoryCalls()).toHaveLength(1);
  });

  it('refuses a malformed Authorization header without calling upstream', async () => {
    const response = await kit().post(
      { query: '{ inventory(platformId: "1", appId: 730) { totalCount } }' },
      { token: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } },
    );
    const result = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(result.errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
    expect(result.errors[0]!.message).not.toContain('dXNlcjpwYXNz');
    expect(inventoryCalls()).toHaveLength(0);
  });
});

describe('node(id:)', () => {
  it('refetches an inventory by its global id', async () => {
    const page = await kit().execute(InventoryPageDocument, { platformId: withSize(8), appId: APP_ID, first: 1 });
    expectNoGraphQLErrors(page);
    const result = await kit().execute(NodeDocument, { id: page.data.inventory!.id });
    expectNoGraphQLErrors(result);
    expect(result.data.node).toMatchObject({ __typename: 'Inventory', platformId: withSize(8), appId: APP_ID, totalCount: 8 });
  });

  it('refetches an item when the partner reads startAssetId inclusively, and answers null otherwise', async () => {
    const page = await kit().execute(InventoryPageDocument, { platformId: withSize(8), appId: APP_ID, first: 3 });
    expectNoGraphQLErrors(page);
    const third = page.data.inventory!.items.edges[2]!.node;

    kit().simulator.configure({ startInclusive: true });
    const found = await kit().execute(NodeDocument, { id: third.id });
    expectNoGraphQLErrors(found);
    expect(found.data.node).toMatchObject({ __typename: 'InventoryItem', id: third.id, assetId: third.assetId });

    kit().simulator.configure({ startInclusive: false });
    const notFound = await kit().execute(NodeDocument, { id: third.id });
    expectNoGraphQLErrors(notFound);
    expect(notFound.data.node).toBeNull();
  });

  it('refuses an id that is not an id of this API', async () => {
    const result = await kit().execute(NodeDocument, { id: 'bm90LWFuLWlk' });
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0]!.message).toBe("Id 'bm90LWFuLWlk' is not an id of this API.");
  });
});
