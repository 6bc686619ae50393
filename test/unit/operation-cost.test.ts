// The operation price list: what each field costs in partner work, with variables, defaults,
// fragments and @skip/@include.
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationCost, operationPrice } from '../../src/cost/price.js';
import { buildSchema } from '../../src/schema.js';

const schema = buildSchema();
const cost = (query: string, variables: Record<string, unknown> = {}, operationName?: string) =>
  operationCost(schema, parse(query), operationName, variables);

const INVENTORY = 'inventory(platformId: "76561198000000240", appId: 730)';

describe('operationCost', () => {
  it('charges nothing for fields that cause no partner call', () => {
    expect(cost(`{ __typename ${INVENTORY} { id platformId appId } }`)).toBe(0);
  });

  it('charges one call for totalCount', () => {
    expect(cost(`{ ${INVENTORY} { totalCount } }`)).toBe(1);
  });

  it('charges a page one call plus its items, at the default of 20 when first is omitted', () => {
    expect(cost(`{ ${INVENTORY} { items { nodes { id } } } }`)).toBe(21);
    expect(cost(`{ ${INVENTORY} { items(first: 100) { nodes { id } pageInfo { hasNextPage } totalCount } } }`)).toBe(101);
  });

  it('reads first from the variables, and from the variable default', () => {
    const query = `query ($n: Int = 5) { ${INVENTORY} { items(first: $n) { nodes { listingFee(price: 1) { fee } } } } }`;
    expect(cost(query, { n: 50 })).toBe(1 + 50 + 50);
    expect(cost(query)).toBe(1 + 5 + 5);
  });

  it('prices an out-of-range first at the bound (the resolver refuses it before any call)', () => {
    expect(cost(`{ ${INVENTORY} { items(first: 100000) { nodes { id } } } }`)).toBe(101);
    expect(cost(`{ ${INVENTORY} { items(first: -5) { nodes { id } } } }`)).toBe(1);
  });

  it('charges a listing fee per item, under edges and under nodes alike', () => {
    const fee = 'listingFee(price: 500) { fee }';
    expect(cost(`{ ${INVENTORY} { items(first: 10) { edges { node { ${fee} } } nodes { ${fee} } } } }`)).toBe(
      1 + 10 + 10 + 10,
    );
  });

  it('counts fields inside fragments and honours @skip and @include', () => {
    const query = `
      query ($withFees: Boolean!) { ${INVENTORY} { ...Page } }
      fragment Page on Inventory { items(first: 10) { nodes { ... on InventoryItem { listingFee(price: 1) @include(if: $withFees) { fee } } } } }`;
    expect(cost(query, { withFees: true })).toBe(21);
    expect(cost(query, { withFees: false })).toBe(11);
  });

  it('charges each representation of a federation entity fetch as node(id:), with its fields', () => {
    const query = `query ($r: [_Any!]!) { _entities(representations: $r) {
      ... on Inventory { totalCount items(first: 5) { nodes { id } } } ... on InventoryItem { listingFee(price: 1) { fee } } } }`;
    const representations = (n: number) => Array.from({ length: n }, () => ({ __typename: 'Inventory', platformId: 'p', appId: 730 }));
    expect(cost(query, { r: representations(1) })).toBe(2 + 1 + 6 + 1);
    expect(cost(query, { r: representations(100) })).toBe(100 * (2 + 1 + 6 + 1));
    expect(cost('{ _entities(representations: []) { __typename } }')).toBe(0);
  });

  it('charges node(id:) a call for one item, and the mutation a call plus its items', () => {
    expect(cost('{ node(id: "x") { id } }')).toBe(2);
    expect(cost('mutation ($items: [ListingFeeItemInput!]!) { calculateListingFee(input: { items: $items }) { fees { fee } } }', {
      items: [{ price: 1 }, { price: 2 }, { price: 3 }],
    })).toBe(4);
  });

  it('multiplies by aliases: each aliased field is its own work', () => {
    const aliased = Array.from({ length: 30 }, (_, index) => `i${index}: ${INVENTORY} { items(first: 100) { nodes { listingFee(price: 1) { fee } } } }`);
    expect(cost(`{ ${aliased.join(' ')} }`)).toBe(30 * 201);
  });

  it('picks the named operation, and gives up (null) when variables do not coerce', () => {
    const document = `query A { ${INVENTORY} { totalCount } } query B { ${INVENTORY} { items { nodes { id } } } }`;
    expect(cost(document, {}, 'A')).toBe(1);
    expect(cost(document, {}, 'B')).toBe(21);
    expect(cost(`query ($n: Int) { ${INVENTORY} { items(first: $n) { nodes { id } } } }`, { n: 'many' })).toBeNull();
  });

  it('prices one parsed document again under each request\'s variables', () => {
    // Yoga's parse cache hands every request of the same text the same DocumentNode.
    const document = parse(`
      query ($n: Int!, $withFees: Boolean!) { ${INVENTORY} {
        items(first: $n) { nodes { listingFee(price: 1) @include(if: $withFees) { fee } } } } }`);
    expect(operationCost(schema, document, undefined, { n: 10, withFees: true })).toBe(21);
    expect(operationCost(schema, document, undefined, { n: 10, withFees: false })).toBe(11);
    expect(operationCost(schema, document, undefined, { n: 40, withFees: true })).toBe(81);
    expect(operationCost(schema, document, undefined, { n: 'many', withFees: true })).toBeNull();
    expect(operationCost(schema, document, undefined, { n: 40, withFees: true })).toBe(81);
  });

  it('tells a missing variable (its default applies) from a null one when it reuses a price', () => {
    const document = parse(`query ($n: Int = 5) { ${INVENTORY} { items(first: $n) { nodes { id } } } }`);
    expect(operationCost(schema, document, undefined, {})).toBe(6);
    expect(operationCost(schema, document, undefined, { n: null })).toBe(21);
    expect(operationCost(schema, document, undefined, {})).toBe(6);
  });

  it('prices a mutation by how many items its input has, leaving the input\'s coercion to execution', () => {
    const document = parse('mutation ($input: CalculateListingFeeInput!) { calculateListingFee(input: $input) { fees { fee } } }');
    const items = (n: number) => Array.from({ length: n }, () => ({ price: 'not a price' }));
    expect(operationCost(schema, document, undefined, { input: { items: items(3) } })).toBe(4);
    expect(operationCost(schema, document, undefined, { input: { items: items(500) } })).toBe(101);
    expect(operationCost(schema, document, undefined, { input: { items: 'none' } })).toBe(2);
  });

  it('gives up (null) when an argument built around an uncoerced input does not fit its type', () => {
    const document = parse('mutation ($items: [ListingFeeItemInput!]!) { calculateListingFee(input: { items: $items }) { fees { fee } } }');
    expect(operationCost(schema, document, undefined, { items: null })).toBeNull();
    expect(operationCost(schema, document, undefined, {})).toBeNull();
    expect(operationCost(schema, document, undefined, { items: [{ price: 1 }, { price: 2 }] })).toBe(3);
  });

  it('coerces only the variables the price reads', () => {
    // platformId costs nothing whatever its value; execution refuses a bad one on its own.
    const document = parse(`query ($p: String!, $n: Int!) { inventory(platformId: $p, appId: 730) { items(first: $n) { nodes { id } } } }`);
    expect(operationCost(schema, document, undefined, { p: 12, n: 5 })).toBe(6);
    expect(operationCost(schema, document, undefined, { n: 5 })).toBe(6);
  });
});

