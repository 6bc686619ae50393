// Every answer tells its cost and the caller's budget in `extensions.cost`, with Shopify's names:
// `requestedQueryCost` (the operation's price, what the rate limit charged), `actualQueryCost`
// (the partner work of the calls it made, a call shared in flight counting for its maker only;
// never more than the price) and, with a rate limit, `throttleStatus` (the caller's own bucket
// after this operation). Added as the result leaves
// execution, after the response cache has stored it: a cached answer carries no cost of its own,
// and each answer served from it gets the budget of its own moment.
import { isAsyncIterable, mapAsyncIterator, type Plugin } from 'graphql-yoga';
import type { ExecutionResult } from 'graphql';
import type { TradegraphContext } from '../context.js';
import { actualCostOf, CACHE_HIT_PRICE, type RequestCost } from '../cost/request-cost.js';
import { operationPrice } from '../cost/price.js';
import { scopeOf } from '../request-scope.js';
import { servedFromResponseCache } from './response-cache.js';

/** `extensions.cost` as clients read it. */
interface CostExtension {
  requestedQueryCost: number | null;
  actualQueryCost?: number;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

export function useCostExtension(): Plugin<TradegraphContext> {
  return {
    onExecute({ args }) {
      const { request } = args.contextValue as unknown as { request: Request };
      scopeOf(request).cost.requested = operationPrice(args.schema, args.document, args.operationName, args.variableValues)?.cost ?? null;
    },
    onExecutionResult({ request, result, setResult }) {
      if (!result) return;
      const record = scopeOf(request).cost;
      // A hit runs nothing: priced as the rate limit charges it, and no partner work.
      if (servedFromResponseCache(result)) record.requested ??= CACHE_HIT_PRICE;
      if (!isAsyncIterable(result)) {
        setResult(withCost(result, costOf(record, true)));
        return;
      }
      // A stream (@defer, @stream): the price and the budget on the first payload, which is sent at
      // once; what the work came to on the last, once it is done.
      let first = true;
      setResult(
        mapAsyncIterator(result, (payload) => {
          const last = (payload as { hasNext?: boolean }).hasNext === false;
          if (!first && !last) return payload;
          const cost = costOf(record, last);
          first = false;
          return withCost(payload, cost);
        }),
      );
    },
  };
}

function costOf(record: RequestCost, done: boolean): CostExtension {
  const cost: CostExtension = { requestedQueryCost: record.requested };
  if (done) cost.actualQueryCost = actualCostOf(record);
  if (record.throttle) {
    const { maximumAvailable, currentlyAvailable, restoreRate } = record.throttle;
    cost.throttleStatus = { maximumAvailable, currentlyAvailable, restoreRate };
  }
  return cost;
}

/** A result as Yoga writes it: with its own serialiser when it has one (an answer of the in-process cache). */
type Serialisable = ExecutionResult & { stringify?: (result: ExecutionResult) => string };

/**
 * A new result with the cost beside its other extensions: the one given may be the cache's own
 * object. A result with a serialiser of its own (the in-process cache keeps the text of its data)
 * keeps it for the data, and the extensions are written after it: an answer from the cache is not
 * serialised again whole for the few fields the cost adds.
 */
function withCost<T extends Serialisable>(result: T, cost: CostExtension): T {
  const costed: T = { ...result, extensions: { ...result.extensions, cost } };
  const { stringify } = result;
  if (stringify) costed.stringify = serialiseAfter(stringify);
  return costed;
}

function serialiseAfter(stringify: (result: ExecutionResult) => string): (result: ExecutionResult) => string {
  return (value) => {
    const { extensions, ...rest } = value;
    const text = stringify(rest);
    return extensions === undefined ? text : `${text.slice(0, -1)},"extensions":${JSON.stringify(extensions)}}`;
  };
}
