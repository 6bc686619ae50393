// The benchmark's Yoga floor (`npm run bench -- --floor`): the least a facade built on this
// stack (Yoga 5, graphql-jit) can cost. Yoga 5 with the service's own schema and graphql-jit executor,
// served by Yoga's node adapter, and resolvers that make the baseline's upstream calls and copy
// their fields (with the service's own item field resolvers), and nothing else: no envelop plugins,
// limits, metrics, logging, retries or checks of the page's shape. It answers the pages (scenarios
// a, c, e, g, i); their listing fees (b) through one DataLoader a request at its defaults, the least
// that puts a page's fee fields into the baseline's one fee call; and the fee mutation (d), whose
// one resolver makes the baseline's fee call. With FLOOR_RESPONSE_CACHE_TTL_MS it also runs Yoga's
// response-cache plugin with its own in-memory store and cache key, its session the Authorization
// header, for the cached reads of (f). With FLOOR_TRUSTED_DOCUMENTS (a manifest file, id to text) it
// runs Yoga's persisted-operations plugin as its docs show, for (ad)'s requests by documentId.
// The facade's cost over this floor is what the service itself adds; this floor's cost over the
// baseline is what Yoga and GraphQL execution cost before any of it.
import { createServer } from 'node:http';
import DataLoader from 'dataloader';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { readFileSync } from 'node:fs';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { useResponseCache } from '@graphql-yoga/plugin-response-cache';
import { createYoga, type Plugin } from 'graphql-yoga';
import { useCompiledExecution } from '../../src/plugins/compiled-execution.js';
import { parseCredentials } from '../../src/credentials.js';
import { encodeGlobalId } from '../../src/inventory/global-id.js';
import { encodeItemCursor, inventoryTag } from '../../src/inventory/cursor.js';
import { ITEM_INVENTORY, type InventoryRef } from '../../src/inventory/model.js';
import { InventoryItem } from '../../src/resolvers/InventoryItem.js';
import { DateTime, Decimal, JSON as JSONScalar } from '../../src/resolvers/scalars.js';
import { loadTypeDefs } from '../../src/schema.js';
import { createPartnerCaller, listenUntilStopped, type Json } from './bench-server.js';

interface Context {
  request: Request;
  /** The one upstream page of this request, by inventory. */
  pages: Map<string, Promise<Json>>;
  /** The listing fees of this request's items, at their prices, in one partner call. */
  fees: DataLoader<Json, Json>;
}

const port = Number(process.env.FLOOR_PORT ?? 4030);
const cacheTtlMs = Number(process.env.FLOOR_RESPONSE_CACHE_TTL_MS ?? 0);
if (!Number.isSafeInteger(cacheTtlMs) || cacheTtlMs < 0) throw new Error(`FLOOR_RESPONSE_CACHE_TTL_MS must be whole milliseconds; got ${process.env.FLOOR_RESPONSE_CACHE_TTL_MS}`);
const trustedDocuments = process.env.FLOOR_TRUSTED_DOCUMENTS
  ? (JSON.parse(readFileSync(process.env.FLOOR_TRUSTED_DOCUMENTS, 'utf8')) as Record<string, string>)
  : null;
const partner = createPartnerCaller(process.env.PARTNER_API_URL ?? 'http://127.0.0.1:4010', process.env.PARTNER_APP_KEY ?? '');

/**
 * The one upstream page of this request for an inventory. `items(first:)` asks for its page;
 * `totalCount` takes whichever page `items` asked for (execution calls both resolvers in the same
 * tick, so one microtask later it is there), or a page of 20 when the query has no `items`.
 */
function pageOf(ref: InventoryRef, context: Context, first?: number): Promise<Json> {
  const key = `${ref.platformId}/${ref.appId}`;
  let page = context.pages.get(key);
  if (!page) {
    const { accessToken } = parseCredentials(context.request.headers.get('authorization'));
    page = partner.readInventoryPage(ref.platformId, ref.appId, first ?? 20, accessToken ?? '');
    context.pages.set(key, page);
  }
  return page;
}

