// The service as an Apollo Federation v2 subgraph: its SDL for composition (`_service`), its
// entities resolved by each of their keys (`_entities`), bad representations refused per entry
// before any partner call, and both fields executed by graphql-jit like every other operation.
import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/inventory/global-id.js';
import { quote } from '../../src/errors.js';
import { assetIdAt, DEMO_ACCESS_TOKEN, platformIdWithSize } from '../../src/simulator/data.js';
import { errorCodes, expectNoGraphQLErrors, useTestkit, type GraphQLResponse } from '../support/testkit.js';

const kit = useTestkit();
const inventoryCalls = () => kit().simulator.callsOf('readInventory');

const ENTITIES = `query Entities($representations: [_Any!]!) {
  _entities(representations: $representations) {
    __typename
    ... on Inventory { id platformId appId totalCount }
    ... on InventoryItem { id assetId name }
  }
}`;

interface Entity {
  __typename: string;
  id: string;
  platformId?: string;
  appId?: number;
  totalCount?: number;
  assetId?: string;
  name?: string;
}

async function entities(representations: unknown[]): Promise<GraphQLResponse<{ _entities: (Entity | null)[] }>> {
  return (await kit().post({ query: ENTITIES, variables: { representations } })).json();
}

const platformId = platformIdWithSize(5);
const inventoryId = encodeGlobalId({ type: 'Inventory', platformId, appId: 730 });
const itemId = (index: number) =>
  encodeGlobalId({ type: 'InventoryItem', platformId, appId: 730, assetId: assetIdAt(platformId, 730, index) });

