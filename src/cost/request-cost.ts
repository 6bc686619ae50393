// What one request's operation costs, in the units of the cost plan (cost/price.ts):
// its price, the partner work its calls actually did, and the caller's budget as the rate limit
// left it. One record per HTTP request (batching is off: one operation each), written by the
// plugins and the request's loaders (context.ts), and read back into the answer's extensions.cost.

/** The caller's own bucket after this operation, as Shopify's `throttleStatus` reports one. */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  /** Units per second: the budget divided by its window (the whole budget returns as the window ends). */
  restoreRate: number;
  /** Milliseconds until the caller's window ends and its budget is whole again. */
  msBeforeRestore: number;
}

export interface RequestCost {
  /** The operation's price (null while unknown: a variable that does not coerce; 1 for an answer from the response cache). */
  requested: number | null;
  /** Units of partner work done: 1 per partner call this request made that succeeded, and 1 per item it carried or answered (a call it joined in flight is the work of the request that made it). */
  actual: number;
  /** Set by the rate limit, when one is on. */
  throttle?: ThrottleStatus;
  /**
   * Set by the rate limit: asked before each listing-fee call with the entries it carries, made with
   * the merchant's key; rejects with the refusal when the caller may not spend them.
   */
  beforeListingFeeCall?: (entries: number) => Promise<void>;
}

const costs = new WeakMap<Request, RequestCost>();

export function requestCostOf(request: Request): RequestCost {
  let cost = costs.get(request);
  if (!cost) costs.set(request, (cost = { requested: null, actual: 0 }));
  return cost;
}
