// The cost limit reads its prices from the schema's SDL: the same service built from SDL where one
// field's @cost is higher refuses, before any partner call, an operation it accepted before.
import { parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { buildSchema, loadTypeDefs } from '../../src/schema.js';
import { errorCodes, expectNoGraphQLErrors, useTestkit, type GraphQLResponse } from '../support/testkit.js';

// The one field priced as ListingFee (InventoryItem.listingFee), whatever its argument's description says.
const FEE_PRICE = '): ListingFee @cost(weight: 1)';

/** schema/ with the listing fee's weight raised from 1 to 10 in the SDL, and nothing else changed. */
function dearerFees() {
  const sdl = print(loadTypeDefs());
  expect(sdl.split(FEE_PRICE)).toHaveLength(2);
  const raised = sdl.replace(FEE_PRICE, FEE_PRICE.replace('@cost(weight: 1)', '@cost(weight: 10)'));
  return buildSchema(parse(raised));
}

const standard = useTestkit();
const dearer = useTestkit({ schema: dearerFees() });

// 1 (the page call) + 100 items + 100 fees: 201 units at weight 1, 1101 at weight 10.
const QUERY = `{ inventory(platformId: "${platformIdWithSize(100)}", appId: 730) {
  items(first: 100) { nodes { id listingFee(price: 500) { fee } } } } }`;

describe('prices in the SDL', () => {
  it('accepts a page with a fee on each item at the schema\'s prices', async () => {
    const result = (await (await standard().post({ query: QUERY })).json()) as GraphQLResponse<unknown>;
    expectNoGraphQLErrors(result);
    expect(standard().simulator.callsOf('readInventory').length).toBeGreaterThan(0);
    expect(standard().simulator.callsOf('calculateListingFee').length).toBeGreaterThan(0);
  });

  it('refuses the same operation, before any partner call, when the SDL alone prices fees higher', async () => {
    const result = (await (await dearer().post({ query: QUERY })).json()) as GraphQLResponse<unknown>;
    expect(errorCodes(result)).toEqual(['OPERATION_LIMIT_EXCEEDED']);
    expect(result.errors?.[0]?.message).toMatch(/would cost 1101 units.*at most 1000/);
    expect(dearer().simulator.callsOf('readInventory')).toHaveLength(0);
    expect(dearer().simulator.callsOf('calculateListingFee')).toHaveLength(0);
  });

  it('publishes the raised price in the SDL a gateway reads', async () => {
    const sdl = async (kit: typeof standard) =>
      ((await (await kit().post({ query: '{ _service { sdl } }' })).json()) as GraphQLResponse<{ _service: { sdl: string } }>).data!
        ._service.sdl;
    expect(await sdl(standard)).toMatch(/\): ListingFee @cost\(weight: 1\)/);
    expect(await sdl(dearer)).toMatch(/\): ListingFee @cost\(weight: 10\)/);
  });
});
