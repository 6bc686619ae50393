// The opaque cursor of an inventory item edge: the inventory it belongs to (a cursor is refused on
// any other), the item's asset id (where the partner API resumes) and its position in the
// inventory (so that a page can end on the partner's `total`).
import { hash } from 'node:crypto';
import { BadUserInputError, quote } from '../errors.js';
import { MAX_ASSET_ID_DIGITS, type InventoryRef } from './model.js';

export interface ItemCursor {
  /** The asset id of the edge's item; a digit string, never a number. */
  assetId: string;
  /** The item's 0-based position in the inventory. */
  index: number;
}

const PREFIX = 'item:v2:';
const CURSOR_TEXT = new RegExp(`^item:v2:([A-Za-z0-9_-]{11}):(\\d{1,9}):(\\d{1,${MAX_ASSET_ID_DIGITS}})$`);

/** A short digest of the inventory's coordinates: names it without making the cursor long. */
export function inventoryTag(inventory: InventoryRef): string {
  return hash('sha256', `${inventory.appId}/${inventory.platformId}`, 'base64url').slice(0, 11);
}

export function encodeItemCursor(cursor: ItemCursor, tag: string): string {
  return Buffer.from(`${PREFIX}${tag}:${cursor.index}:${cursor.assetId}`, 'utf8').toString('base64url');
}

export function decodeItemCursor(cursor: string, inventory: InventoryRef): ItemCursor {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = CURSOR_TEXT.exec(text);
  // Re-encoding catches any text that base64url decoding would silently have accepted.
  if (!match || encodeItemCursor({ index: Number(match[2]), assetId: match[3]! }, match[1]!) !== cursor) {
    throw new BadUserInputError(`Cursor '${quote(cursor)}' is not a cursor of this API.`, 'after');
  }
  if (match[1] !== inventoryTag(inventory)) {
    throw new BadUserInputError(`Cursor '${quote(cursor)}' belongs to another inventory's items.`, 'after');
  }
  return { index: Number(match[2]), assetId: match[3]! };
}
