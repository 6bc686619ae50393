import { describe, expect, it } from 'vitest';
import { decodeItemCursor as decodeOn, encodeItemCursor as encodeWithTag, inventoryTag } from '../../src/inventory/cursor.js';
import { decodeGlobalId, encodeGlobalId } from '../../src/inventory/global-id.js';

const INVENTORY = { platformId: '76561198000000240', appId: 730 };
const encodeItemCursor = (cursor: { assetId: string; index: number }) => encodeWithTag(cursor, inventoryTag(INVENTORY));
const decodeItemCursor = (cursor: string) => decodeOn(cursor, INVENTORY);

describe('item cursors', () => {
  it('round-trip asset ids beyond 2^53 as text', () => {
    const cursor = { assetId: '123456789012345678901234567890', index: 4217 };
    expect(decodeItemCursor(encodeItemCursor(cursor))).toEqual(cursor);
  });

  it('round-trip asset ids of 64 digits, the longest an asset id may be anywhere in the API', () => {
    const cursor = { assetId: '9'.repeat(64), index: 0 };
    expect(decodeItemCursor(encodeItemCursor(cursor))).toEqual(cursor);
    const tooLong = encodeItemCursor({ assetId: '9'.repeat(65), index: 0 });
    expect(() => decodeItemCursor(tooLong)).toThrow('is not a cursor of this API.');
  });

  it('are opaque base64url text', () => {
    expect(encodeItemCursor({ assetId: '42', index: 0 })).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    'abc',
    '',
    Buffer.from('item:v1:1:12x').toString('base64url'),
    Buffer.from('item:v1:-1:12').toString('base64url'),
    Buffer.from('item:v2:1:12').toString('base64url'),
    Buffer.from(`item:v2:${inventoryTag(INVENTORY)}:1:12x`).toString('base64url'),
    `${encodeItemCursor({ assetId: '42', index: 1 })}=`,
  ])('refuses %j with a message that quotes it', (cursor) => {
    expect(() => decodeItemCursor(cursor)).toThrow(`Cursor '${cursor}' is not a cursor of this API.`);
  });

  describe('of a second inventory', () => {
    // Same account, other game; same game, other account; and coordinates that, run together
    // without a separator (platform id, then app id), read as the first's.
    const OTHERS = [
      { platformId: INVENTORY.platformId, appId: 570 },
      { platformId: '76561198000000241', appId: INVENTORY.appId },
      { platformId: `${INVENTORY.platformId}7`, appId: 30 },
    ];
    const cursor = { assetId: '42', index: 3 };

    it.each(OTHERS)('are refused on another inventory, %j, as BAD_USER_INPUT of `after`', (other) => {
      const fromA = encodeItemCursor(cursor);
      let refusal: unknown;
      try {
        decodeOn(fromA, other);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toMatchObject({
        message: `Cursor '${fromA}' belongs to another inventory's items.`,
        extensions: { code: 'BAD_USER_INPUT', argumentName: 'after' },
      });
      // The other inventory's own cursor of the same item is a different text, accepted there only.
      const fromB = encodeWithTag(cursor, inventoryTag(other));
      expect(fromB).not.toBe(fromA);
      expect(decodeOn(fromB, other)).toEqual(cursor);
      expect(() => decodeItemCursor(fromB)).toThrow("belongs to another inventory's items.");
    });

    it('are accepted on the same inventory however its reference was made', () => {
      expect(decodeOn(encodeItemCursor(cursor), { appId: 730, platformId: '76561198000000240' })).toEqual(cursor);
    });

    it('name each inventory by its own tag', () => {
      const tags = [INVENTORY, ...OTHERS].map(inventoryTag);
      expect(new Set(tags).size).toBe(tags.length);
    });
  });

  it('quotes only the start of a huge cursor', () => {
    const huge = 'x'.repeat(10_000);
    expect(() => decodeItemCursor(huge)).toThrow(`Cursor '${'x'.repeat(64)}…' is not a cursor of this API.`);
  });
});

describe('global ids', () => {
  it('round-trip inventories and items', () => {
    for (const id of [
      { type: 'Inventory', platformId: '76561198000000240', appId: 730 },
      { type: 'InventoryItem', platformId: 'a.b-c_d', appId: 570, assetId: '30000000000000003' },
    ] as const) {
      expect(decodeGlobalId(encodeGlobalId(id))).toEqual(id);
    }
  });

  it('differ between inventories of one account', () => {
    const ids = [730, 570].map((appId) => encodeGlobalId({ type: 'Inventory', platformId: '1', appId }));
    expect(ids[0]).not.toBe(ids[1]);
  });

  it.each([
    Buffer.from('["Unknown","1",730]').toString('base64url'),
    Buffer.from('["Inventory","1","730"]').toString('base64url'),
    Buffer.from('["InventoryItem","1",730,"12x"]').toString('base64url'),
    Buffer.from('{"type":"Inventory"}').toString('base64url'),
    'not base64 at all!',
  ])('refuses %j', (id) => {
    expect(() => decodeGlobalId(id)).toThrow(/is not an id of this API\.$/);
  });
});
