// Objects named by reference rather than by arguments: a global id (`Query.node`) or an entity
// representation a federation gateway sends (`_entities`). Both are checked like arguments.
import { BadUserInputError, quote, quoteJson } from '../errors.js';
import { decodeGlobalId, type GlobalId } from './global-id.js';
import { loadInventoryItem } from './item-by-id.js';
import { isAppId, toInventoryRef, type InventoryItemModel, type InventoryRef } from './model.js';
import type { InventoryPageLoader } from './page-loader.js';

type ItemId = Extract<GlobalId, { type: 'InventoryItem' }>;

const inventoryOf = (id: GlobalId): InventoryRef => toInventoryRef(id.platformId, id.appId);
const loadItem = (loader: InventoryPageLoader, id: ItemId) => loadInventoryItem(loader, inventoryOf(id), id.assetId);

/** The object a global id names; null when the partner API does not have the item. */
export async function loadNode(loader: InventoryPageLoader, id: string): Promise<InventoryRef | InventoryItemModel | null> {
  const decoded = decodeGlobalId(id);
  return decoded.type === 'Inventory' ? inventoryOf(decoded) : loadItem(loader, decoded);
}

/**
 * An `Inventory` representation, by either of its keys: `{ id }` or `{ platformId, appId }`.
 * Representations are JSON relayed by the gateway (`_Any`): no GraphQL type has checked them.
 */
export function inventoryOfReference(reference: Record<string, unknown>): InventoryRef {
  if ('id' in reference) return inventoryOf(decodeReferenceId(reference.id, 'Inventory'));
  const { platformId, appId } = reference;
  if (typeof platformId !== 'string') {
    throw new BadUserInputError(`An Inventory reference needs 'platformId' as a string, or 'id'; got ${quoteJson(platformId, 'nothing')}.`, 'platformId');
  }
  if (!isAppId(appId)) {
    throw new BadUserInputError(`An Inventory reference needs 'appId' as a positive Int; got ${quoteJson(appId, 'nothing')}.`, 'appId');
  }
  return toInventoryRef(platformId, appId);
}

/** An `InventoryItem` representation (`{ id }`), loaded as `Query.node` loads the same id. */
export async function loadInventoryItemOfReference(
  loader: InventoryPageLoader,
  reference: Record<string, unknown>,
): Promise<InventoryItemModel | null> {
  return loadItem(loader, decodeReferenceId(reference.id, 'InventoryItem'));
}

function decodeReferenceId<T extends GlobalId['type']>(id: unknown, type: T): Extract<GlobalId, { type: T }> {
  if (typeof id !== 'string') throw new BadUserInputError(`A ${type} reference needs 'id' as a string; got ${quoteJson(id, 'nothing')}.`, 'id');
  const decoded = decodeGlobalId(id);
  if (decoded.type !== type) throw new BadUserInputError(`Id '${quote(id)}' is not the id of an ${type}.`, 'id');
  return decoded as Extract<GlobalId, { type: T }>;
}

