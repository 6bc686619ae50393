import { describe, expect, it } from 'vitest';
import { ByIdentity, cacheKeyOf, identityOf, ListingFeeCache, type ListingFeeKey } from '../../src/listing-fee/fee-loader.js';

const entry = (token: string | null, styleToken: string | null, assetId?: string | null, price = 100): ListingFeeKey => ({
  price,
  token,
  styleToken,
  assetId,
});

/** What makes two entries the same entry, as the loader's key must tell them apart. */
const entryText = (each: ListingFeeKey) => JSON.stringify([each.price, each.token, each.styleToken, each.assetId ?? null]);

// Entries whose parts joined by the separators, or by the length prefixes, would read alike.
const TRICKY_TOKENS = [null, '', '-', ' ', 'a', 'a b', 'b', '1:a', '1:a 1:b', '3:a b', '0:', ':', '2:a ', 'a 1', 'asset a', 'token a'];
function trickyEntries(): ListingFeeKey[] {
  const entries: ListingFeeKey[] = [];
  for (const token of TRICKY_TOKENS) for (const styleToken of TRICKY_TOKENS) entries.push(entry(token, styleToken), entry(token, styleToken, '7'));
  entries.push(entry('a', null, null, 1), entry('a', null, null, 10), entry(null, null, '1 1'), entry(null, null, '11'), entry(null, null, 'a'), entry(null, 'a', null), entry('a', null, ''), entry(null, null, ''));
  return entries;
}

describe("the listing-fee loader's cache and identities", () => {
  it('finds an entry under every entry with its cache key, and under no other', () => {
    const entries = trickyEntries();
    const cache = new ListingFeeCache<number>();
    entries.forEach((each, index) => cache.set(each, index));
    const firstOfKey = new Map<string, number>();
    entries.forEach((each, index) => {
      if (!firstOfKey.has(cacheKeyOf(each))) firstOfKey.set(cacheKeyOf(each), index);
    });
    // Set again under an equal entry: the later value stands, as in a Map keyed by cacheKeyOf.
    const lastOfKey = new Map(entries.map((each, index) => [cacheKeyOf(each), index]));
    for (const each of entries) expect(cache.get({ ...each })).toBe(lastOfKey.get(cacheKeyOf(each)));
    expect(cache.get(entry('a', null, null, 2))).toBeUndefined();
    const removed = entries[firstOfKey.get(cacheKeyOf(entry('a', 'b')))!]!;
    expect(cache.delete({ ...removed })).toBe(true);
    expect(cache.get(removed)).toBeUndefined();
    expect(cache.delete(removed)).toBe(false);
    expect(cache.get(entry('a', 'b', '7'))).toBe(lastOfKey.get(cacheKeyOf(entry('a', 'b', '7'))));
    cache.clear();
    expect(cache.get(entry('a', 'b', '7'))).toBeUndefined();
  });

  it('keeps one value per identity, as identityOf names them', () => {
    const entries = trickyEntries();
    const identities = new ByIdentity<string>();
    for (const each of entries) identities.set(each, identityOf(each));
    for (const each of entries) expect(identities.get({ ...each, price: each.price + 1 })).toBe(identityOf(each));
  });
});

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
