// Global object ids of the Node interface: opaque to clients, and decoded only here.
import { BadUserInputError, quote } from '../errors.js';
import { isAppId, isAssetId } from './model.js';

export type GlobalId =
  | { type: 'Inventory'; platformId: string; appId: number }
  | { type: 'InventoryItem'; platformId: string; appId: number; assetId: string };

export function encodeGlobalId(id: GlobalId): string {
  const parts = id.type === 'Inventory' ? [id.type, id.platformId, id.appId] : [id.type, id.platformId, id.appId, id.assetId];
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

export function decodeGlobalId(id: string): GlobalId {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(id, 'base64url').toString('utf8'));
  } catch {
    parts = null;
  }
  const decoded = Array.isArray(parts) ? fromParts(parts) : null;
  if (!decoded || encodeGlobalId(decoded) !== id) {
    throw new BadUserInputError(`Id '${quote(id)}' is not an id of this API.`, 'id');
  }
  return decoded;
}

function fromParts(parts: unknown[]): GlobalId | null {
  const [type, platformId, appId, assetId] = parts;
  if (typeof platformId !== 'string' || !isAppId(appId)) return null;
  if (type === 'Inventory' && parts.length === 3) return { type, platformId, appId };
  if (type === 'InventoryItem' && parts.length === 4 && typeof assetId === 'string' && isAssetId(assetId)) {
    return { type, platformId, appId, assetId };
  }
  return null;
}
