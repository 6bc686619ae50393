// InventoryItem: upstream fields pass through by name; here are only the ones that convert. As a
// federation entity it is keyed by `id`.
import { UpstreamBadResponseError } from '../errors.js';
import { encodeGlobalId } from '../global-id.js';
import { ITEM_INVENTORY } from '../inventory/model.js';
import { loadInventoryItemOfReference } from '../inventory/references.js';
import { CALCULATE_LISTING_FEE } from '../partner/listing-fee.js';
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
    const fee = await loaders.listingFee.load({
      price,
      token: item.token ?? null,
      styleToken: item.styleToken ?? null,
    });
    // Results are matched by position; an asset id that names another item means they are not.
    if (fee.assetId && fee.assetId !== item.assetId) {
      throw new UpstreamBadResponseError(
        CALCULATE_LISTING_FEE,
        `the fee for asset ${item.assetId} came back for asset ${fee.assetId}`,
      );
    }
    return fee;
  },
};
