// Root query fields: check the arguments, name the object; the data is loaded by its fields.
import { BadUserInputError } from '../errors.js';
import { decodeGlobalId } from '../global-id.js';
import { quote } from '../inventory/cursor.js';
import type { InventoryRef } from '../inventory/model.js';
import type { QueryResolvers } from '../generated/resolvers-types.js';
import { loadInventoryItem } from '../inventory/item-by-id.js';

// Platform account ids are path segments upstream: short, of URL-safe characters only, and never
// a dot segment ('.', '..'), which a normalising proxy would read as a move to another path.
const PLATFORM_ID = /^[A-Za-z0-9._-]{1,64}$/;
const DOTS_ONLY = /^\.+$/;

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
  if (appId <= 0) {
    throw new BadUserInputError(`Argument 'appId' must be a positive game id; got ${appId}.`, 'appId');
  }
  return { platformId, appId };
}

export const Query: QueryResolvers = {
  inventory: (_parent, { platformId, appId }) => toInventoryRef(platformId, appId),
  node: async (_parent, { id }, { loaders }) => {
    const decoded = decodeGlobalId(id);
    const inventory = toInventoryRef(decoded.platformId, decoded.appId);
    if (decoded.type === 'Inventory') return inventory;
    return loadInventoryItem(loaders.inventoryPage, inventory, decoded.assetId);
  },
};
