// Checks of listing-fee input, made before anything is sent upstream.
import { BadUserInputError } from '../errors.js';
import { isAssetId, MAX_ASSET_ID_DIGITS } from '../inventory/model.js';
import { identityOf, ListingFeeCache, type ListingFeeKey } from './entry.js';
import { MAX_LISTING_FEE_ENTRIES_PER_IDENTITY, MAX_LISTING_FEE_ITEMS, MAX_TOKEN_LENGTH } from '../tunables.js';
import type { CalculateListingFeeInput } from '../generated/resolvers-types.js';

export function checkPrice(price: number, what: string): void {
  if (!Number.isSafeInteger(price) || price <= 0) {
    throw new BadUserInputError(`${what} must be a positive integer; got ${price}.`, 'price');
  }
}

export function parseListingFeeInput(input: CalculateListingFeeInput): ListingFeeKey[] {
  const { items } = input;
  if (items.length === 0 || items.length > MAX_LISTING_FEE_ITEMS) {
    throw new BadUserInputError(
      `'input.items' must hold 1 to ${MAX_LISTING_FEE_ITEMS} items; got ${items.length}.`,
      'input.items',
    );
  }
  const keys = items.map((item, index): ListingFeeKey => {
    checkPrice(item.price, `'input.items[${index}].price'`);
    for (const field of ['token', 'styleToken'] as const) {
      const value = item[field];
      if (typeof value === 'string' && (value.length === 0 || value.length > MAX_TOKEN_LENGTH)) {
        throw new BadUserInputError(
          `'input.items[${index}].${field}' must be 1 to ${MAX_TOKEN_LENGTH} characters long.`,
          'input.items',
        );
      }
    }
    const { assetId } = item;
    if (typeof assetId === 'string' && !isAssetId(assetId)) {
      throw new BadUserInputError(
        `'input.items[${index}].assetId' must be an asset id as InventoryItem.assetId gives it: 1 to ${MAX_ASSET_ID_DIGITS} digits.`,
        'input.items',
      );
    }
    return { price: item.price, token: item.token ?? null, styleToken: item.styleToken ?? null, assetId: assetId ?? null };
  });
  checkCallsNeeded(keys);
  return keys;
}

/** Refuses items that would need more than MAX_LISTING_FEE_ENTRIES_PER_IDENTITY calls of their own. */
function checkCallsNeeded(keys: readonly ListingFeeKey[]): void {
  if (keys.length <= MAX_LISTING_FEE_ENTRIES_PER_IDENTITY) return;
  // Identical entries go upstream once (the loader's cache, the same equality), so they are counted
  // once; an identity holds at most one entry more than the limit before it is refused, so the search
  // stays short.
  const entries = new ListingFeeCache<true>();
  for (const key of keys) {
    entries.set(key, true);
    if (entries.entriesOfIdentity(key) > MAX_LISTING_FEE_ENTRIES_PER_IDENTITY) {
      const what = identityOf(key) === 'untokened' ? 'have neither token, styleToken nor assetId' : 'share one token, styleToken or assetId';
      throw new BadUserInputError(
        `'input.items' holds more than ${MAX_LISTING_FEE_ENTRIES_PER_IDENTITY} items that ${what} at different prices: ` +
          "the partner's answer cannot tell them apart, so each needs a partner call of its own. " +
          'Give each item its token or assetId, or split them over several mutations.',
        'input.items',
      );
    }
  }
}
