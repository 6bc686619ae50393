// Inventory: its id is its coordinates; totalCount and items go through the page loader.
import { encodeGlobalId } from '../global-id.js';
import { loadItemConnection, parseItemsArgs } from '../inventory/paging.js';
import type { InventoryResolvers } from '../generated/resolvers-types.js';

export const Inventory: InventoryResolvers = {
  id: ({ platformId, appId }) => encodeGlobalId({ type: 'Inventory', platformId, appId }),
  totalCount: async (inventory, _args, { loaders }) =>
    (await loaders.inventoryPage.load({ ...inventory, startAssetId: null, count: 0 })).total,
  items: (inventory, { first, after }, { loaders, pageMaxPartnerCalls }) =>
    // Arguments are checked before the loader is asked: bad input never reaches the partner.
    loadItemConnection(loaders.inventoryPage, inventory, parseItemsArgs(inventory, first, after), pageMaxPartnerCalls),
};
