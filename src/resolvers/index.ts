// The resolver map, one module per GraphQL type.
import type { Resolvers } from '../generated/resolvers-types.js';
import { isInventoryItemModel } from '../inventory/model.js';
import { Inventory } from './Inventory.js';
import { InventoryItem } from './InventoryItem.js';
import { Mutation } from './Mutation.js';
import { Query } from './Query.js';
import { DateTime, Decimal, JSON } from './scalars.js';

export const resolvers: Resolvers = {
  DateTime,
  Decimal,
  JSON,
  Query,
  Mutation,
  Node: {
    __resolveType: (node) => (isInventoryItemModel(node) ? 'InventoryItem' : 'Inventory'),
  },
  Inventory,
  InventoryItem,
};
