// The client examples a front-end team copies from docs/clients-and-graphql-over-http.md must work
// as shown: each ```ts block that sets up a client is run as written (types stripped, its imports
// bound to the installed packages, the example URLs pointed at a live facade), its client queries
// the demo inventory, listing fees included, or subscribes to it and gets a change, and neither the
// client nor its cache may warn.
import { readFileSync } from 'node:fs';
import * as apolloClient from '@apollo/client';
import * as apolloSubscriptions from '@apollo/client/link/subscriptions';
import * as apolloUtilities from '@apollo/client/utilities';
import * as urqlCore from '@urql/core';
import * as graphcache from '@urql/exchange-graphcache';
import * as graphcacheExtras from '@urql/exchange-graphcache/extras';
import { transform } from 'esbuild';
import * as graphqlWs from 'graphql-ws';
import * as rxjs from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InventoryPageDocument, InventoryWithFeesDocument } from '../generated/graphql.js';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_PLATFORM_ID, assetIdAt, inventorySize } from '../../src/simulator/data.js';
import { useTestkit } from '../support/testkit.js';

const DOC = readFileSync(new URL('../../docs/clients-and-graphql-over-http.md', import.meta.url), 'utf8');
const EXAMPLE_URL = 'https://tradegraph.example.com/graphql';
const EXAMPLE_WS_URL = 'wss://tradegraph.example.com/graphql';
const MODULES: Record<string, unknown> = {
  '@apollo/client': apolloClient,
  '@apollo/client/utilities': apolloUtilities,
  '@apollo/client/link/subscriptions': apolloSubscriptions,
  '@urql/core': urqlCore,
  '@urql/exchange-graphcache': graphcache,
  '@urql/exchange-graphcache/extras': graphcacheExtras,
  'graphql-ws': graphqlWs,
  rxjs,
};

const blocks = [...DOC.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
const blockImporting = (module: string) => {
  const found = blocks.filter((block) => block.includes(`from '${module}'`));
  expect(found, `one ts block of the clients doc imports ${module}`).toHaveLength(1);
  return found[0]!;
};

// With a rate limit, so that the examples' reading of the RateLimit field and extensions.cost is run
// too; live polls every 300 ms, so that a subscription's change comes soon.
const BUDGET = 100_000;
const kit = useTestkit({ config: { rateLimit: { max: BUDGET, windowMs: 60_000 }, livePollIntervalMs: 300 } });

/**
 * Runs an example as an async function body: its imports become bindings to MODULES, the example
 * URL the live facade's, and `scope` supplies the names the prose leaves to the reader (token,
 * the typed document, variables). Answers the values of `results`, by name.
 */
async function runExample(code: string, scope: Record<string, unknown>, results: string[]): Promise<Record<string, unknown>> {
  const imports = [...code.matchAll(/^import (?:type )?\{([^}]*)\} from '([^']+)';$/gm)];
  for (const [, , module] of imports) expect(Object.keys(MODULES), `the example imports ${module}`).toContain(module);
  const body = code
    .replace(/^import (?:type )?\{([^}]*)\} from '([^']+)';$/gm, (_line, names: string, module: string) => `const {${names.replace(/ as /g, ': ')}} = __modules['${module}'];`)
    .replaceAll(EXAMPLE_URL, kit().graphqlUrl)
    .replaceAll(EXAMPLE_WS_URL, kit().graphqlUrl.replace(/^http/, 'ws'));
  const { code: js } = await transform(body, { loader: 'ts' });
  const names = ['__modules', ...Object.keys(scope)];
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<Record<string, unknown>>;
  const run = new AsyncFunction(...names, `${js}\nreturn { ${results.join(', ')} };`);
  return run(MODULES, ...Object.values(scope));
}

