// The price rules of one request beyond `@cost` (cost/request-cost.ts): what a partner call's work
// counts, what the rate limit charges, what an answer reports as done.
import { describe, expect, it } from 'vitest';
import { actualCostOf, CACHE_HIT_PRICE, callWork, MIN_CHARGE, ownCharge } from '../../src/cost/request-cost.js';

describe('request price rules', () => {
  it('counts a partner call as 1 and each item it carried or answered as 1 more', () => {
    expect(callWork(0)).toBe(1);
    expect(callWork(20)).toBe(21);
  });

  it('charges an answer from the cache, and an operation that costs the partner nothing, one unit', () => {
    expect(CACHE_HIT_PRICE).toBe(1);
    expect(MIN_CHARGE).toBe(1);
    expect(ownCharge(0, 0, false)).toBe(1);
  });

  it("charges a caller the partner knows the whole price, and an unknown one all but its fee calls", () => {
    expect(ownCharge(12, 11, true)).toBe(12);
    expect(ownCharge(12, 11, false)).toBe(1);
    expect(ownCharge(30, 11, false)).toBe(19);
    expect(ownCharge(11, 11, false)).toBe(1);
  });

  it('reports the partner work done, never more than the price when the price is known', () => {
    expect(actualCostOf({ requested: 5, actual: 3 })).toBe(3);
    expect(actualCostOf({ requested: 5, actual: 9 })).toBe(5);
    expect(actualCostOf({ requested: null, actual: 9 })).toBe(9);
  });
});
