// Partner operation "listing fee calculation" (partner-api.md 4.2):
// POST {open_api_url}/merchant/sale/v1/calculate with { dataList }, the merchant key as `app-key`.
import { UpstreamBadResponseError } from '../errors.js';
import type { CallerDomains } from './breaker.js';
import type { OperationDeadline } from './call.js';
import type { PartnerClient } from './client.js';
import { isRecord } from './error-from-response.js';
import type { ListingFeeRequestItemDTO, ListingFeeResultDTO } from './models.js';
import { FEE_ENVELOPE_BYTES, FEE_ITEM_BYTES } from '../tunables.js';

export const CALCULATE_LISTING_FEE = 'calculateListingFee';

export interface CalculateListingFeesParams {
  items: readonly ListingFeeRequestItemDTO[];
  /** The merchant key from the server's configuration; never one a client sent. */
  appKey: string | null;
  /** Who the fees are asked for (index.ts): an outage and a connection count against it. */
  caller: CallerDomains;
  signal?: AbortSignal;
  deadline?: OperationDeadline;
  requestId?: string;
  /** Told when the call joins an identical one in flight (PartnerCall.onJoined). */
  onJoined?: () => void;
}

/** Sends one batch; answers the result items in the order the partner API sent them. */
export async function calculateListingFees(
  client: PartnerClient,
  params: CalculateListingFeesParams,
): Promise<ListingFeeResultDTO[]> {
  const data = await client.call({
    operation: CALCULATE_LISTING_FEE,
    method: 'POST',
    segments: ['merchant', 'sale', 'v1', 'calculate'],
    headers: params.appKey ? { 'app-key': params.appKey } : {},
    body: { dataList: params.items },
    // Not known to be idempotent: a retried POST could act twice upstream.
    idempotent: false,
    // Joining sends nothing twice: the same items under the merchant key get one answer, whoever asks.
    shareInFlight: true,
    secrets: params.appKey ? [params.appKey] : [],
    faultDomains: { caller: params.caller.fault },
    connectionDomains: [`caller ${params.caller.connection}`],
    maxResponseBytes: FEE_ENVELOPE_BYTES + params.items.length * FEE_ITEM_BYTES,
    signal: params.signal,
    deadline: params.deadline,
    requestId: params.requestId,
    onJoined: params.onJoined,
  });
  return parseListingFeeResults(data);
}

export function parseListingFeeResults(data: unknown): ListingFeeResultDTO[] {
  if (!Array.isArray(data)) throw bad("'data' is not an array");
  for (let index = 0; index < data.length; index++) {
    const item: unknown = data[index];
    if (!isRecord(item)) throw bad(`item ${index} of 'data' is not an object`);
    const { fee, freeFeePrice, assetId, itemId } = item;
    if (fee !== undefined && fee !== null && !Number.isSafeInteger(fee)) throw bad(`item ${index}'s 'fee' is not an integer`);
    if (freeFeePrice !== undefined && freeFeePrice !== null && typeof freeFeePrice !== 'number') {
      throw bad(`item ${index}'s 'freeFeePrice' is not a number`);
    }
    if (assetId !== undefined && assetId !== null && typeof assetId !== 'string') {
      // A numeric asset id past 2^53 has already lost digits; only an exact one is kept.
      if (typeof assetId === 'number' && Number.isSafeInteger(assetId)) item.assetId = String(assetId);
      else throw bad(`item ${index}'s 'assetId' is not text`);
    }
    if (itemId !== undefined && itemId !== null && typeof itemId !== 'string') {
      if (typeof itemId === 'number' && Number.isSafeInteger(itemId)) item.itemId = String(itemId);
      else throw bad(`item ${index}'s 'itemId' is not text`);
    }
  }
  return data as ListingFeeResultDTO[];
}

const bad = (reason: string) => new UpstreamBadResponseError(CALCULATE_LISTING_FEE, reason);
