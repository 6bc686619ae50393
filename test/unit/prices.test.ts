// Prices live in the schema: every list field carries @listSize (or is sized by the field that
// returns its parent), and every field whose resolver calls the partner carries @cost. Which
// resolvers call the partner is not a hand-kept list: each resolver of the map is called with a
// context that records whether it reached for the loaders, the only way to the partner.
import {
  parse,
  print,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/inventory/global-id.js';
import { ITEM_INVENTORY, toInventoryRef } from '../../src/inventory/model.js';
import { APP_KEY_FIELDS } from '../../src/cost/policy.js';
import { operationCost, pricesOf } from '../../src/cost/price.js';
import { resolvers } from '../../src/resolvers/index.js';
import { buildSchema, loadTypeDefs } from '../../src/schema.js';

const inventory = toInventoryRef('76561198000000240', 730);
/** A value of each type, as its resolvers receive it from the field above. */
const PARENTS: Record<string, unknown> = {
  Query: {},
  Mutation: {},
  Inventory: inventory,
  InventoryItem: { [ITEM_INVENTORY]: inventory, assetId: '1', token: 't', styleToken: 's', tradableTime: 0, systemTime: 0 },
};
/** A valid value of each argument of the schema, by name. */
const ARGUMENTS: Record<string, unknown> = {
  first: 1,
  price: 1,
  platformId: '76561198000000240',
  appId: 730,
  id: encodeGlobalId({ type: 'InventoryItem', platformId: '76561198000000240', appId: 730, assetId: '1' }),
  input: { items: [{ price: 1, token: 't' }] },
};

/**
 * The `Type.field` (or `Type.__resolveReference`) resolvers that reach for the partner's loaders,
 * or for the one loader named.
 */
async function partnerResolvers(loader?: string): Promise<string[]> {
  const found: string[] = [];
  for (const [typeName, typeResolvers] of Object.entries(resolvers)) {
    if (!(typeName in PARENTS)) continue;
    for (const [fieldName, resolve] of Object.entries(typeResolvers as Record<string, unknown>)) {
      if (typeof resolve !== 'function') continue;
      let reached = false;
      const pending = new Promise(() => {});
      const loaders = new Proxy(
        {},
        { get: (_loaders, name) => ((reached ||= loader === undefined || name === loader), { load: () => pending, loadMany: () => pending }) },
      );
      const context = { loaders, pageMaxPartnerCalls: 4, credentials: { accessToken: 't' }, requestId: 'r', deadline: {} };
      const reference = { __typename: typeName, id: ARGUMENTS.id, platformId: inventory.platformId, appId: inventory.appId };
      try {
        const result =
          fieldName === '__resolveReference'
            ? (resolve as (...args: unknown[]) => unknown)(reference, context, {})
            : (resolve as (...args: unknown[]) => unknown)(PARENTS[typeName], ARGUMENTS, context, {});
        void Promise.resolve(result).catch(() => {});
      } catch {
        // A resolver that throws on these values is still asked: reaching the loaders is what counts.
      }
      if (reached) found.push(`${typeName}.${fieldName}`);
    }
  }
  return found.sort();
}

/** The prices the schema lacks: list fields without a size, partner fields without a weight. */
function missingPrices(schema: GraphQLSchema, partnerFields: readonly string[]): string[] {
  const fieldOf = (coordinate: string): GraphQLField<unknown, unknown> | undefined => {
    const [typeName, fieldName] = coordinate.split('.') as [string, string];
    const type = schema.getType(typeName);
    return isObjectType(type) || isInterfaceType(type) ? type.getFields()[fieldName] : undefined;
  };
  const fields = Object.values(schema.getTypeMap())
    .filter((type) => (isObjectType(type) || isInterfaceType(type)) && !type.name.startsWith('__'))
    .flatMap((type) => Object.keys((type as { getFields(): object }).getFields()).map((name) => `${type.name}.${name}`));
  const sized = new Set<string>();
  for (const coordinate of fields) {
    const field = fieldOf(coordinate)!;
    for (const name of pricesOf(schema, field).listSize?.sizedFields ?? []) sized.add(`${getNamedType(field.type).name}.${name}`);
  }
  const missing: string[] = [];
  for (const coordinate of fields) {
    // `_entities` comes from the subgraph library: the cost plan prices it as Query.node per representation.
    if (coordinate === 'Query._entities') continue;
    const field = fieldOf(coordinate)!;
    if (isListType(getNullableType(field.type)) && !pricesOf(schema, field).listSize && !sized.has(coordinate)) {
      missing.push(`${coordinate} (a list without @listSize)`);
    }
  }
  for (const coordinate of partnerFields) {
    // An entity reference resolves an id as Query.node does, and is priced at its weight.
    const priced = coordinate.endsWith('.__resolveReference') ? 'Query.node' : coordinate;
    const field = fieldOf(priced);
    if (!field || pricesOf(schema, field).weight <= 0) {
      missing.push(`${priced} (calls the partner${priced === coordinate ? '' : ` for ${coordinate}`} without @cost)`);
    }
  }
  return missing;
}

/**
 * The price list docs/operation-limits.md states ("one per partner call, one per item the partner
 * reads or prices"), field by field: what each priced field of the schema must carry. A field with
 * no entry must carry no price at all.
 */
const PRICE_LIST: Record<string, { weight: number; listSize?: object; inputs?: object[] }> = {
  // One partner call reading one item.
  'Query.node': { weight: 2 },
  // One partner call (the page read that reports `total`).
  'Inventory.totalCount': { weight: 1 },
  // The page call, plus one per item asked for (`first`, 20 when omitted or null).
  'Inventory.items': {
    weight: 1,
    listSize: { assumedSize: 20, slicingArguments: ['first'], sizedFields: ['edges', 'nodes'] },
    inputs: [{ path: ['first'], weight: 1, slicing: true }],
  },
  // One partner call pricing one item.
  'InventoryItem.listingFee': { weight: 1 },
  // One call, plus one per input item priced.
  'Mutation.calculateListingFee': { weight: 1, inputs: [{ path: ['input', 'items'], weight: 1, slicing: false }] },
  // A list the partner answers whole: at most the 100 items of the input.
  'CalculateListingFeePayload.fees': { weight: 0, listSize: { assumedSize: 100, slicingArguments: [], sizedFields: [] } },
};

/** Every field of the schema that carries a price, as the cost plan reads it. */
function priceList(schema: GraphQLSchema): Record<string, { weight: number; listSize?: object; inputs?: object[] }> {
  const found: Record<string, { weight: number; listSize?: object; inputs?: object[] }> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(isObjectType(type) || isInterfaceType(type)) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const { weight, listSize, inputs } = pricesOf(schema, field);
      if (weight === 0 && !listSize && inputs.length === 0) continue;
      found[`${type.name}.${field.name}`] = {
        weight,
        ...(listSize && { listSize: { ...listSize, sizedFields: [...listSize.sizedFields] } }),
        ...(inputs.length > 0 && { inputs }),
      };
    }
  }
  return found;
}

