// The facade behind a real Hive Gateway: `npm run supergraph` composes it with a second subgraph
// (test/fixtures/wishlist-subgraph.ts), the gateway serves that supergraph with the repository's
// gateway.config.ts, and one query joins both subgraphs in both directions with the caller's token.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGatewayRuntime } from '@graphql-hive/gateway';
import type { ExecutionResult } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayConfig } from '../../gateway.config.js';
import { encodeGlobalId } from '../../src/inventory/global-id.js';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { startWishlistSubgraph, wishlistCountOf, type WishlistSubgraph } from '../fixtures/wishlist-subgraph.js';
import { expectNoGraphQLErrors, startTestkit, type GraphQLResponse, type Testkit } from '../support/testkit.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CALLER_TOKEN = 'gateway-caller-token';
const BUDGET_TOKEN = 'gateway-budget-token';
const BUDGET = 5000;

const asked = { platformId: platformIdWithSize(4), appId: 730 };
const TOKEN_FOR_LIVE = 'live-through-gateway-token';
const wishlisted = { platformId: platformIdWithSize(7), appId: 570 };

const JOIN = `query Join($platformId: String!, $appId: Int!) {
  inventory(platformId: $platformId, appId: $appId) { id totalCount wishlistCount }
  wishlistedInventories { id platformId appId totalCount wishlistCount }
}`;

interface JoinData {
  inventory: { id: string; totalCount: number; wishlistCount: number };
  wishlistedInventories: Array<{ id: string; platformId: string; appId: number; totalCount: number; wishlistCount: number }>;
}

let kit: Testkit;
let wishlist: WishlistSubgraph;
let gateway: ReturnType<typeof createGatewayRuntime>;
let gatewayServer: Server;
let gatewayUrl: string;
let supergraph: string;
const workDir = mkdtempSync(join(tmpdir(), 'tradegraph-supergraph-'));

