// What the GraphQL types `Inventory` and `InventoryItem` are built from (codegen mappers).
import { BadUserInputError, quote } from '../errors.js';
import type { TradeInventoryItemDTO } from '../partner/models.js';

/** An inventory is named by its coordinates; its data is loaded only by the fields that need it. */
export interface InventoryRef {
  readonly platformId: string;
  readonly appId: number;
}

/** Longest asset id accepted: the partner's are digit strings past 2^53, far shorter than this. */
export const MAX_ASSET_ID_DIGITS = 64;
const ASSET_ID = new RegExp(`^\\d{1,${MAX_ASSET_ID_DIGITS}}$`);
/** Whether a text is an asset id as `InventoryItem.assetId` gives it (and the partner pages from). */
export const isAssetId = (text: string): boolean => ASSET_ID.test(text);

/** The largest GraphQL Int: `appId` is one in every field and argument that carries it. */
const MAX_APP_ID = 2 ** 31 - 1;
/** Whether a value is a game id as the schema's `appId` carries it: a positive GraphQL Int. */
export const isAppId = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0 && (value as number) <= MAX_APP_ID;

// Platform account ids are path segments upstream: short, of URL-safe characters only, and never
// a dot segment ('.', '..'), which a normalising proxy would read as a move to another path.
const PLATFORM_ID = /^[A-Za-z0-9._-]{1,64}$/;
const DOTS_ONLY = /^\.+$/;

/** An inventory's coordinates, checked before anything is asked of the partner API. */
export function toInventoryRef(platformId: string, appId: number): InventoryRef {
  if (DOTS_ONLY.test(platformId)) {
    throw new BadUserInputError(
      `Argument 'platformId' must name one account, not a dot path segment; got '${quote(platformId)}'.`,
      'platformId',
    );
  }
  if (!PLATFORM_ID.test(platformId)) {
    throw new BadUserInputError(
      `Argument 'platformId' must be 1 to 64 letters, digits, '.', '_' or '-'; got '${quote(platformId)}'.`,
      'platformId',
    );
  }
  if (!isAppId(appId)) {
    throw new BadUserInputError(`Argument 'appId' must be a positive game id, at most ${MAX_APP_ID}; got ${appId}.`, 'appId');
  }
  return { platformId, appId };
}

/** Where an item was read: its global id is built from its inventory's coordinates. */
export const ITEM_INVENTORY: unique symbol = Symbol('tradegraph.itemInventory');

/**
 * An upstream item as the partner API sent it, tagged with the inventory it was read from. The tag
 * is a symbol so that it can never clash with a field the partner API adds.
 */
export type InventoryItemModel = TradeInventoryItemDTO & { readonly [ITEM_INVENTORY]: InventoryRef };

export const isInventoryItemModel = (value: object): value is InventoryItemModel => ITEM_INVENTORY in value;