/** Every console warning and error while an example runs: Graphcache reports missing keys there. */
let warnings: string[] = [];
beforeEach(() => {
  warnings = [];
  for (const method of ['warn', 'error'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
  }
});
afterEach(() => {
  vi.restoreAllMocks();
});

const variables = { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID };

describe('docs/clients-and-graphql-over-http.md examples', () => {
  it('urql with Graphcache: pages with fees, merged, and no warning from the cache', async () => {
    // The example's own `rateLimit`, read as the example leaves it after each answer.
    const { client, rateLimitNow } = (await runExample(blockImporting('@urql/exchange-graphcache'), { token: DEMO_ACCESS_TOKEN }, ['client', 'rateLimitNow: () => rateLimit'])) as {
      client: urqlCore.Client;
      rateLimitNow: () => string | null;
    };
    const first = await client.query(InventoryWithFeesDocument, { ...variables, first: 20, price: 500 }).toPromise();
    expect(first.error).toBeUndefined();
    expect(first.extensions?.cost).toMatchObject({ requestedQueryCost: expect.any(Number), actualQueryCost: expect.any(Number) });
    const { currentlyAvailable } = (first.extensions?.cost as { throttleStatus: { currentlyAvailable: number } }).throttleStatus;
    expect(currentlyAvailable).toBeLessThan(BUDGET);
    expect(rateLimitNow()).toMatch(new RegExp(`^"default";r=${currentlyAvailable};t=\\d+$`));
    const nodes = first.data!.inventory!.items.nodes;
    expect(nodes).toHaveLength(20);
    expect(nodes.every((node) => typeof node.listingFee?.fee === 'number')).toBe(true);

    const page = await client.query(InventoryPageDocument, { ...variables, first: 50 }).toPromise();
    const next = await client
      .query(InventoryPageDocument, { ...variables, first: 50, after: page.data!.inventory!.items.pageInfo.endCursor })
      .toPromise();
    expect(next.error).toBeUndefined();
    // relayPagination answers every page so far, merged.
    expect(next.data!.inventory!.items.edges).toHaveLength(100);
    expect(warnings).toEqual([]);
  });

  it('Apollo Client: fetchMore merges the next page into one list, and no warning', async () => {
    const firstPage = (await (
      await kit().post({ query: 'query($p: String!, $a: Int!) { inventory(platformId: $p, appId: $a) { items(first: 50) { pageInfo { endCursor } } } }', variables: { p: variables.platformId, a: variables.appId } })
    ).json()) as { data: { inventory: { items: { pageInfo: { endCursor: string } } } } };
    const { client, query, budgetNow } = (await runExample(
      blockImporting('@apollo/client/utilities'),
      { token: DEMO_ACCESS_TOKEN, InventoryPageDocument, ...variables, pageInfo: firstPage.data.inventory.items.pageInfo },
      ['client', 'query', 'budgetNow: () => budget'],
    )) as { client: apolloClient.ApolloClient; query: apolloClient.ObservableQuery; budgetNow: () => { cost?: { requestedQueryCost: number; actualQueryCost: number; throttleStatus: { currentlyAvailable: number } }; rateLimit?: string | null } };
    // The example's link read the cost of fetchMore's answer and the budget it left.
    const { cost, rateLimit } = budgetNow();
    expect(cost).toMatchObject({ requestedQueryCost: expect.any(Number), actualQueryCost: expect.any(Number) });
    expect(cost!.actualQueryCost).toBeGreaterThan(0);
    expect(rateLimit).toBe(`"default";r=${cost!.throttleStatus.currentlyAvailable};t=${/t=(\d+)/.exec(rateLimit ?? '')?.[1]}`);
    // The example's query was never subscribed, so the cache's one list holds the page fetchMore
    // brought: items 50 to 99, merged in by the example's relayStylePagination policy.
    expect(query.variables).toMatchObject({ ...variables, first: 50 });
    const cached = client.readQuery({ query: InventoryPageDocument, variables: { ...variables, first: 50 } });
    expect(cached?.inventory?.totalCount).toBe(inventorySize(DEMO_PLATFORM_ID));
    expect(cached?.inventory?.items.edges.map((edge) => edge.node.assetId)).toEqual(
      Array.from({ length: 50 }, (_, index) => assetIdAt(DEMO_PLATFORM_ID, DEMO_APP_ID, 50 + index)),
    );
    expect(warnings).toEqual([]);
  });

  it("subscriptions: Apollo Client's GraphQLWsLink and urql's subscriptionExchange each get the page, then a change", async () => {
    const { apollo, urql, ws } = (await runExample(blockImporting('graphql-ws'), { token: DEMO_ACCESS_TOKEN }, ['apollo', 'urql', 'ws'])) as {
      apollo: apolloClient.ApolloClient;
      urql: urqlCore.Client;
      ws: graphqlWs.Client;
    };
    const live = 'subscription Live($platformId: String!, $appId: Int!) { inventory(platformId: $platformId, appId: $appId) { id totalCount } }';
    const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 5000, interval: 20 });
    const apolloTotals: number[] = [];
    const urqlTotals: number[] = [];
    const fromApollo = apollo
      .subscribe<{ inventory: { totalCount: number } }>({ query: apolloClient.gql(live), variables })
      .subscribe({ next: ({ data }) => void apolloTotals.push(data!.inventory.totalCount) });
    const fromUrql = urql.subscription<{ inventory: { totalCount: number } }>(live, variables).subscribe((result) => {
      expect(result.error).toBeUndefined();
      urqlTotals.push(result.data!.inventory.totalCount);
    });
    try {
      await until(() => apolloTotals.length === 1 && urqlTotals.length === 1);
      kit().simulator.tradeAway(DEMO_PLATFORM_ID, DEMO_APP_ID, 1);
      await until(() => apolloTotals.length === 2 && urqlTotals.length === 2);
      const total = inventorySize(DEMO_PLATFORM_ID);
      expect(apolloTotals).toEqual([total, total - 1]);
      expect(urqlTotals).toEqual([total, total - 1]);
      expect(warnings).toEqual([]);
    } finally {
      fromApollo.unsubscribe();
      fromUrql.unsubscribe();
      await ws.dispose();
    }
  });
});
