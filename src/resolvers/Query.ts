// Root query fields: check the arguments, name the object; the data is loaded by its fields.
import { toInventoryRef } from '../inventory/model.js';
import { loadNode } from '../inventory/references.js';
import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  inventory: (_parent, { platformId, appId }) => toInventoryRef(platformId, appId),
  node: (_parent, { id }, { loaders }) => loadNode(loaders.inventoryPage, id),
};
