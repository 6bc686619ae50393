// Per-request loader of listing fees, shared by the mutation and every `InventoryItem.listingFee`
// of an operation: the entries of one tick go upstream together, identical entries once, in calls
// of at most LISTING_FEE_BATCH_MAX that never hold two entries their answer could not tell apart.
import type { IncomingMessage } from 'node:http';
import DataLoader from 'dataloader';
import { UpstreamBadResponseError } from '../errors.js';
import { CALCULATE_LISTING_FEE } from '../partner/listing-fee.js';
import type { ListingFeeRequestItemDTO, ListingFeeResultDTO } from '../partner/models.js';
import { ByIdentity, ListingFeeCache, type ListingFeeKey } from './entry.js';

export type { ListingFeeKey } from './entry.js';

/** Whom a fee call is charged to: the request (its credential, its forwarded address) and its connection. */
export interface FeeCaller {
  request: Request;
  req?: IncomingMessage;
}

/**
 * The budget of fee calls made with the merchant's key (the rate limit's): asked before each call
 * with the entries it carries; rejects with the refusal when the caller may not spend them.
 */
export interface FeeBudget {
  spend(caller: FeeCaller, entries: number): Promise<void>;
}

export type FetchListingFees = (items: ListingFeeRequestItemDTO[]) => Promise<ListingFeeResultDTO[]>;

export type ListingFeeLoader = DataLoader<ListingFeeKey, ListingFeeResultDTO, ListingFeeKey>;

export function createListingFeeLoader(fetchFees: FetchListingFees, batchMax: number): ListingFeeLoader {
  if (!Number.isSafeInteger(batchMax) || batchMax < 1) throw new RangeError(`the listing-fee batch size must be a positive integer; got ${batchMax}`);
  return new DataLoader<ListingFeeKey, ListingFeeResultDTO, ListingFeeKey>(
    async (keys) => {
      const answers: (ListingFeeResultDTO | Error)[] = new Array(keys.length);
      await Promise.all(
        splitIntoCalls(keys, batchMax).map(async (call) => {
          const entries = call.map((index) => keys[index]!);
          const matched = await fetchFees(entries.map(toRequestItem)).then(
            (results) => matchResults(entries, results),
            (error: unknown) => entries.map(() => (error instanceof Error ? error : new Error(String(error)))),
          );
          call.forEach((index, position) => (answers[index] = matched[position]!));
        }),
      );
      return answers;
    },
    { cacheMap: new ListingFeeCache<Promise<ListingFeeResultDTO>>() },
  );
}

/**
 * Key indexes grouped into calls: at most `batchMax` each, no identity twice in one call, and
 * entries matched by asset id never with entries matched by position.
 */
export function splitIntoCalls(keys: readonly ListingFeeKey[], batchMax: number): number[][] {
  const calls: { byAsset: boolean; indexes: number[]; identities: ByIdentity<true> }[] = [];
  keys.forEach((key, index) => {
    const byAsset = Boolean(key.assetId);
    let call = calls.find(
      (each) => each.byAsset === byAsset && each.indexes.length < batchMax && each.identities.get(key) === undefined,
    );
    if (!call) calls.push((call = { byAsset, indexes: [], identities: new ByIdentity() }));
    call.indexes.push(index);
    call.identities.set(key, true);
  });
  return calls.map((call) => call.indexes);
}

/**
 * Each entry's result: by `assetId` wherever the result carries one that an entry names, whatever
 * the order of the answer; the rest by position among the results left (partner-api.md 2.6 does
 * not say how results match requests: an asset id is the only evidence beside position). A result
 * that names another asset than its entry's, or a count that differs, is UPSTREAM_BAD_RESPONSE.
 */
export function matchResults(
  entries: readonly ListingFeeKey[],
  results: readonly ListingFeeResultDTO[],
): (ListingFeeResultDTO | Error)[] {
  const bad = (reason: string) => new UpstreamBadResponseError(CALCULATE_LISTING_FEE, reason);
  if (results.length !== entries.length) {
    const error = bad(`${entries.length} items were sent but ${results.length} results came back`);
    return entries.map(() => error);
  }
  const entryOfAsset = new Map<string, number>();
  entries.forEach((entry, index) => entry.assetId && entryOfAsset.set(entry.assetId, index));
  // No entry names an asset (the mutation's, mostly): every result is its entry's by position, and
  // an answer's asset ids need no lookup (each would hash and internalise a text the partner sent).
  if (entryOfAsset.size === 0) return [...results];
  const matched: (ListingFeeResultDTO | Error | undefined)[] = new Array(entries.length);
  const unclaimed: ListingFeeResultDTO[] = [];
  for (const result of results) {
    const index = result.assetId ? entryOfAsset.get(result.assetId) : undefined;
    if (index === undefined || matched[index] !== undefined) unclaimed.push(result);
    else matched[index] = result;
  }
  let next = 0;
  return entries.map((entry, index) => {
    const own = matched[index];
    if (own !== undefined) return own;
    const result = unclaimed[next++]!;
    if (entry.assetId && result.assetId && result.assetId !== entry.assetId) {
      return bad(`the fee for asset ${entry.assetId} came back for asset ${result.assetId}`);
    }
    return result;
  });
}

/** The wire item leaves out absent tokens rather than sending nulls the document does not show. */
function toRequestItem(key: ListingFeeKey): ListingFeeRequestItemDTO {
  const item: ListingFeeRequestItemDTO = { price: key.price };
  if (key.styleToken !== null) item.styleToken = key.styleToken;
  if (key.token !== null) item.token = key.token;
  return item;
}
