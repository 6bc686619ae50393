// What GraphiQL opens with in development: working example operations, one tab each, with the
// caller's Authorization header already filled in when the service runs on its simulator.
// The demo values are written out here rather than imported from src/simulator/, so that the
// production bundle never loads the simulator's data; test/integration/examples.test.ts runs these
// tabs against the simulator, which keeps the two in step.
import type { GraphiQLOptions } from 'graphql-yoga';

/** The simulator's demo inventory (240 items) and the tokens of its first two items. */
export const GRAPHIQL_DEMO = {
  platformId: '76561198000000240',
  appId: 730,
  items: [
    { token: 'tok_730_30276599000000003', styleToken: 'sty_100000' },
    { token: 'tok_730_30276599000000010', styleToken: 'sty_100001' },
  ],
} as const;
const DEMO_PLATFORM_ID = GRAPHIQL_DEMO.platformId;
const DEMO_APP_ID = GRAPHIQL_DEMO.appId;
const [FIRST_ITEM, SECOND_ITEM] = GRAPHIQL_DEMO.items;

const INVENTORY_PAGE = `# Press the run button (or Ctrl-Enter) to read the first page of the demo inventory.
query InventoryPage($platformId: String! = "${DEMO_PLATFORM_ID}", $appId: Int! = ${DEMO_APP_ID}, $after: String) {
  inventory(platformId: $platformId, appId: $appId) {
    id
    totalCount
    items(first: 10, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes {
        id
        assetId
        name
        marketHashName
        price
        tradableTime
        ifTradable
        itemInfo { rarityName rarityColor exteriorName }
        assetInfo { wear paintSeed }
      }
    }
  }
}
`;

const INVENTORY_WITH_FEES = `# What listing each item at 10000 would cost: all fees of the page go upstream in one batch.
query InventoryWithFees($platformId: String! = "${DEMO_PLATFORM_ID}", $appId: Int! = ${DEMO_APP_ID}) {
  inventory(platformId: $platformId, appId: $appId) {
    items(first: 20) {
      nodes {
        assetId
        name
        price
        listingFee(price: 10000) { assetId fee freeFeePrice }
      }
    }
  }
}
`;

const CALCULATE_FEES = `# Fees for the items a seller picked (the demo inventory's first two), one per input item.
mutation CalculateFees {
  calculateListingFee(input: { items: [
    { price: 10000, token: "${FIRST_ITEM.token}", styleToken: "${FIRST_ITEM.styleToken}" }
    { price: 50, token: "${SECOND_ITEM.token}", styleToken: "${SECOND_ITEM.styleToken}" }
  ] }) {
    fees { assetId itemId fee freeFeePrice }
  }
}
`;

/** The example operations GraphiQL opens with, one tab each. */
export const GRAPHIQL_TABS = [INVENTORY_PAGE, INVENTORY_WITH_FEES, CALCULATE_FEES];

export function graphiqlOptions(defaultHeaders: Record<string, string>): GraphiQLOptions {
  const headers = JSON.stringify(defaultHeaders, null, 2);
  return {
    title: 'tradegraph',
    defaultHeaders: headers,
    headers,
    defaultTabs: GRAPHIQL_TABS.map((query) => ({ query, headers })),
    defaultQuery: INVENTORY_PAGE,
  };
}
