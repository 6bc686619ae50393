// The prices that are policy rather than the SDL's: what the schema cannot say about a field, each
// with its reason. price.ts reads everything else from `@cost` and `@listSize`.
import { MAX_LISTING_FEE_ITEMS, MAX_PAGE_SIZE } from '../tunables.js';

/**
 * The fields whose partner calls are made with the merchant's app-key alone, the caller's token
 * unchecked by the partner (the fee mutation): a rate limit keys their part of the cost by what
 * the partner has accepted, not by a token anyone can make up. An item's `listingFee` is not one:
 * an item exists only once the partner has answered a read made with the caller's token, which
 * accepts it, so its fees are a proven caller's. test/unit/prices.test.ts finds the fee resolvers.
 */
export const APP_KEY_FIELDS: ReadonlySet<string> = new Set(['Mutation.calculateListingFee']);

/** The federation entity fetch the subgraph library adds to Query; the SDL cannot annotate it. */
export const ENTITIES_FIELD = '_entities';

/**
 * The Query field whose `@cost(weight:)` each `_entities` representation pays: a representation
 * resolves a global id as `Query.node` does (an `InventoryItem` by reading it from the partner).
 */
export const ENTITY_PRICED_AS = 'node';

/**
 * The largest slice any list of the schema answers (a page of items, a batch of listing fees). A
 * larger slicing argument, or input list, is one its resolver would refuse: the cost limit refuses
 * it with BAD_USER_INPUT as execution starts (plugins/operation-cost.ts), before the rate limit
 * charges anything, rather than as too expensive.
 */
export const MAX_SLICE = Math.max(MAX_PAGE_SIZE, MAX_LISTING_FEE_ITEMS);