describe('prices in the schema', () => {
  it('prices each field as the documented price list says, and nothing else', () => {
    expect(priceList(buildSchema())).toEqual(PRICE_LIST);
  });

  it('prices whole operations by those rules', () => {
    const schema = buildSchema();
    const cost = (query: string, variables?: Record<string, unknown>) => operationCost(schema, parse(query), null, variables);
    const page = `inventory(platformId: "1", appId: 730)`;
    const id = JSON.stringify(ARGUMENTS.id);
    expect(cost(`{ node(id: ${id}) { id } }`)).toBe(2);
    expect(cost(`{ ${page} { totalCount } }`)).toBe(1);
    // The call, 20 items by default, a fee per item.
    expect(cost(`{ ${page} { items { nodes { id listingFee(price: 5) { fee } } } } }`)).toBe(1 + 20 + 20);
    expect(cost(`query($n: Int) { ${page} { items(first: $n) { edges { node { id } } } } }`, { n: 7 })).toBe(1 + 7);
    expect(cost(`{ ${page} { items(first: null) { nodes { id } } } }`)).toBe(1 + 20);
    const items = Array.from({ length: 3 }, (_, i) => `{ price: ${i + 1}, token: "t${i}" }`).join(', ');
    expect(cost(`mutation { calculateListingFee(input: { items: [${items}] }) { fees { fee } } }`)).toBe(1 + 3);
  });

  it('finds the resolvers that call the partner from the resolvers themselves', async () => {
    expect(await partnerResolvers()).toEqual([
      'Inventory.items',
      'Inventory.totalCount',
      'InventoryItem.__resolveReference',
      'InventoryItem.listingFee',
      'Mutation.calculateListingFee',
      'Query.node',
    ]);
  });

  it('names in APP_KEY_FIELDS every resolver that spends the merchant key (the listing-fee loader) but an item\'s', async () => {
    // An item's fee is asked of an item the partner read with the caller's token: a proven caller's.
    expect(await partnerResolvers('listingFee')).toEqual(['InventoryItem.listingFee', ...APP_KEY_FIELDS].sort());
  });

  it('prices every list field and every field that calls the partner', async () => {
    expect(missingPrices(buildSchema(), await partnerResolvers())).toEqual([]);
  });

  it('names the field whose price was left out', async () => {
    const unpriced = print(loadTypeDefs())
      .replace('totalCount: Int @cost(weight: 1)', 'totalCount: Int')
      .replace(/\s@listSize\(assumedSize: 100\)/, '');
    expect(missingPrices(buildSchema(parse(unpriced)), await partnerResolvers())).toEqual([
      'CalculateListingFeePayload.fees (a list without @listSize)',
      'Inventory.totalCount (calls the partner without @cost)',
    ]);
  });
});
