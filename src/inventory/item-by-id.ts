// Refetching one item by its global id. The partner API reads an inventory only from a start
// asset, so the item is found directly only when `startAssetId` includes the asset it names; under
// the other reading the answer starts after the item, and `node` answers null (see docs/paging-and-fees.md).
import type { InventoryPageLoader } from './page-loader.js';
import type { InventoryItemModel, InventoryRef } from './model.js';

export async function loadInventoryItem(
  loader: InventoryPageLoader,
  inventory: InventoryRef,
  assetId: string,
): Promise<InventoryItemModel | null> {
  const page = await loader.load({ ...inventory, startAssetId: assetId, count: 1 });
  const item = page.items[0];
  return item && item.assetId === assetId ? item : null;
}
