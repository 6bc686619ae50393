// urql as a front end uses it: Graphcache with relayPagination on Inventory.items, one query per
// `after` cursor, each answered with the pages merged so far, over real HTTP against the facade.
import { Client, fetchExchange, type AnyVariables, type OperationResult, type TypedDocumentNode } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { describe, expect, it } from 'vitest';
import { InventoryPageDocument, type InventoryPageQuery, type InventoryPageQueryVariables } from '../generated/graphql.js';
import { errorCodes, useTestkit } from '../support/testkit.js';
import { CSRF_HEADER } from '../../src/plugins/csrf-prevention.js';
import { DEMO_ACCESS_TOKEN, assetIdAt, platformIdWithSize } from '../../src/simulator/data.js';

const APP_ID = 730;
const PLATFORM_ID = platformIdWithSize(237);
const PAGE_SIZE = 50;

// Full pages under the simulator's count cap of 7 (short pages are resilience.test.ts's subject).
const kit = useTestkit({ config: { pageMaxPartnerCalls: 10 } });

/** Methods of the GraphQL requests the client sent. */
let requests: string[] = [];

function createUrqlClient(headers: Record<string, string>) {
  requests = [];
  return new Client({
    url: kit().graphqlUrl,
    // urql sends queries as GET by default (preferGetMethod: 'within-url-limit'), with no
    // content-type, so the CSRF check wants its header; POSTs of JSON would not.
    fetchOptions: () => ({ headers }),
    fetch: (input, init) => {
      requests.push(init?.method ?? 'GET');
      return fetch(input, init);
    },
    exchanges: [
      cacheExchange({
        // Connection plumbing has no id: embed it in its parent instead of normalizing it.
        keys: { InventoryItemConnection: () => null, InventoryItemEdge: () => null, PageInfo: () => null },
        // The resolver docs/clients-and-graphql-over-http.md recommends: pages of one inventory merge into one list.
        resolvers: { Inventory: { items: relayPagination() } },
      }),
      fetchExchange,
    ],
  });
}

/** The first result that is not a stale cache answer waiting on the network. */
function settled<TData, TVariables extends AnyVariables>(
  client: Client,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): Promise<OperationResult<TData, TVariables>> {
  return new Promise((resolve) => {
    const subscription = client.query(document, variables).subscribe((result) => {
      if (result.stale) return;
      resolve(result);
      queueMicrotask(() => subscription.unsubscribe());
    });
  });
}

const csrfSafeHeaders = { authorization: `Bearer ${DEMO_ACCESS_TOKEN}`, [CSRF_HEADER]: '1' };

describe('urql with Graphcache relayPagination', () => {
  it.each([
    { startInclusive: false, countCap: null },
    { startInclusive: true, countCap: 7 },
  ])('pages a whole 237-item inventory into one cached list (%o)', async (switches) => {
    kit().simulator.configure(switches);
    const client = createUrqlClient(csrfSafeHeaders);
    const expected = Array.from({ length: 237 }, (_, index) => assetIdAt(PLATFORM_ID, APP_ID, index));
    const variables = { platformId: PLATFORM_ID, appId: APP_ID, first: PAGE_SIZE };

    let after: string | null | undefined = null;
    let pages = 0;
    for (;;) {
      const result: OperationResult<InventoryPageQuery, InventoryPageQueryVariables> = await settled(
        client,
        InventoryPageDocument,
        { ...variables, after },
      );
      expect(result.error).toBeUndefined();
      pages += 1;
      const items = result.data!.inventory!.items;
      // Each answer holds every page so far, merged by the resolver.
      expect(items.edges).toHaveLength(Math.min(pages * PAGE_SIZE, 237));
      if (!items.pageInfo.hasNextPage) break;
      after = items.pageInfo.endCursor;
    }
    expect(pages).toBe(5);
    expect(requests).toEqual(['GET', 'GET', 'GET', 'GET', 'GET']);

    // Read back from the cache alone, with the first page's variables: the whole merged list.
    const cached = client.readQuery(InventoryPageDocument, { ...variables, after: null });
    const merged = cached!.data!.inventory!.items;
    expect(merged.edges.map((edge) => edge.node.assetId)).toEqual(expected);
    expect(new Set(merged.edges.map((edge) => edge.node.id)).size).toBe(237);
    expect(merged.totalCount).toBe(237);
    expect(merged.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    expect(requests).toHaveLength(5);
  });

  it('is refused on its GETs without the CSRF header', async () => {
    const client = createUrqlClient({ authorization: `Bearer ${DEMO_ACCESS_TOKEN}` });
    const result = await settled(client, InventoryPageDocument, { platformId: PLATFORM_ID, appId: APP_ID, first: 1 });
    expect(requests).toEqual(['GET']);
    expect(result.data).toBeUndefined();
    expect(errorCodes({ errors: result.error!.graphQLErrors })).toEqual(['CSRF_HEADER_REQUIRED']);
    expect(result.error!.response.status).toBe(403);
    expect(kit().simulator.callsOf('readInventory')).toHaveLength(0);
  });
});
