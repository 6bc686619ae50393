// The benchmark's Yoga floor (`npm run bench -- --floor`): the least a facade built on this
// issue's fixed stack can cost. Yoga 5 with the service's own schema and graphql-jit executor,
// served by Yoga's node adapter, and resolvers that make the baseline's one upstream call and
// copy its fields, and nothing else: no DataLoaders, envelop plugins, limits, metrics, logging,
// retries or upstream shape checks. It answers the pages without listing fees (scenarios a, c, e).
// The facade's cost over this floor is what the service itself adds; this floor's cost over the
// baseline is what Yoga and GraphQL execution cost before any of it.
import { createServer } from 'node:http';
import { createSchema, createYoga } from 'graphql-yoga';
import { useCompiledExecution } from '../../src/compiled-execution.js';
import { encodeItemCursor } from '../../src/inventory/cursor.js';
import { encodeGlobalId } from '../../src/global-id.js';
import { DateTime, Decimal, JSON as JSONScalar } from '../../src/resolvers/scalars.js';
import { loadTypeDefs } from '../../src/schema.js';
import { createPartnerCaller, listenUntilStopped, type Json } from './bench-server.js';

interface Ref {
  platformId: string;
  appId: number;
}
interface Context {
  request: Request;
  /** The one upstream page of this request, by inventory and page size. */
  pages: Map<string, Promise<Json>>;
}
interface Item extends Json {
  inventory: Ref;
}

const port = Number(process.env.FLOOR_PORT ?? 4030);
const partner = createPartnerCaller(process.env.PARTNER_API_URL ?? 'http://127.0.0.1:4010');

async function readPage(ref: Ref, first: number, token: string): Promise<Json> {
  const query = new URLSearchParams({ count: String(first + 1), access_token: token });
  return (await partner.callPartner('GET', `/api/user/v2/${encodeURIComponent(ref.platformId)}/${ref.appId}?${query}`)) as Json;
}

/**
 * The one upstream page of this request for an inventory. `items(first:)` asks for its page;
 * `totalCount` takes whichever page `items` asked for (execution calls both resolvers in the same
 * tick, so one microtask later it is there), or a page of 20 when the query has no `items`.
 */
function pageOf(ref: Ref, context: Context, first?: number): Promise<Json> {
  const key = `${ref.platformId}/${ref.appId}`;
  let page = context.pages.get(key);
  if (!page) {
    const header = context.request.headers.get('authorization') ?? '';
    page = readPage(ref, first ?? 20, header.startsWith('Bearer ') ? header.slice(7) : '');
    context.pages.set(key, page);
  }
  return page;
}

const iso = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);

const schema = createSchema<Context>({
  typeDefs: loadTypeDefs(),
  resolvers: {
    DateTime,
    Decimal,
    JSON: JSONScalar,
    Query: {
      inventory: (_parent: unknown, args: Ref): Ref => ({ platformId: args.platformId, appId: args.appId }),
    },
    Inventory: {
      totalCount: async (ref: Ref, _args: unknown, context: Context) => {
        await Promise.resolve();
        return (await pageOf(ref, context)).total ?? null;
      },
      items: async (ref: Ref, args: { first?: number | null }, context: Context) => {
        const first = args.first ?? 20;
        const page = await pageOf(ref, context, first);
        const all = (page.list as Json[] | null) ?? [];
        const list = all.slice(0, first);
        const nodes: Item[] = list.map((item) => ({ ...item, inventory: ref }));
        const last = list[list.length - 1];
        return {
          nodes,
          totalCount: page.total ?? null,
          pageInfo: {
            hasNextPage: all.length > first,
            hasPreviousPage: false,
            startCursor: list[0] ? encodeItemCursor({ index: 0, assetId: list[0].assetId as string }) : null,
            endCursor: last ? encodeItemCursor({ index: list.length - 1, assetId: last.assetId as string }) : null,
          },
        };
      },
    },
    InventoryItem: {
      id: (item: Item) =>
        encodeGlobalId({ type: 'InventoryItem', platformId: item.inventory.platformId, appId: item.inventory.appId, assetId: item.assetId as string }),
      tradableTime: (item: Item) => iso(item.tradableTime),
      systemTime: (item: Item) => iso(item.systemTime),
    },
  },
});

const yoga = createYoga<object, Context>({
  schema,
  context: ({ request }) => ({ request, pages: new Map() }),
  // graphql-jit, as the facade executes; FLOOR_EXECUTOR=graphql-js measures Yoga's own executor.
  plugins: process.env.FLOOR_EXECUTOR === 'graphql-js' ? [] : [useCompiledExecution()],
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
