// The price rules of one request beyond the SDL's `@cost` (cost/price.ts prices the operation):
// what a partner call's work counts, the least an operation is charged, an answer from the
// response cache, and the cost an answer reports. The record they write is the request's scope's
// `cost` (request-scope.ts).
import type { RequestCost } from '../request-scope.js';

export type { RequestCost, ThrottleStatus } from '../request-scope.js';

/**
 * Units of partner work one call did: 1 for the call, and 1 per item it carried (a fee call) or
 * answered (an inventory page).
 */
export const callWork = (items: number): number => 1 + items;

/**
 * The least any operation spends of the caller's budget, and what an answer from the response
 * cache costs: the partner does no work for it, but an answer costs the service too.
 */
export const MIN_CHARGE = 1;

/** The price of an answer from the response cache, which runs nothing: what the rate limit charges it. */
export const CACHE_HIT_PRICE = MIN_CHARGE;

/**
 * What the rate limit charges an operation of price `cost`, `appKeyCost` of it for fields made
 * with the merchant's key: all of it for a caller the partner has accepted; for one it has not,
 * the fee calls are charged as they are made (not as priced), so only the rest, and never less
 * than MIN_CHARGE.
 */
export function ownCharge(cost: number, appKeyCost: number, proven: boolean): number {
  return Math.max(MIN_CHARGE, proven ? cost : cost - appKeyCost);
}

/** The partner work a request made, told to the client: never more than its price, when known. */
export function actualCostOf({ requested, actual }: RequestCost): number {
  return requested === null ? actual : Math.min(actual, requested);
}
