// The page size of Inventory.items is stated once: its default is the SDL's default of `first`,
// which the resolver reads from the schema; its maximum is MAX_PAGE_SIZE (src/tunables.ts). The
// places that must repeat them for a reader or a gateway (the @listSize price of a page whose
// `first` is null, the argument's description) are held to those two here.
import { getDirectiveValues, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/schema.js';
import { MAX_PAGE_SIZE } from '../../src/tunables.js';
import { pageSizeOf, parseItemsArgs } from '../../src/inventory/paging.js';

const schema = buildSchema();
const inventory = schema.getType('Inventory') as GraphQLObjectType;
const items = inventory.getFields().items!;
const first = items.args.find((argument) => argument.name === 'first')!;
const info = { parentType: inventory, fieldName: 'items' };

describe('the page size of Inventory.items', () => {
  it('defaults `first` in the SDL, and reads that default for a first left out or null', () => {
    expect(typeof first.defaultValue).toBe('number');
    expect(pageSizeOf(undefined, info)).toBe(first.defaultValue);
    expect(pageSizeOf(null, info)).toBe(first.defaultValue);
    expect(pageSizeOf(7, info)).toBe(7);
  });

  it('prices a page without a size at the default size', () => {
    const listSize = getDirectiveValues(schema.getDirective('listSize')!, { directives: items.astNode?.directives });
    expect(listSize?.assumedSize).toBe(first.defaultValue);
  });

  it('tells clients the maximum that the resolver holds them to', () => {
    expect(first.description).toContain(`0 to ${MAX_PAGE_SIZE}`);
    expect(() => parseItemsArgs({ platformId: 'p', appId: 1 }, MAX_PAGE_SIZE, null)).not.toThrow();
    expect(() => parseItemsArgs({ platformId: 'p', appId: 1 }, MAX_PAGE_SIZE + 1, null)).toThrow(`from 0 to ${MAX_PAGE_SIZE}`);
  });
});
