// InventoryItem: upstream fields pass through by name; here are only the ones that convert. As a
// federation entity it is keyed by `id`.
import { encodeGlobalId } from '../inventory/global-id.js';
import { ITEM_INVENTORY } from '../inventory/model.js';
import { loadInventoryItemOfReference } from '../inventory/references.js';
import type { InventoryItemResolvers } from '../generated/resolvers-types.js';
import { checkPrice } from '../listing-fee/input.js';
import { inPlace } from './references.js';
import { fromUnixSeconds } from './scalars.js';

export const InventoryItem: InventoryItemResolvers = {
  __resolveReference: inPlace((reference, { loaders }) => loadInventoryItemOfReference(loaders.inventoryPage, reference)),
  id: (item) => {
    const { platformId, appId } = item[ITEM_INVENTORY];
    return encodeGlobalId({ type: 'InventoryItem', platformId, appId, assetId: item.assetId });
  },
  tradableTime: (item) => fromUnixSeconds(item.tradableTime, 'tradableTime'),
  systemTime: (item) => fromUnixSeconds(item.systemTime, 'systemTime'),
  listingFee: async (item, { price }, { loaders }) => {
    checkPrice(price, "Argument 'price'");
    // The item's asset id lets its fee be matched whatever order the partner answers in.
    return loaders.listingFee.load({
      price,
      token: item.token ?? null,
      styleToken: item.styleToken ?? null,
      assetId: item.assetId,
    });
  },
};
