// What the GraphQL types `Inventory` and `InventoryItem` are built from (codegen mappers).
import type { TradeInventoryItemDTO } from '../partner/models.js';

/** An inventory is named by its coordinates; its data is loaded only by the fields that need it. */
export interface InventoryRef {
  readonly platformId: string;
  readonly appId: number;
}

/** Where an item was read: its global id is built from its inventory's coordinates. */
export const ITEM_INVENTORY: unique symbol = Symbol('tradegraph.itemInventory');

/**
 * An upstream item as the partner API sent it, tagged with the inventory it was read from. The tag
 * is a symbol so that it can never clash with a field the partner API adds.
 */
export type InventoryItemModel = TradeInventoryItemDTO & { readonly [ITEM_INVENTORY]: InventoryRef };

export const isInventoryItemModel = (value: object): value is InventoryItemModel => ITEM_INVENTORY in value;
