// Relay connection paging over the partner API's forward paging (startAssetId, count). The
// partner document leaves open whether `startAssetId` includes the asset it names and how large
// `count` may be; the walk below is exact under every reading (no item twice, none skipped).
import type { GraphQLResolveInfo } from 'graphql';
import { BadUserInputError, UpstreamBadResponseError } from '../errors.js';
import { MAX_PAGE_SIZE } from '../tunables.js';
import type { InventoryPageLoader } from './page-loader.js';
import { READ_INVENTORY } from '../partner/inventory.js';
import { decodeItemCursor, encodeItemCursor, inventoryTag, type ItemCursor } from './cursor.js';
import type { InventoryItemModel, InventoryRef } from './model.js';

export interface ItemEdge {
  cursor: string;
  node: InventoryItemModel;
}

interface ItemPageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

/**
 * What `InventoryItemConnection` is built from. Edge cursors are written only when a client asks
 * for `edges`: most pages are read as `nodes` with at most `endCursor`.
 */
export class ItemConnection {
  readonly pageInfo: ItemPageInfo;
  private readonly tag: string;

  constructor(
    inventory: InventoryRef,
    readonly nodes: InventoryItemModel[],
    /** The position of the first node in the inventory, for its cursor. */
    private readonly firstIndex: number,
    hasNextPage: boolean,
    readonly totalCount: number | null,
    /** The `after` the page was asked from, already checked; null from the start. */
    after: ItemCursor | null,
  ) {
    this.tag = inventoryTag(inventory);
    // A page without edges (first: 0, or nothing after `after`) keeps the position it was asked
    // from: a client that pages on from a null endCursor would start over from the first item.
    const position = after ? encodeItemCursor(after, this.tag) : null;
    this.pageInfo = {
      hasNextPage,
      hasPreviousPage: false,
      startCursor: this.cursorAt(0) ?? position,
      endCursor: this.cursorAt(nodes.length - 1) ?? position,
    };
  }

  get edges(): ItemEdge[] {
    return this.nodes.map((node, offset) => ({ cursor: this.cursorAt(offset)!, node }));
  }

  private cursorAt(offset: number): string | null {
    const node = this.nodes[offset];
    return node ? encodeItemCursor({ assetId: node.assetId, index: this.firstIndex + offset }, this.tag) : null;
  }
}

export interface ItemsArgs {
  first: number;
  after: ItemCursor | null;
}

/**
 * The page size of a `first` left out or null: the SDL's default of the field's `first`
 * (schema/inventory.graphql), the one place it is stated. GraphQL fills the default in for an
 * argument left out, and an explicit null means the same here.
 */
export function pageSizeOf(first: number | null | undefined, info: Pick<GraphQLResolveInfo, 'parentType' | 'fieldName'>): number {
  if (first !== null && first !== undefined) return first;
  const fallback = info.parentType.getFields()[info.fieldName]?.args.find((argument) => argument.name === 'first')?.defaultValue;
  if (typeof fallback !== 'number') throw new Error(`${info.parentType.name}.${info.fieldName}(first:) has no default in the schema.`);
  return fallback;
}

/** Validates `first` and `after` (a cursor of this inventory) before anything is sent upstream. */
export function parseItemsArgs(inventory: InventoryRef, size: number, after: string | null | undefined): ItemsArgs {
  if (!Number.isInteger(size) || size < 0 || size > MAX_PAGE_SIZE) {
    throw new BadUserInputError(
      `Argument 'first' must be an integer from 0 to ${MAX_PAGE_SIZE}; got ${size}.`,
      'first',
    );
  }
  return { first: size, after: after === null || after === undefined ? null : decodeItemCursor(after, inventory) };
}

/**
 * Loads `first` items after the cursor, plus one to learn whether more follow. When the partner
 * API answers fewer items than asked (it may cap `count`), the walk goes on from the last asset
 * until it has enough or the inventory ends. The end is an empty answer, or a short answer that
 * reaches the partner's `total`. The walk makes at most `maxCalls` partner calls: a partner that
 * answers two items at a time then yields a short page with `hasNextPage` and a cursor that
 * continues it (as Relay allows), not a hundred sequential calls.
 */
export async function loadItemConnection(
  loader: InventoryPageLoader,
  inventory: InventoryRef,
  { first, after }: ItemsArgs,
  maxCalls: number,
): Promise<ItemConnection> {
  const wanted = first + 1;
  const collected: InventoryItemModel[] = [];
  const seen = new Set<string>();
  const firstIndex = after ? after.index + 1 : 0;
  let start = after?.assetId ?? null;
  let total: number | null | undefined;
  let calls = 0;
  let cutShort = false;

  while (collected.length < wanted) {
    if (calls === maxCalls) {
      cutShort = true;
      break;
    }
    calls += 1;
    const missing = wanted - collected.length;
    // One more than missing: if the partner API reads startAssetId inclusively, its first item is
    // the start asset itself, which is dropped below.
    const count = start === null ? missing : missing + 1;
    const page = await loader.load({ ...inventory, startAssetId: start, count });
    if (total === undefined) total = page.total;
    let items = page.items;
    if (start !== null && items.length > 0 && items[0]!.assetId === start) items = items.slice(1);
    if (items.length === 0) break;
    for (const item of items.slice(0, missing)) {
      if (seen.has(item.assetId) || item.assetId === after?.assetId) {
        throw new UpstreamBadResponseError(READ_INVENTORY, `asset ${item.assetId} was answered twice while paging`);
      }
      seen.add(item.assetId);
      collected.push(item);
    }
    if (collected.length >= wanted) break;
    if (typeof total === 'number' && firstIndex + collected.length >= total) break;
    start = collected[collected.length - 1]!.assetId;
  }

  return new ItemConnection(inventory, collected.slice(0, first), firstIndex, collected.length > first || cutShort, total ?? null, after);
}
