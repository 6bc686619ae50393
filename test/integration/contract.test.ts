// Guards the public contract (docs/contract.graphql, the committed copy of the shared contract): the
// merged SDL clients point their tooling at, and the schema the server executes, both hold all of it
// with identical types.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema as buildSchemaFromSdl, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema as buildServedSchema } from '../../src/schema.js';
import { contractDifferences } from '../support/contract.js';

const CONTRACT = fileURLToPath(new URL('../../docs/contract.graphql', import.meta.url));
const MERGED_SDL = fileURLToPath(new URL('../../src/generated/schema.graphql', import.meta.url));

const loadContract = (): GraphQLSchema => buildSchemaFromSdl(readFileSync(CONTRACT, 'utf8'));

describe('public contract', () => {
  it('keeps the contract in the merged SDL for clients (src/generated/schema.graphql)', () => {
    const merged = buildSchemaFromSdl(readFileSync(MERGED_SDL, 'utf8'));
    expect(contractDifferences(loadContract(), merged)).toEqual([]);
  });

  it('keeps the contract in the schema the server executes', () => {
    expect(contractDifferences(loadContract(), buildServedSchema())).toEqual([]);
  });

  it('covers every type of the contract (the check is not vacuous)', () => {
    const contract = loadContract();
    const names = Object.keys(contract.getTypeMap()).filter((name) => !name.startsWith('__'));
    expect(names).toEqual(expect.arrayContaining(['Inventory', 'InventoryItem', 'CalculateListingFeeInput', 'JSON', 'Node']));
    // id, the 30 upstream fields and listingFee.
    expect(Object.keys((contract.getType('InventoryItem') as GraphQLObjectType).getFields())).toHaveLength(32);
  });

  it('reports each kind of drift from the contract', () => {
    const contract = buildSchemaFromSdl(`
      interface Node { id: ID! }
      type Query { item(id: ID!, first: Int): Item, old: Int }
      type Item implements Node { id: ID!, price: Int }
      input Filter { ids: [ID!]! }
      enum Color { RED GREEN }
    `);
    const drifted = buildSchemaFromSdl(`
      interface Node { id: ID! }
      type Query { item(id: String!, last: Int!): Item }
      type Item { id: ID!, price: Int! }
      input Filter { ids: [ID!], required: Int! }
      enum Color { RED }
    `);
    expect(contractDifferences(contract, drifted).sort()).toEqual(
      [
        "Argument 'Query.item(id)' is 'String!', not 'ID!'.",
        "Argument 'Query.item(first)' is missing.",
        "Argument 'Query.item(last)' is added as required.",
        "Field 'Query.old' is missing.",
        "Type 'Item' does not implement 'Node'.",
        "Field 'Item.price' is 'Int!', not 'Int'.",
        "Input field 'Filter.ids' is '[ID!]', not '[ID!]!'.",
        "Input field 'Filter.required' is added as required.",
        "Enum value 'Color.GREEN' is missing.",
      ].sort(),
    );
  });
});
