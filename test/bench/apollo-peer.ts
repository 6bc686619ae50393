// The benchmark's peer: what a team writes by hand with Apollo Server 5 and one RESTDataSource,
// as Apollo's "Fetching from REST" docs show it (a data-source class with the base URL and one
// method per REST call, made per request in the context with the server's cache, the token passed
// in; startStandaloneServer). It answers scenario (a)'s query with the same data as the facade
// (the bench checks it): the schema's fields that (a) asks for, the item id and cursors made by the
// service's own encoders and the conversions of its scalars, so that only the server around them
// differs.
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { RESTDataSource } from '@apollo/datasource-rest';
import type { KeyValueCache } from '@apollo/utils.keyvaluecache';
import { parseCredentials } from '../../src/credentials.js';
import { encodeGlobalId } from '../../src/inventory/global-id.js';
import { encodeItemCursor, inventoryTag } from '../../src/inventory/cursor.js';
import { DateTime, Decimal, fromUnixSeconds } from '../../src/resolvers/scalars.js';

interface PartnerItem {
  assetId: string;
  tradableTime?: number | null;
  [field: string]: unknown;
}
interface PartnerPage {
  total?: number | null;
  list?: PartnerItem[] | null;
}
interface PartnerEnvelope<T> {
  success?: boolean;
  errorCode?: number | null;
  errorMsg?: string | null;
  data: T;
}
interface InventoryRef {
  platformId: string;
  appId: number;
}

class PartnerAPI extends RESTDataSource {
  constructor(
    baseURL: string,
    private readonly accessToken: string,
    options: { cache: KeyValueCache },
  ) {
    super(options);
    this.baseURL = baseURL;
  }

  async getInventoryPage(platformId: string, appId: number, count: number): Promise<PartnerPage> {
    const envelope = await this.get<PartnerEnvelope<PartnerPage>>(`api/user/v2/${encodeURIComponent(platformId)}/${appId}`, {
      params: { count: String(count), access_token: this.accessToken },
    });
    if (envelope.success === false || (envelope.errorCode !== null && envelope.errorCode !== undefined && envelope.errorCode !== 0)) {
      throw new Error(`partner envelope error ${String(envelope.errorCode)}`);
    }
    return envelope.data;
  }
}

interface ContextValue {
  dataSources: { partnerAPI: PartnerAPI };
}

const typeDefs = `#graphql
  scalar DateTime
  scalar Decimal

  type Query {
    inventory(platformId: String!, appId: Int!): Inventory
  }
  type Inventory {
    totalCount: Int
    items(first: Int): InventoryItemConnection!
  }
  type InventoryItemConnection {
    pageInfo: PageInfo!
    nodes: [InventoryItem!]!
  }
  type PageInfo {
    hasNextPage: Boolean!
    endCursor: String
  }
  type InventoryItem {
    id: ID!
    assetId: String
    name: String
    marketHashName: String
    imageUrl: String
    price: Decimal
    status: Int
    ifTradable: Boolean
    tradableTime: DateTime
    itemId: String
  }
`;

type ItemOfInventory = PartnerItem & { inventory: InventoryRef };

const resolvers = {
  DateTime,
  Decimal,
  Query: {
    inventory: (_parent: unknown, args: InventoryRef): InventoryRef => args,
  },
  Inventory: {
    // One page per field, as the docs' resolvers call their data source; RESTDataSource
    // deduplicates the identical GET of totalCount and items within the request.
    totalCount: async (ref: InventoryRef, _args: unknown, { dataSources }: ContextValue) =>
      (await dataSources.partnerAPI.getInventoryPage(ref.platformId, ref.appId, 21)).total ?? null,
    items: async (ref: InventoryRef, args: { first?: number | null }, { dataSources }: ContextValue) => {
      const first = args.first ?? 20;
      const page = await dataSources.partnerAPI.getInventoryPage(ref.platformId, ref.appId, first + 1);
      const all = page.list ?? [];
      const nodes: ItemOfInventory[] = all.slice(0, first).map((item) => ({ ...item, inventory: ref }));
      const last = nodes[nodes.length - 1];
      return {
        nodes,
        pageInfo: {
          hasNextPage: all.length > first,
          endCursor: last ? encodeItemCursor({ index: nodes.length - 1, assetId: last.assetId }, inventoryTag(ref)) : null,
        },
      };
    },
  },
  InventoryItem: {
    id: (item: ItemOfInventory) =>
      encodeGlobalId({ type: 'InventoryItem', platformId: item.inventory.platformId, appId: item.inventory.appId, assetId: item.assetId }),
    tradableTime: (item: ItemOfInventory) => fromUnixSeconds(item.tradableTime, 'tradableTime'),
  },
};

const partnerUrl = `${process.env.PARTNER_API_URL ?? 'http://127.0.0.1:4010'}/`;
const server = new ApolloServer<ContextValue>({ typeDefs, resolvers });
const { url } = await startStandaloneServer(server, {
  listen: { port: Number(process.env.PEER_PORT ?? 4040), host: '127.0.0.1' },
  context: async ({ req }) => {
    const { cache } = server;
    const { accessToken } = parseCredentials(req.headers.authorization ?? null);
    return { dataSources: { partnerAPI: new PartnerAPI(partnerUrl, accessToken ?? '', { cache }) } };
  },
});
process.stdout.write(`apollo peer listening on ${url}\n`);
const stop = () => void server.stop().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
