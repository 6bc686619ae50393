// The front-end clients of docs/live-inventories.md subscribe as shown there: Apollo Client through
// GraphQLWsLink and urql through subscriptionExchange, both over graphql-ws, against the real
// service and simulator; each gets the page at once and a change after the simulator trades.
import { ApolloClient, InMemoryCache, gql } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { Client as UrqlClient, subscriptionExchange } from '@urql/core';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { startTestkit, type Testkit } from '../support/testkit.js';

const LIVE = `subscription Live($platformId: String!, $appId: Int!) {
  inventory(platformId: $platformId, appId: $appId) { id totalCount }
}`;
const variables = { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID };

let kit: Testkit;
beforeAll(async () => {
  kit = await startTestkit({ config: { livePollIntervalMs: 300 } });
});
afterAll(async () => {
  await kit.close();
});

const wsClient = () =>
  createClient({
    url: kit.graphqlUrl.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
  });

const totals: Array<number> = [];
const until = async (check: () => boolean) => {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('live inventories from front-end clients', () => {
  it('Apollo Client subscribes through GraphQLWsLink', async () => {
    kit.simulator.reset();
    const ws = wsClient();
    const client = new ApolloClient({ link: new GraphQLWsLink(ws), cache: new InMemoryCache() });
    totals.length = 0;
    const subscription = client
      .subscribe<{ inventory: { totalCount: number } }>({ query: gql(LIVE), variables })
      .subscribe({ next: ({ data }) => void totals.push(data!.inventory.totalCount) });
    await until(() => totals.length === 1);
    kit.simulator.tradeAway(DEMO_PLATFORM_ID, DEMO_APP_ID, 1);
    await until(() => totals.length === 2);
    expect(totals).toEqual([240, 239]);
    subscription.unsubscribe();
    await ws.dispose();
  });

  it('urql subscribes through subscriptionExchange', async () => {
    kit.simulator.reset();
    const ws = wsClient();
    const client = new UrqlClient({
      url: kit.graphqlUrl,
      exchanges: [
        subscriptionExchange({
          forwardSubscription: (request) => ({
            subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
          }),
        }),
      ],
    });
    totals.length = 0;
    const { unsubscribe } = client.subscription(LIVE, variables).subscribe((result) => {
      expect(result.error).toBeUndefined();
      totals.push((result.data as { inventory: { totalCount: number } }).inventory.totalCount);
    });
    await until(() => totals.length === 1);
    kit.simulator.tradeAway(DEMO_PLATFORM_ID, DEMO_APP_ID, 2);
    await until(() => totals.length === 2);
    expect(totals).toEqual([240, 238]);
    unsubscribe();
    await ws.dispose();
  });
});
