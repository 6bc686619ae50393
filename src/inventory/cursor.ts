// The opaque cursor of an inventory item edge: the item's asset id (where the partner API resumes)
// and its position in the inventory (so that a page can end on the partner's `total`).
import { BadUserInputError } from '../errors.js';

export interface ItemCursor {
  /** The asset id of the edge's item; a digit string, never a number. */
  assetId: string;
  /** The item's 0-based position in the inventory. */
  index: number;
}

const PREFIX = 'item:v1:';
const CURSOR_TEXT = /^item:v1:(\d{1,9}):(\d{1,40})$/;

export function encodeItemCursor(cursor: ItemCursor): string {
  return Buffer.from(`${PREFIX}${cursor.index}:${cursor.assetId}`, 'utf8').toString('base64url');
}

export function decodeItemCursor(cursor: string): ItemCursor {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = CURSOR_TEXT.exec(text);
  // Re-encoding catches any text that base64url decoding would silently have accepted.
  if (!match || encodeItemCursor({ index: Number(match[1]), assetId: match[2]! }) !== cursor) {
    throw new BadUserInputError(`Cursor '${quote(cursor)}' is not a cursor of this API.`, 'after');
  }
  return { index: Number(match[1]), assetId: match[2]! };
}

/** Quotes client input in a message without letting a huge value through. */
export function quote(value: string, max = 64): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
