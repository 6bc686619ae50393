// A gateway in front holds the facade's budget with the facade's prices: a real Hive Gateway,
// composed from the running subgraph's `_service { sdl }`, with its demand-control plugin refusing
// an operation whose prices (the SDL's @cost and @listSize) are over its maximum, before the
// facade or the partner sees it; and the same gateway over a facade whose SDL prices fees higher
// refuses what it accepted before.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGatewayRuntime } from '@graphql-hive/gateway';
import { parse, print } from 'graphql';
import { gatewayConfig } from '../../gateway.config.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeSupergraph, loadSubgraphSdl } from '../../src/federation/compose.js';
import { buildSchema, loadTypeDefs } from '../../src/schema.js';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, type GraphQLResponse, type Testkit } from '../support/testkit.js';

/** The gateway's most units: our units (no charge per object or per mutation), as the facade's own. */
const GATEWAY_MAX_COST = 500;

interface Fronted {
  kit: Testkit;
  url: string;
  close(): Promise<void>;
}

async function gatewayInFrontOf(kit: Testkit): Promise<Fronted> {
  const sdl = await loadSubgraphSdl({ name: 'tradegraph', url: kit.graphqlUrl });
  const supergraph = composeSupergraph([{ name: 'tradegraph', url: kit.graphqlUrl, sdl }]);
  const gateway = createGatewayRuntime({
    supergraph,
    propagateHeaders: gatewayConfig.propagateHeaders,
    logging: false,
    demandControl: { maxCost: GATEWAY_MAX_COST, typeCost: () => 0, operationTypeCost: () => 0, includeExtensionMetadata: true },
  });
  const server: Server = createServer((req, res) => void gateway.requestListener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    kit,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await gateway.dispose();
      await kit.close();
    },
  };
}

/** schema/ with the listing fee's weight raised from 1 to 10 in the SDL, and nothing else changed. */
function dearerFees() {
  const sdl = print(loadTypeDefs());
  const raised = sdl.replace(/(\): ListingFee) @cost\(weight: 1\)/, '$1 @cost(weight: 10)');
  expect(raised).not.toBe(sdl);
  return buildSchema(parse(raised));
}

// The gateway counts 1 for items, 1 for `first` and 1 per fee: 102 units at weight 1, 1002 at 10.
const FEES = `{ inventory(platformId: "${platformIdWithSize(100)}", appId: 730) {
  items(first: 100) { nodes { id listingFee(price: 500) { fee } } } } }`;

async function ask(fronted: Fronted, query: string): Promise<GraphQLResponse<unknown>> {
  const response = await fetch(fronted.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer gateway-caller-token' },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as GraphQLResponse<unknown>;
}

let standard: Fronted;
let dearer: Fronted;

beforeAll(async () => {
  standard = await gatewayInFrontOf(await startTestkit());
  dearer = await gatewayInFrontOf(await startTestkit({ schema: dearerFees() }));
}, 90_000);

afterAll(async () => {
  await standard?.close();
  await dearer?.close();
});

describe('Hive Gateway demand control with the facade\'s prices', () => {
  it('receives the prices in the composed supergraph', async () => {
    const sdl = await loadSubgraphSdl({ name: 'tradegraph', url: standard.kit.graphqlUrl });
    expect(composeSupergraph([{ name: 'tradegraph', url: standard.kit.graphqlUrl, sdl }])).toMatch(/ListingFee @cost\(weight: 1\)/);
  });

  it('accepts a page with a fee on each item at the schema\'s prices', async () => {
    standard.kit.addSecret('gateway-caller-token');
    const result = await ask(standard, FEES);
    expectNoGraphQLErrors(result);
    expect(result.extensions).toMatchObject({ cost: { estimated: 102, max: GATEWAY_MAX_COST } });
    expect(standard.kit.simulator.callsOf('calculateListingFee').length).toBeGreaterThan(0);
  });

  it('refuses it, before the facade or the partner sees it, when the subgraph\'s SDL prices fees higher', async () => {
    dearer.kit.addSecret('gateway-caller-token');
    const result = await ask(dearer, FEES);
    expect(errorCodes(result)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    expect(result.errors?.[0]?.extensions).toMatchObject({ cost: { estimated: 1002, max: GATEWAY_MAX_COST } });
    expect(dearer.kit.simulator.callsOf('readInventory')).toHaveLength(0);
    expect(dearer.kit.simulator.callsOf('calculateListingFee')).toHaveLength(0);
  });
});