describe('operationCost of deferred fields', () => {
  it('prices a deferred listing fee like any other, in an inline fragment and in a fragment spread', () => {
    const fee = 'listingFee(price: 500) { fee }';
    const plain = cost(`{ ${INVENTORY} { items(first: 40) { nodes { id ${fee} } } } }`);
    expect(plain).toBe(1 + 40 + 40);
    expect(cost(`{ ${INVENTORY} { items(first: 40) { nodes { id ... @defer { ${fee} } } } } }`)).toBe(plain);
    expect(cost(`{ ${INVENTORY} { items(first: 40) { nodes { id ... on InventoryItem @defer(label: "f") { ${fee} } } } } }`)).toBe(plain);
    expect(cost(`{ ${INVENTORY} { items(first: 40) { nodes { id ...Fee @defer } } } } fragment Fee on InventoryItem { ${fee} }`)).toBe(plain);
  });
});

describe('the app-key part of a price (what the fee mutation costs, spent with the merchant key alone)', () => {
  const price = (query: string, variables: Record<string, unknown> = {}) => operationPrice(schema, parse(query), undefined, variables);

  it('is the mutation, per item; reads, and the fees of items a read answered, are not in it', () => {
    expect(price(`{ ${INVENTORY} { totalCount items(first: 10) { nodes { id } } } }`)).toMatchObject({ cost: 12, appKeyCost: 0 });
    expect(price(`{ ${INVENTORY} { items(first: 10) { nodes { listingFee(price: 1) { fee } } } } }`)).toMatchObject({
      cost: 1 + 10 + 10,
      appKeyCost: 0,
    });
    const mutation = 'mutation ($input: CalculateListingFeeInput!) { calculateListingFee(input: $input) { fees { fee } } }';
    expect(price(mutation, { input: { items: [{ price: 1 }, { price: 2 }, { price: 3 }] } })).toMatchObject({ cost: 4, appKeyCost: 4 });
  });
});
