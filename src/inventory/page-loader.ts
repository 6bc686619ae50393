// Per-request loader of inventory pages. Every key of one tick that starts at the same asset of the
// same inventory shares one partner call (asked for the largest count among them), and a key that
// wants only the inventory's `total` rides along on any page of that inventory.
import DataLoader from 'dataloader';
import { ITEM_INVENTORY, type InventoryItemModel, type InventoryRef } from './model.js';
import type { TradeInventoryResponseDTO } from '../partner/models.js';

export interface InventoryPageKey extends InventoryRef {
  /** The asset to start from (a digit string), or null for the inventory's start. */
  readonly startAssetId: string | null;
  /** How many items are wanted; 0 when only `total` is. */
  readonly count: number;
}

export interface InventoryPage {
  total: number | null;
  /** Up to `count` items, as the partner API answered for the key's start. */
  items: InventoryItemModel[];
}

export type FetchInventoryPage = (request: {
  platformId: string;
  appId: number;
  startAssetId: string | null;
  count: number;
}) => Promise<TradeInventoryResponseDTO>;

export type InventoryPageLoader = DataLoader<InventoryPageKey, InventoryPage, string>;

const inventoryKey = (key: InventoryRef) => `${key.appId}\u0000${key.platformId}`;
const startKey = (key: InventoryPageKey) => `${inventoryKey(key)}\u0000${key.startAssetId ?? ''}`;

/**
 * The loader is created per request with that request's credential baked into `fetchPage`, so a
 * key is in effect (credential, platformId, appId, start, count) and no answer outlives the request.
 */
export function createInventoryPageLoader(fetchPage: FetchInventoryPage): InventoryPageLoader {
  return new DataLoader<InventoryPageKey, InventoryPage, string>(
    async (keys) => {
      const calls = new Map<string, { key: InventoryPageKey; count: number }>();
      const inventoriesWithPages = new Set<string>();
      for (const key of keys) {
        if (key.count === 0) continue;
        inventoriesWithPages.add(inventoryKey(key));
        const call = calls.get(startKey(key));
        if (!call) calls.set(startKey(key), { key, count: key.count });
        else call.count = Math.max(call.count, key.count);
      }
      // A total-only key needs a call of its own only when no page of its inventory is loading.
      for (const key of keys) {
        if (key.count !== 0 || inventoriesWithPages.has(inventoryKey(key))) continue;
        const firstPage: InventoryPageKey = { ...key, startAssetId: null, count: 1 };
        calls.set(startKey(firstPage), { key: firstPage, count: 1 });
        inventoriesWithPages.add(inventoryKey(key));
      }
      // Settled together, so that everything resolved from this batch continues in one tick and
      // the fields it leads to (listing fees) batch together too.
      const results = new Map<string, InventoryPage | Error>();
      const anyPageOf = new Map<string, InventoryPage | Error>();
      await Promise.all(
        [...calls].map(async ([id, { key, count }]) => {
          const { platformId, appId, startAssetId } = key;
          const result = await fetchPage({ platformId, appId, startAssetId, count }).then(
            (page) => toInventoryPage(key, page),
            (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
          );
          results.set(id, result);
          anyPageOf.set(inventoryKey(key), result);
        }),
      );
      return keys.map((key) => {
        if (key.count === 0) {
          const page = anyPageOf.get(inventoryKey(key))!;
          return page instanceof Error ? page : { total: page.total, items: [] };
        }
        const page = results.get(startKey(key))!;
        if (page instanceof Error || page.items.length <= key.count) return page;
        return { total: page.total, items: page.items.slice(0, key.count) };
      });
    },
    { cacheKeyFn: (key) => `${startKey(key)}\u0000${key.count}` },
  );
}

function toInventoryPage(inventory: InventoryRef, page: TradeInventoryResponseDTO): InventoryPage {
  const ref: InventoryRef = { platformId: inventory.platformId, appId: inventory.appId };
  for (const item of page.list) (item as { [ITEM_INVENTORY]?: InventoryRef })[ITEM_INVENTORY] = ref;
  return { total: page.total, items: page.list as InventoryItemModel[] };
}
