// Checks of listing-fee input, made before anything is sent upstream.
import { BadUserInputError } from '../errors.js';
import { isAssetId, MAX_ASSET_ID_DIGITS } from '../inventory/model.js';
import type { ListingFeeKey } from './fee-loader.js';
import type { CalculateListingFeeInput } from '../generated/resolvers-types.js';

/** Most items one `calculateListingFee` may ask for. */
export const MAX_LISTING_FEE_ITEMS = 100;
/** Longest token or styleToken accepted; the partner's tokens are far shorter. */
export const MAX_TOKEN_LENGTH = 1024;

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
  return items.map((item, index) => {
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
}
