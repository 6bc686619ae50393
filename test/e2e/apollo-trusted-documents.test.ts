// Apollo Client as a front end with a trusted-documents manifest uses it: its persisted-queries
// link sends only the hash the client preset put on each typed document, against a production
// service that runs nothing else; and a page whose listing fees are deferred, items before fees.
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { relayStylePagination } from '@apollo/client/utilities';
import { filter, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InventoryPageDocument, InventoryWithDeferredFeesDocument } from '../generated/trusted/graphql.js';
import { useTestkit, type Testkit } from '../support/testkit.js';
import { documentIdOf, manifest } from '../support/trusted-documents.js';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_PLATFORM_ID, assetIdAt, platformIdWithSize } from '../../src/simulator/data.js';

const PLATFORM_ID = platformIdWithSize(237);
const PAGE_SIZE = 50;

const productionOnly = useTestkit({ config: { production: true, trustedDocuments: manifest(), trustedDocumentsOnly: true } });
const development = useTestkit();

/** Bodies of the GraphQL requests the client sent, and their Accept headers. */
let sent: Record<string, unknown>[] = [];
let accepts: (string | null)[] = [];

function createApolloClient(kit: Testkit, persisted: boolean) {
  sent = [];
  accepts = [];
  const http = new HttpLink({
    uri: kit.graphqlUrl,
    fetch: (input, init) => {
      sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      accepts.push(new Headers(init?.headers).get('accept'));
      return fetch(input, init);
    },
    headers: { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
  });
  // The hash the client preset computed for the manifest (`__meta__.hash`), not one of Apollo's
  // own printing, which differs from the manifest's normalized text.
  const link = persisted ? new PersistedQueryLink({ generateHash: (document) => documentIdOf(document) }).concat(http) : http;
  return new ApolloClient({
    link,
    cache: new InMemoryCache({ typePolicies: { Inventory: { fields: { items: relayStylePagination() } } } }),
    // @defer's payloads as graphql-js's incremental executor sends them.
    incrementalHandler: new Defer20220824Handler(),
  });
}

describe('Apollo Client with the persisted-queries link and a trusted-documents manifest', () => {
  it('pages a whole 237-item inventory sending only hashes, in production with trusted documents only', async () => {
    const client = createApolloClient(productionOnly(), true);
    const expected = Array.from({ length: 237 }, (_, index) => assetIdAt(PLATFORM_ID, DEMO_APP_ID, index));
    const variables = { platformId: PLATFORM_ID, appId: DEMO_APP_ID, first: PAGE_SIZE };
    const query = client.watchQuery({ query: InventoryPageDocument, variables });
    const subscription = query.subscribe(() => {});
    try {
      const first = await firstValueFrom(query.pipe(filter((result) => result.dataState === 'complete')));
      expect(first.error).toBeUndefined();
      let pageInfo = first.data.inventory!.items.pageInfo;
      while (pageInfo.hasNextPage) {
        await query.fetchMore({ variables: { after: pageInfo.endCursor } });
        pageInfo = client.readQuery({ query: InventoryPageDocument, variables })!.inventory!.items.pageInfo;
      }
      const merged = client.readQuery({ query: InventoryPageDocument, variables })!.inventory!.items;
      expect(merged.edges.map((edge) => edge.node.assetId)).toEqual(expected);

      // Five pages, five requests, each with the manifest's hash and no query text.
      expect(sent).toHaveLength(5);
      for (const body of sent) {
        expect(body).not.toHaveProperty('query');
        expect((body.extensions as Record<string, unknown>).persistedQuery).toEqual({
          version: 1,
          sha256Hash: documentIdOf(InventoryPageDocument),
        });
      }
    } finally {
      subscription.unsubscribe();
      client.stop();
    }
  });

  it('shows the items of a page before their deferred listing fees', async () => {
    const kit = development();
    const client = createApolloClient(kit, false);
    const release = kit.simulator.holdListingFees();
    const variables = { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID, first: 4, price: 10_000 };
    const query = client.watchQuery({ query: InventoryWithDeferredFeesDocument, variables });
    // What a UI would draw, in the order the client shows it: items without fees, then with.
    const shown: { items: number; fees: number; complete: boolean }[] = [];
    let done!: () => void;
    const allFeesShown = new Promise<void>((resolve) => (done = resolve));
    const subscription = query.subscribe(({ data, dataState }) => {
      const nodes = (data?.inventory?.items?.nodes ?? []) as { listingFee?: unknown }[];
      const fees = nodes.filter((node) => node.listingFee).length;
      shown.push({ items: nodes.length, fees, complete: dataState === 'complete' });
      // The fee call is held upstream: the items can only be on screen because they came first.
      if (nodes.length > 0 && fees === 0) release();
      if (nodes.length > 0 && fees === nodes.length && dataState === 'complete') done();
    });
    try {
      await allFeesShown;
      const withItems = shown.filter((state) => state.items > 0);
      expect(withItems[0]).toEqual({ items: 4, fees: 0, complete: false });
      expect(withItems.at(-1)).toEqual({ items: 4, fees: 4, complete: true });
      expect(kit.simulator.callsOf('calculateListingFee')).toHaveLength(1);
      // One request, which asked for the stream in its Accept header (Apollo's multipart support).
      expect(sent).toHaveLength(1);
      expect(accepts[0]).toMatch(/multipart\/mixed/);
    } finally {
      release();
      subscription.unsubscribe();
      client.stop();
    }
  });
});