describe('federation subgraph', () => {
  it('publishes its SDL with both keys of Inventory and the key of InventoryItem', async () => {
    const result = (await (await kit().post({ query: '{ _service { sdl } }' })).json()) as GraphQLResponse<{
      _service: { sdl: string };
    }>;
    expectNoGraphQLErrors(result);
    const { sdl } = result.data._service;
    expect(sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@cost", "@listSize"])');
    expect(sdl).toMatch(/type Inventory implements Node\s+@key\(fields: "id"\)\s+@key\(fields: "platformId appId"\)/);
    expect(sdl).toMatch(/type InventoryItem implements Node\s+@key\(fields: "id"\)/);
    expect(inventoryCalls()).toHaveLength(0);
  });

  it('publishes the prices in its SDL, so that a gateway in front can hold the same budget', async () => {
    const result = (await (await kit().post({ query: '{ _service { sdl } }' })).json()) as GraphQLResponse<{
      _service: { sdl: string };
    }>;
    const { sdl } = result.data!._service;
    expect(sdl).toMatch(/node\([^)]*\): Node @cost\(weight: 2\)/);
    expect(sdl).toMatch(/totalCount: Int @cost\(weight: 1\)/);
    expect(sdl).toMatch(/first: Int = 20 @cost\(weight: 1\)/);
    expect(sdl).toMatch(
      /\): InventoryItemConnection!\s+@cost\(weight: 1\)\s+@listSize\(slicingArguments: \["first"\], assumedSize: 20, sizedFields: \["edges", "nodes"\], requireOneSlicingArgument: false\)/,
    );
    expect(sdl).toMatch(/\): ListingFee @cost\(weight: 1\)/);
    expect(sdl).toMatch(/\): CalculateListingFeePayload! @cost\(weight: 1\)/);
    expect(sdl).toMatch(/items: \[ListingFeeItemInput!\]! @cost\(weight: 1\)/);
    expect(sdl).toMatch(/fees: \[ListingFee!\]! @listSize\(assumedSize: 100\)/);
  });

  it('resolves an Inventory by either key, and an InventoryItem by its id, with the caller token', async () => {
    kit().simulator.configure({ startInclusive: true });
    const result = await entities([
      { __typename: 'Inventory', id: inventoryId },
      { __typename: 'Inventory', platformId, appId: 730 },
      { __typename: 'InventoryItem', id: itemId(3) },
    ]);
    expectNoGraphQLErrors(result);
    const [byId, byCoordinates, item] = result.data._entities;
    expect(byId).toEqual({ __typename: 'Inventory', id: inventoryId, platformId, appId: 730, totalCount: 5 });
    expect(byCoordinates).toEqual(byId);
    expect(item).toMatchObject({ __typename: 'InventoryItem', id: itemId(3), assetId: assetIdAt(platformId, 730, 3) });
    expect(item?.name).toEqual(expect.any(String));
    // The request's page loader asks the partner once for all three.
    expect(inventoryCalls()).toHaveLength(1);
    for (const call of inventoryCalls()) expect(call.query.access_token).toBe(kit().simulator.fingerprint(DEMO_ACCESS_TOKEN));
  });

  it('answers null for an item the partner API no longer has, as node(id:) does', async () => {
    const gone = encodeGlobalId({ type: 'InventoryItem', platformId, appId: 730, assetId: '1' });
    const result = await entities([{ __typename: 'InventoryItem', id: gone }]);
    expectNoGraphQLErrors(result);
    expect(result.data._entities).toEqual([null]);
  });

  it('refuses each bad representation with BAD_USER_INPUT, before any partner call, and resolves the rest', async () => {
    const bad = [
      { __typename: 'Inventory', id: 'not-an-id' },
      { __typename: 'Inventory', id: itemId(0) },
      { __typename: 'Inventory', id: 42 },
      { __typename: 'Inventory', platformId: 'has/slash', appId: 730 },
      { __typename: 'Inventory', platformId, appId: '730' },
      { __typename: 'Inventory', platformId, appId: 0 },
      { __typename: 'Inventory', platformId: 76561198000000240, appId: 730 },
      { __typename: 'InventoryItem', id: inventoryId },
      { __typename: 'InventoryItem' },
    ];
    const result = await entities([...bad, { __typename: 'Inventory', platformId, appId: 730 }]);
    expect(result.data?._entities.slice(0, bad.length)).toEqual(bad.map(() => null));
    expect(result.data?._entities[bad.length]).toMatchObject({ id: inventoryId, totalCount: 5 });
    expect(errorCodes(result)).toEqual(bad.map(() => 'BAD_USER_INPUT'));
    expect(result.errors?.map((error) => error.path)).toEqual(bad.map((_, index) => ['_entities', index]));
    expect(result.errors?.[1]?.message).toBe(`Id '${quote(itemId(0))}' is not the id of an Inventory.`);
    expect(result.errors?.[4]?.message).toBe(`An Inventory reference needs 'appId' as a positive Int; got '"730"'.`);
    // Only the good reference's totalCount reached the partner.
    expect(inventoryCalls()).toHaveLength(1);
  });

  it('refuses a representation that names no entity type, or is not an object, at its own index; the others resolve', async () => {
    kit().simulator.configure({ startInclusive: true });
    const bad: unknown[] = [
      { __typename: 'Foo', id: itemId(1) },
      { id: itemId(1) },
      { __typename: 'Query' },
      { __typename: 'PageInfo', hasNextPage: true },
      { __typename: '__proto__', id: itemId(1) },
      { __typename: 42, id: itemId(1) },
      'InventoryItem',
      7,
      [{ __typename: 'InventoryItem', id: itemId(1) }],
    ];
    const good = [
      { __typename: 'InventoryItem', id: itemId(2) },
      { __typename: 'Inventory', platformId, appId: 730 },
    ];
    // Good ones between and after the bad ones: each answer stays at its own index.
    const representations = [good[0], ...bad, good[1]];
    const result = await entities(representations);
    const answers = result.data!._entities;
    expect(answers[0]).toMatchObject({ __typename: 'InventoryItem', id: itemId(2) });
    expect(answers.slice(1, 1 + bad.length)).toEqual(bad.map(() => null));
    expect(answers[1 + bad.length]).toMatchObject({ __typename: 'Inventory', id: inventoryId, totalCount: 5 });
    expect(errorCodes(result)).toEqual(bad.map(() => 'BAD_USER_INPUT'));
    expect(result.errors?.map((error) => error.path)).toEqual(bad.map((_, index) => ['_entities', index + 1]));
    expect(result.errors?.[0]?.message).toBe(
      "Representation 1 must be an object whose '__typename' is an entity type of this subgraph (Inventory, InventoryItem); its '__typename' is '\"Foo\"'.",
    );
    expect(result.errors?.[1]?.message).toMatch(/its '__typename' is missing\.$/);
    expect(result.errors?.[6]?.message).toMatch(/^Representation 7 must be an object .*; got '"InventoryItem"'\.$/);
    // The item and the inventory's totalCount, in one call by the page loader; the bad ones reached nothing.
    expect(inventoryCalls()).toHaveLength(1);
  });

  it('counts each representation as an object fetched by alias: 30 are read, 500 are refused before any partner call', async () => {
    const items = (count: number) => Array.from({ length: count }, (_, index) => ({ __typename: 'InventoryItem', id: itemId(index) }));
    // What a gateway asks of items: 500 of them cost 1000 units, within the cost limit.
    const query = 'query Items($r: [_Any!]!) { _entities(representations: $r) { __typename ... on InventoryItem { id name } } }';
    const fetch = async (representations: unknown[]): Promise<GraphQLResponse<{ _entities: (Entity | null)[] }>> =>
      (await kit().post({ query, variables: { r: representations } })).json();
    const refused = await fetch(items(500));
    expect(errorCodes(refused)).toEqual(['OPERATION_LIMIT_EXCEEDED']);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ limit: 'aliases', maximum: 30 });
    expect(refused.data).toBeUndefined();
    expect(inventoryCalls()).toHaveLength(0);
    expect(errorCodes(await fetch(items(31)))).toEqual(['OPERATION_LIMIT_EXCEEDED']);
    expect(inventoryCalls()).toHaveLength(0);
    kit().simulator.configure({ startInclusive: true });
    const accepted = await fetch(items(30));
    expectNoGraphQLErrors(accepted);
    expect(accepted.data._entities).toHaveLength(30);
    expect(accepted.data._entities[2]).toMatchObject({ id: itemId(2) });
    expect(inventoryCalls().length).toBeGreaterThan(0);
    expect(inventoryCalls().length).toBeLessThanOrEqual(30);
  });

  it('refuses an entity fetch whose representations cost more than the limit, before any partner call', async () => {
    const many = Array.from({ length: 400 }, (_, index) => ({ __typename: 'Inventory', platformId, appId: index + 1 }));
    const result = await entities(many);
    expect(errorCodes(result)).toEqual(['OPERATION_LIMIT_EXCEEDED']);
    expect(inventoryCalls()).toHaveLength(0);
  });

  it('answers _entities, good and bad representations, exactly as graphql-js does', async () => {
    kit().simulator.configure({ startInclusive: true });
    // Failures between and after answers that take a partner call: each stays at its own index.
    const representations = [
      { __typename: 'Inventory', platformId, appId: 730 },
      { __typename: 'Inventory', platformId: 'has/slash', appId: 730 },
      { __typename: 'InventoryItem', id: itemId(2) },
      { __typename: 'Inventory', platformId, appId: '730' },
    ];
    const compiled = await entities(representations);
    expect(compiled.data?._entities.map((entity) => entity?.__typename ?? null)).toEqual(['Inventory', null, 'InventoryItem', null]);
    expect(compiled.errors?.map((error) => error.path)).toEqual([['_entities', 1], ['_entities', 3]]);
    kit().simulator.reset();
    kit().simulator.configure({ startInclusive: true });
    // A variable default keeps an operation on graphql-js (see src/plugins/compiled-execution.ts).
    const query = ENTITIES.replace('$representations: [_Any!]!)', '$representations: [_Any!]! = [])');
    const interpreted = await (await kit().post({ query, variables: { representations } })).json();
    expect(errorCodes(compiled)).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
    expect(compiled).toEqual(interpreted);
  });

  it('runs _service and _entities compiled by graphql-jit, not on graphql-js', async () => {
    const schema = servedSchema();
    const callers = {
      _service: probeCaller(schema, '_service'),
      _entities: probeCaller(schema, '_entities'),
    };
    // Documents of their own: graphql-jit compiles each document once, and reads resolvers then.
    expectNoGraphQLErrors(await (await kit().post({ query: 'query Sdl { _service { sdl } }' })).json());
    const representations = [{ __typename: 'Inventory', platformId, appId: 730 }];
    const query = 'query Ids($r: [_Any!]!) { _entities(representations: $r) { ... on Inventory { id } } }';
    expectNoGraphQLErrors(await (await kit().post({ query, variables: { r: representations } })).json());
    for (const [field, caller] of Object.entries(callers)) {
      expect(caller(), field).toMatch(/graphql-jit/);
      expect(caller(), field).not.toMatch(/graphql[\\/]execution[\\/]execute\.js/);
    }
  });
});

function servedSchema(): GraphQLSchema {
  return kit().service.yoga.getEnveloped({ request: new Request('http://127.0.0.1/graphql') } as never).schema;
}

/**
 * Wraps a root field's resolver so that it records the stack it is called from: graphql-jit's
 * generated code (made inside graphql-jit) or graphql-js's executeField. graphql-jit reads the
 * resolver when it compiles a document, so this must run before the first operation using it.
 */
function probeCaller(schema: GraphQLSchema, fieldName: string): () => string | undefined {
  const field = schema.getQueryType()!.getFields()[fieldName]!;
  const resolve = field.resolve as GraphQLFieldResolver<unknown, unknown>;
  let stack: string | undefined;
  field.resolve = (...args) => {
    stack = new Error('probe').stack;
    return resolve(...args);
  };
  return () => stack;
}
