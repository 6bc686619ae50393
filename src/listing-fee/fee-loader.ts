// Per-request loader of listing fees, shared by the mutation and every `InventoryItem.listingFee`
// of an operation: the entries of one tick go upstream together, identical entries once, in
// chunks of at most LISTING_FEE_BATCH_MAX.
import DataLoader from 'dataloader';
import { UpstreamBadResponseError } from '../errors.js';
import { CALCULATE_LISTING_FEE } from '../partner/listing-fee.js';
import type { ListingFeeRequestItemDTO, ListingFeeResultDTO } from '../partner/models.js';

export interface ListingFeeKey {
  readonly price: number;
  readonly token: string | null;
  readonly styleToken: string | null;
}

export type FetchListingFees = (items: ListingFeeRequestItemDTO[]) => Promise<ListingFeeResultDTO[]>;

export type ListingFeeLoader = DataLoader<ListingFeeKey, ListingFeeResultDTO, string>;

export function createListingFeeLoader(fetchFees: FetchListingFees, batchMax: number): ListingFeeLoader {
  return new DataLoader<ListingFeeKey, ListingFeeResultDTO, string>(
    async (keys) => {
      const results = await fetchFees(keys.map(toRequestItem));
      // The partner document does not say how results match requests; position is the only
      // link, so a count mismatch fails the whole chunk rather than put a fee on the wrong item.
      if (results.length !== keys.length) {
        const error = new UpstreamBadResponseError(
          CALCULATE_LISTING_FEE,
          `${keys.length} items were sent but ${results.length} results came back`,
        );
        return keys.map(() => error);
      }
      return results;
    },
    {
      maxBatchSize: batchMax,
      cacheKeyFn: (key) => JSON.stringify([key.price, key.token, key.styleToken]),
    },
  );
}

/** The wire item leaves out absent tokens rather than sending nulls the document does not show. */
function toRequestItem(key: ListingFeeKey): ListingFeeRequestItemDTO {
  const item: ListingFeeRequestItemDTO = { price: key.price };
  if (key.styleToken !== null) item.styleToken = key.styleToken;
  if (key.token !== null) item.token = key.token;
  return item;
}
