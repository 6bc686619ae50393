// Inventory: its id is its coordinates; totalCount and items go through the page loader. As a
// federation entity it is keyed by `id` and by `platformId appId`.
import { encodeGlobalId } from '../inventory/global-id.js';
import { inventoryOfReference } from '../inventory/references.js';
import { inPlace } from './references.js';
import { loadItemConnection, pageSizeOf, parseItemsArgs } from '../inventory/paging.js';
import type { InventoryResolvers } from '../generated/resolvers-types.js';

export const Inventory: InventoryResolvers = {
  // Async: a refused representation fails its own entry of `_entities`, not the whole list.
  __resolveReference: inPlace(async (reference) => inventoryOfReference(reference)),
  id: ({ platformId, appId }) => encodeGlobalId({ type: 'Inventory', platformId, appId }),
  totalCount: async (inventory, _args, { loaders }) =>
    (await loaders.inventoryPage.load({ ...inventory, startAssetId: null, count: 0 })).total,
  items: (inventory, { first, after }, { loaders, pageMaxPartnerCalls }, info) =>
    // Arguments are checked before the loader is asked: bad input never reaches the partner.
    loadItemConnection(loaders.inventoryPage, inventory, parseItemsArgs(inventory, pageSizeOf(first, info), after), pageMaxPartnerCalls),
};
