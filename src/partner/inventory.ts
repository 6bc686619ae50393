// Partner operation "read platform inventory" (partner-api.md 4.1):
// GET {base_url}/api/user/v2/{platformId}/{appId}?startAssetId&count&access_token
import { UpstreamBadResponseError } from '../errors.js';
import type { CallerDomains } from './breaker.js';
import type { OperationDeadline } from './call.js';
import type { PartnerClient } from './client.js';
import { isRecord } from './error-from-response.js';
import type { TradeInventoryResponseDTO, TradeInventoryItemDTO } from './models.js';
import { PAGE_ENVELOPE_BYTES, PAGE_ITEM_BYTES } from '../tunables.js';

export const READ_INVENTORY = 'readInventory';

export interface ReadInventoryParams {
  platformId: string;
  appId: number;
  /** A digit string; sent as the integer the document asks for, without passing through a number. */
  startAssetId: string | null;
  count: number;
  accessToken: string | null;
  /** Who the page is read for (index.ts): an outage and a connection count against it too. */
  caller: CallerDomains;
  signal?: AbortSignal;
  deadline?: OperationDeadline;
  requestId?: string;
  /** Told when the call joins an identical one in flight (PartnerCall.onJoined). */
  onJoined?: () => void;
}

export async function readInventoryPage(client: PartnerClient, params: ReadInventoryParams): Promise<TradeInventoryResponseDTO> {
  const data = await client.call({
    operation: READ_INVENTORY,
    method: 'GET',
    segments: ['api', 'user', 'v2', params.platformId, params.appId],
    query: {
      startAssetId: params.startAssetId ?? undefined,
      count: params.count,
      access_token: params.accessToken ?? undefined,
    },
    idempotent: true,
    // A read: callers of the same page with the same token get the same answer.
    shareInFlight: true,
    secrets: params.accessToken ? [params.accessToken] : [],
    // An outage counts against this inventory and this caller: see partner/breaker.ts.
    faultDomains: {
      inventory: `${params.appId}/${params.platformId}`,
      caller: params.caller.fault,
    },
    connectionDomains: [`inventory ${params.appId}/${params.platformId}`, `caller ${params.caller.connection}`],
    maxResponseBytes: PAGE_ENVELOPE_BYTES + params.count * PAGE_ITEM_BYTES,
    signal: params.signal,
    deadline: params.deadline,
    requestId: params.requestId,
    onJoined: params.onJoined,
  });
  return parseInventoryPage(data);
}

const DIGITS = /^\d+$/;

/**
 * Checks the shape of `data` cheaply (it is on every request's path): the fields paging relies on
 * are checked strictly; the item fields are passed through and checked where they are served.
 */
export function parseInventoryPage(data: unknown): TradeInventoryResponseDTO {
  if (!isRecord(data)) throw bad("'data' is not an object");
  const { total, lastAssetId, list } = data;
  if (total !== undefined && total !== null && !Number.isSafeInteger(total)) throw bad("'total' is not an integer");
  if (list !== undefined && list !== null && !Array.isArray(list)) throw bad("'list' is not an array");
  const items = (list ?? []) as unknown[];
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (!isRecord(item)) throw bad(`item ${index} of 'list' is not an object`);
    item.assetId = toAssetId(item.assetId, `item ${index}'s 'assetId'`);
  }
  return {
    platformId: typeof data.platformId === 'string' ? data.platformId : null,
    appId: typeof data.appId === 'number' ? data.appId : null,
    total: (total as number | null | undefined) ?? null,
    lastAssetId: lastAssetId === undefined || lastAssetId === null ? null : toAssetId(lastAssetId, "'lastAssetId'"),
    list: items as TradeInventoryItemDTO[],
  };
}

/**
 * Asset ids are digit strings beyond 2^53. A numeric id is accepted only while it is still exact
 * (a safe integer); anything else would page from the wrong asset.
 */
function toAssetId(value: unknown, what: string): string {
  if (typeof value === 'string' && DIGITS.test(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  throw bad(`${what} is not a digit string`);
}

const bad = (reason: string) => new UpstreamBadResponseError(READ_INVENTORY, reason);
