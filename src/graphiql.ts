// What GraphiQL opens with in development: working example operations, one tab each, with the
// caller's Authorization header already filled in when the service runs on its simulator.
import type { GraphiQLOptions } from 'graphql-yoga';
import { DEMO_APP_ID, DEMO_PLATFORM_ID } from './simulator/data.js';

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

const CALCULATE_FEES = `# Fees for the items a seller picked, one per input item, in input order.
mutation CalculateFees {
  calculateListingFee(input: { items: [
    { price: 10000, token: "tok_730_30000000000000003", styleToken: "sty_100000" }
    { price: 50 }
  ] }) {
    fees { assetId itemId fee freeFeePrice }
  }
}
`;

export function graphiqlOptions(defaultHeaders: Record<string, string>): GraphiQLOptions {
  const headers = JSON.stringify(defaultHeaders, null, 2);
  return {
    title: 'tradegraph',
    defaultHeaders: headers,
    headers,
    defaultTabs: [INVENTORY_PAGE, INVENTORY_WITH_FEES, CALCULATE_FEES].map((query) => ({ query, headers })),
    defaultQuery: INVENTORY_PAGE,
  };
}
