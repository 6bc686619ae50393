// Apollo Client as a front end uses it: InMemoryCache with relayStylePagination on Inventory.items,
// fetchMore with `after: endCursor` until the last page, over real HTTP against the facade.
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { filter, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InventoryPageDocument } from '../generated/graphql.js';
import { useTestkit } from '../support/testkit.js';
import { DEMO_ACCESS_TOKEN, assetIdAt, platformIdWithSize } from '../../src/simulator/data.js';

const APP_ID = 730;
const PLATFORM_ID = platformIdWithSize(237);
const PAGE_SIZE = 50;

// Full pages under the simulator's count cap of 7 (short pages are resilience.test.ts's subject).
const kit = useTestkit({ config: { pageMaxPartnerCalls: 10 } });

/** GraphQL requests the client sent: one per page, none to re-read what the cache holds. */
let requests = 0;

function createApolloClient() {
  requests = 0;
  return new ApolloClient({
    link: new HttpLink({
      uri: kit().graphqlUrl,
      fetch: (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
      headers: { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
    }),
    cache: new InMemoryCache({
      // The policy docs/clients-and-graphql-over-http.md recommends: one list per inventory, pages merged by cursor.
      typePolicies: { Inventory: { fields: { items: relayStylePagination() } } },
    }),
  });
}

describe('Apollo Client with relayStylePagination', () => {
  it.each([
    { startInclusive: false, countCap: null },
    { startInclusive: true, countCap: 7 },
  ])('pages a whole 237-item inventory with fetchMore into one cached list (%o)', async (switches) => {
    kit().simulator.configure(switches);
    const client = createApolloClient();
    const expected = Array.from({ length: 237 }, (_, index) => assetIdAt(PLATFORM_ID, APP_ID, index));

    const variables = { platformId: PLATFORM_ID, appId: APP_ID, first: PAGE_SIZE };
    const query = client.watchQuery({ query: InventoryPageDocument, variables });
    // fetchMore writes into the cache that a watched query reads; subscribe as a UI would, and
    // note how many items the watcher has been shown.
    let shown = 0;
    let allShown!: () => void;
    const everyItemShown = new Promise<void>((resolve) => (allShown = resolve));
    const subscription = query.subscribe(({ data }) => {
      shown = data?.inventory?.items?.edges?.length ?? shown;
      if (shown === 237) allShown();
    });
    try {
      const first = await firstValueFrom(query.pipe(filter((result) => result.dataState === 'complete')));
      let pageInfo = first.data.inventory!.items.pageInfo;
      let fetches = 1;
      while (pageInfo.hasNextPage) {
        const page = await query.fetchMore({ variables: { after: pageInfo.endCursor } });
        fetches += 1;
        // fetchMore answers the new page alone; the type policy merged it into the cached list,
        // whose pageInfo is that of its last page.
        expect(page.data!.inventory!.items.edges[0]!.node.assetId).toBe(expected[(fetches - 1) * PAGE_SIZE]);
        const cached = client.readQuery({ query: InventoryPageDocument, variables })!;
        expect(cached.inventory!.items.edges).toHaveLength(Math.min(fetches * PAGE_SIZE, 237));
        pageInfo = cached.inventory!.items.pageInfo;
      }
      expect(fetches).toBe(5);
      expect(requests).toBe(5);

      await everyItemShown;
      const data = client.readQuery({ query: InventoryPageDocument, variables })!;
      const merged = data.inventory!.items;
      expect(merged.edges.map((edge) => edge.node.assetId)).toEqual(expected);
      expect(merged.totalCount).toBe(237);
      expect(merged.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
      expect(merged.pageInfo.endCursor).toBe(merged.edges.at(-1)!.cursor);

      // The normalized cache itself: one Inventory whose items hold each item's reference once,
      // in order, and one InventoryItem entry per item.
      const store = client.cache.extract() as Record<string, Record<string, unknown>>;
      const inventoryKey = `Inventory:${data.inventory!.id}`;
      const itemsKey = Object.keys(store[inventoryKey]!).filter((key) => key.startsWith('items'));
      expect(itemsKey).toHaveLength(1);
      const cachedEdges = (store[inventoryKey]![itemsKey[0]!] as { edges: { node: { __ref: string } }[] }).edges;
      const refs = cachedEdges.map((edge) => edge.node.__ref);
      expect(refs).toEqual(merged.edges.map((edge) => `InventoryItem:${edge.node.id}`));
      expect(new Set(refs).size).toBe(237);
      expect(refs.map((ref) => store[ref]!.assetId)).toEqual(expected);
      expect(Object.keys(store).filter((key) => key.startsWith('InventoryItem:'))).toHaveLength(237);
    } finally {
      subscription.unsubscribe();
      client.stop();
    }
  });
});
