import { describe, expect, it } from 'vitest';
import { ByIdentity, identityOf, ListingFeeCache, sameEntry, type ListingFeeKey } from '../../src/listing-fee/entry.js';

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
    // Set again under an equal entry: the later value stands, as in a Map keyed by entryText.
    const lastOfKey = new Map(entries.map((each, index) => [entryText(each), index]));
    for (const each of entries) expect(cache.get({ ...each })).toBe(lastOfKey.get(entryText(each)));
    expect(cache.get(entry('a', null, null, 2))).toBeUndefined();
    // An entry the cache holds, asked for by an equal one.
    const removed = entry('a', 'b');
    expect(cache.delete({ ...removed })).toBe(true);
    expect(cache.get(removed)).toBeUndefined();
    expect(cache.delete(removed)).toBe(false);
    expect(cache.get(entry('a', 'b', '7'))).toBe(lastOfKey.get(entryText(entry('a', 'b', '7'))));
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

describe('one listing-fee entry', () => {
  it('is one entry whether its asset id is null or absent', () => {
    expect(sameEntry(entry('t', 's', null), entry('t', 's'))).toBe(true);
    expect(sameEntry(entry('t', 's', '42'), entry('t', 's'))).toBe(false);
  });

  it('is the same as another exactly when their price, token, style and asset id are', () => {
    const entries = trickyEntries();
    for (const a of entries) for (const b of entries) expect(sameEntry(a, b), `${entryText(a)} and ${entryText(b)}`).toBe(entryText(a) === entryText(b));
  });
});