// Built as the service builds it: schema/ is a federation subgraph's SDL.
const schema = buildSubgraphSchema([{
  typeDefs: loadTypeDefs(),
  resolvers: {
    DateTime,
    Decimal,
    JSON: JSONScalar,
    Query: {
      inventory: (_parent: unknown, args: InventoryRef): InventoryRef => ({ platformId: args.platformId, appId: args.appId }),
    },
    Mutation: {
      calculateListingFee: async (_parent: unknown, { input }: { input: { items: Json[] } }) => ({
        fees: await partner.calculateListingFees(input.items.map((item) => ({ price: item.price, styleToken: item.styleToken, token: item.token }))),
      }),
    },
    Inventory: {
      // The service's id; Yoga's response cache selects it on every object that has one.
      id: (ref: InventoryRef) => encodeGlobalId({ type: 'Inventory', platformId: ref.platformId, appId: ref.appId }),
      totalCount: async (ref: InventoryRef, _args: unknown, context: Context) => {
        await Promise.resolve();
        return (await pageOf(ref, context)).total ?? null;
      },
      items: async (ref: InventoryRef, args: { first?: number | null }, context: Context) => {
        const first = args.first ?? 20;
        const page = await pageOf(ref, context, first);
        const all = (page.list as Json[] | null) ?? [];
        const nodes = all.slice(0, first);
        // Tagged in place with their inventory, as the facade's page loader does, for the item's id.
        for (const item of nodes) (item as { [ITEM_INVENTORY]?: InventoryRef })[ITEM_INVENTORY] = ref;
        const last = nodes[nodes.length - 1];
        const tag = inventoryTag(ref);
        return {
          nodes,
          totalCount: page.total ?? null,
          pageInfo: {
            hasNextPage: all.length > first,
            hasPreviousPage: false,
            startCursor: nodes[0] ? encodeItemCursor({ index: 0, assetId: nodes[0].assetId as string }, tag) : null,
            endCursor: last ? encodeItemCursor({ index: nodes.length - 1, assetId: last.assetId as string }, tag) : null,
          },
        };
      },
    },
    // The service's own conversions of item fields; listingFee is the floor's own (the service's checks its price).
    InventoryItem: {
      id: InventoryItem.id!,
      tradableTime: InventoryItem.tradableTime!,
      systemTime: InventoryItem.systemTime!,
      listingFee: (item: Json, { price }: { price: number }, context: Context) =>
        context.fees.load({ price, styleToken: item.styleToken, token: item.token }),
    },
  },
}]);

const yoga = createYoga<object, Context>({
  schema,
  context: ({ request }) => ({
    request,
    pages: new Map(),
    fees: new DataLoader<Json, Json>((entries) => partner.calculateListingFees([...entries])),
  }),
  // graphql-jit, as the facade executes; FLOOR_EXECUTOR=graphql-js measures Yoga's own executor.
  plugins: [
    ...(trustedDocuments
      ? [
          usePersistedOperations({
            getPersistedOperation: (id: string) => trustedDocuments[id] ?? null,
            extractPersistedOperationId: (params) => ((params as { documentId?: unknown }).documentId as string | undefined) ?? null,
            allowArbitraryOperations: true,
          }) as Plugin,
        ]
      : []),
    ...(process.env.FLOOR_EXECUTOR === 'graphql-js' ? [] : [useCompiledExecution()]),
    // After the executor, as in the facade: the cache wraps whichever execute it finds.
    ...(cacheTtlMs > 0
      ? [useResponseCache({ session: (request: Request) => request.headers.get('authorization'), ttl: cacheTtlMs }) as Plugin]
      : []),
  ],
  graphiql: false,
  landingPage: false,
  maxRequestBodySize: false,
  batching: false,
  logging: false,
});

const server = createServer({ keepAlive: true }, (req, res) => {
  if (req.url === '/health') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  void yoga(req, res);
});

listenUntilStopped(server, port, 'yoga floor', partner);