beforeAll(async () => {
  // A budget, so that the facade sends the RateLimit fields the gateway must pass on.
  kit = await startTestkit({ config: { rateLimit: { max: BUDGET, windowMs: 60_000, proxyHops: 0 } } });
  wishlist = await startWishlistSubgraph([wishlisted]);
  // The facade's SDL from schema/, the fixture's asked of the running subgraph (`_service`).
  const config = join(workDir, 'supergraph.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      output: 'supergraph.graphql',
      subgraphs: [
        { name: 'tradegraph', url: kit.graphqlUrl, sdl: join(ROOT, 'schema') },
        { name: 'wishlist', url: wishlist.url },
      ],
    }),
  );
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/federation/main.ts', '--config', config], {
    cwd: ROOT,
    timeout: 60_000,
  });
  supergraph = join(workDir, 'supergraph.graphql');

  // The repository's gateway.config.ts, with this test's supergraph, served on a free port.
  gateway = createGatewayRuntime({ supergraph, propagateHeaders: gatewayConfig.propagateHeaders, logging: false });
  gatewayServer = createServer((req, res) => void gateway.requestListener(req, res));
  await new Promise<void>((resolve) => gatewayServer.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(gatewayServer.address() as AddressInfo).port}/graphql`;
}, 90_000);

afterAll(async () => {
  await new Promise<void>((resolve) => {
    if (!gatewayServer) return resolve();
    gatewayServer.close(() => resolve());
    gatewayServer.closeAllConnections();
  });
  await gateway?.dispose();
  await wishlist?.close();
  await kit?.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('federation through Hive Gateway', () => {
  it('composes a supergraph in which both subgraphs serve Inventory', () => {
    const sdl = readFileSync(supergraph, 'utf8');
    expect(sdl).toContain(`@join__graph(name: "tradegraph", url: "${kit.graphqlUrl}")`);
    expect(sdl).toContain(`@join__graph(name: "wishlist", url: "${wishlist.url}")`);
    expect(sdl).toMatch(/@join__type\(graph: WISHLIST, key: "platformId appId"\)/);
  });

  it('joins both subgraphs in one query, with the caller token at each of them and at the partner', async () => {
    kit.addSecret(CALLER_TOKEN);
    // Only the gateway's requests count, not the composition's `_service` one.
    wishlist.authorizations.length = 0;
    const response = await fetch(gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${CALLER_TOKEN}` },
      body: JSON.stringify({ query: JOIN, variables: asked }),
    });
    const result = (await response.json()) as GraphQLResponse<JoinData>;
    expectNoGraphQLErrors(result);

    // The facade's root field, extended by the wishlist subgraph through the platformId appId key.
    expect(result.data.inventory).toEqual({
      id: encodeGlobalId({ type: 'Inventory', ...asked }),
      totalCount: 4,
      wishlistCount: wishlistCountOf(asked),
    });
    // The wishlist subgraph's root field, completed by the facade's _entities.
    expect(result.data.wishlistedInventories).toEqual([
      {
        id: encodeGlobalId({ type: 'Inventory', ...wishlisted }),
        ...wishlisted,
        totalCount: 7,
        wishlistCount: wishlistCountOf(wishlisted),
      },
    ]);

    const inventoryCalls = kit.simulator.callsOf('readInventory');
    expect(inventoryCalls.map((call) => call.path).sort()).toEqual(
      [`/api/user/v2/${asked.platformId}/${asked.appId}`, `/api/user/v2/${wishlisted.platformId}/${wishlisted.appId}`].sort(),
    );
    for (const call of inventoryCalls) expect(call.query.access_token).toBe(kit.simulator.fingerprint(CALLER_TOKEN));
    expect(wishlist.authorizations.length).toBeGreaterThan(0);
    expect(wishlist.authorizations.every((header) => header === `Bearer ${CALLER_TOKEN}`)).toBe(true);
  });

  it("passes the facade's RateLimit fields on to the client, one each, as the budget stands after every subgraph call", async () => {
    kit.addSecret(BUDGET_TOKEN);
    const calls = kit.simulator.callsOf('readInventory').length;
    const response = await fetch(gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BUDGET_TOKEN}` },
      body: JSON.stringify({ query: JOIN, variables: asked }),
    });
    expectNoGraphQLErrors((await response.json()) as GraphQLResponse<JoinData>);
    // The query took the facade twice (its root field, then the wishlist's entities): two spends.
    expect(kit.simulator.callsOf('readInventory').length - calls).toBe(2);
    expect(response.headers.get('ratelimit-policy')).toBe(`"default";q=${BUDGET};w=60`);
    const [, left] = /^"default";r=(\d+);t=\d+$/.exec(response.headers.get('ratelimit') ?? '') ?? [];
    expect(Number(left)).toBeLessThan(BUDGET);

    // What the facade itself says next is what the gateway said less the one unit an operation
    // without partner work spends: the gateway passed on the budget after both of its calls.
    const direct = await kit.post({ query: '{ __typename }' }, { token: BUDGET_TOKEN });
    const [, leftNow] = /^"default";r=(\d+);t=\d+$/.exec(direct.headers.get('ratelimit') ?? '') ?? [];
    expect(Number(leftNow)).toBe(Number(left) - 1);
  });

  it('serves a live inventory subscription through the gateway, with the caller token at the facade', async () => {
    kit.addSecret(TOKEN_FOR_LIVE);
    const client = createSseClient({ url: gatewayUrl, headers: { authorization: `Bearer ${TOKEN_FOR_LIVE}` }, retryAttempts: 0 });
    const event = await new Promise<ExecutionResult>((resolve, reject) => {
      const stop = client.subscribe(
        { query: `subscription { inventory(platformId: "${wishlisted.platformId}", appId: ${wishlisted.appId}) { totalCount } }` },
        { next: (result) => (stop(), resolve(result as ExecutionResult)), error: reject, complete: () => undefined },
      );
    });
    expect(event.errors).toBeUndefined();
    expect(event.data).toEqual({ inventory: { totalCount: 7 } });
  });
});
