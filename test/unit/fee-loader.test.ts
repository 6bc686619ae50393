import { describe, expect, it } from 'vitest';
import { cacheKeyOf, type ListingFeeKey } from '../../src/listing-fee/fee-loader.js';

const entry = (token: string | null, styleToken: string | null, assetId?: string | null, price = 100): ListingFeeKey => ({
  price,
  token,
  styleToken,
  assetId,
});

/** What makes two entries the same entry, as the loader's key must tell them apart. */
const entryText = (each: ListingFeeKey) => JSON.stringify([each.price, each.token, each.styleToken, each.assetId ?? null]);

describe('the listing-fee loader cache key', () => {
  it('is one text for one entry, whether its asset id is null or absent', () => {
    expect(cacheKeyOf(entry('t', 's', '42'))).toBe(cacheKeyOf(entry('t', 's', '42')));
    expect(cacheKeyOf(entry('t', 's', null))).toBe(cacheKeyOf(entry('t', 's')));
  });

  it('tells apart every two distinct entries, however their texts could be split', () => {
    // Entries whose parts joined by the separators, or by the length prefixes, would read alike.
    const tokens = [null, '', '-', ' ', 'a', 'a b', 'b', '1:a', '1:a 1:b', '3:a b', '0:', ':', '2:a ', 'a 1'];
    const entries: ListingFeeKey[] = [];
    for (const token of tokens) for (const styleToken of tokens) entries.push(entry(token, styleToken), entry(token, styleToken, '7'));
    entries.push(entry('a', null, null, 1), entry('a', null, null, 10), entry(null, null, '1 1'), entry(null, null, '11'));
    const byKey = new Map<string, string>();
    for (const each of entries) {
      const identity = entryText(each);
      const key = cacheKeyOf(each);
      expect(byKey.get(key) ?? identity, `${key} for ${identity}`).toBe(identity);
      byKey.set(key, identity);
    }
    expect(byKey.size).toBe(new Set(entries.map(entryText)).size);
  });
});
