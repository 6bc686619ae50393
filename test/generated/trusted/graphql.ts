/* eslint-disable */
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = T | null | undefined;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /**
   * An instant in UTC, written as JavaScript's `Date.prototype.toISOString()` writes it:
   * `2026-01-01T00:00:00.000Z`. The partner API sends Unix seconds; the facade converts them.
   */
  DateTime: { input: string; output: string; }
  /**
   * An exact decimal number in text form, such as `"12.50"`. Passed through exactly as the partner
   * API sent it, never through a floating-point number.
   */
  Decimal: { input: string; output: string; }
  /**
   * Any JSON value, passed through as the partner API sent it. Used for fields whose type the partner
   * API has not fixed (they have only been observed as null).
   */
  JSON: { input: unknown; output: unknown; }
  /** A selection set of fields, as text. */
  federation__FieldSet: { input: string; output: string; }
  /** A name imported from a linked specification. */
  link__Import: { input: string; output: string; }
};

/**
 * Attributes of one particular asset (the partner's `assetInfo`). Fields the partner API has only
 * been observed to send as null are `JSON`.
 */
export type AssetInfo = {
  __typename?: 'AssetInfo';
  /** The asset id, as text. */
  assetId?: Maybe<Scalars['String']['output']>;
  /** Class id (type not fixed by the partner API). */
  classId?: Maybe<Scalars['JSON']['output']>;
  /** Class info id (type not fixed by the partner API). */
  classInfoId?: Maybe<Scalars['JSON']['output']>;
  /** Extension data (type not fixed by the partner API). */
  ext?: Maybe<Scalars['JSON']['output']>;
  /** Fade colour. */
  fadeColor?: Maybe<Scalars['String']['output']>;
  /** Fraud warning (type not fixed by the partner API). */
  fraudwarning?: Maybe<Scalars['JSON']['output']>;
  /** Gems (type not fixed by the partner API). */
  gems?: Maybe<Scalars['JSON']['output']>;
  /** Gradient (type not fixed by the partner API). */
  gradient?: Maybe<Scalars['JSON']['output']>;
  /** Inspect image URL (type not fixed by the partner API). */
  inspectImageUrl?: Maybe<Scalars['JSON']['output']>;
  /** Instance id (type not fixed by the partner API). */
  instanceId?: Maybe<Scalars['JSON']['output']>;
  /** Item sets (type not fixed by the partner API). */
  itemSets?: Maybe<Scalars['JSON']['output']>;
  /** Last style (type not fixed by the partner API). */
  lastStyle?: Maybe<Scalars['JSON']['output']>;
  /** Level colour. */
  levelColor?: Maybe<Scalars['String']['output']>;
  /** Level name. */
  levelName?: Maybe<Scalars['String']['output']>;
  /** Paint index. */
  paintIndex?: Maybe<Scalars['Int']['output']>;
  /** Paint seed. */
  paintSeed?: Maybe<Scalars['Int']['output']>;
  /** Stickers (type not fixed by the partner API). */
  stickers?: Maybe<Scalars['JSON']['output']>;
  /** Style id. */
  styleId?: Maybe<Scalars['String']['output']>;
  /** Style progress (type not fixed by the partner API). */
  styleProgress?: Maybe<Scalars['JSON']['output']>;
  /** Styles (type not fixed by the partner API). */
  styles?: Maybe<Scalars['JSON']['output']>;
  /** Wear (float value) as exact decimal text. */
  wear?: Maybe<Scalars['Decimal']['output']>;
};

/** The items whose listing fee to calculate. */
export type CalculateListingFeeInput = {
  /** 1 to 100 items; each price a positive integer. */
  items: Array<ListingFeeItemInput>;
};

/** The result of `calculateListingFee`. */
export type CalculateListingFeePayload = {
  __typename?: 'CalculateListingFeePayload';
  /** One fee per input item, in input order. */
  fees: Array<ListingFee>;
};

/** A user's inventory of one game on the game platform. */
export type Inventory = Node & {
  __typename?: 'Inventory';
  /** The game id, as asked for. */
  appId: Scalars['Int']['output'];
  /** Global id of this inventory, built from `platformId` and `appId`. */
  id: Scalars['ID']['output'];
  /**
   * The items of the inventory, in the partner API's order. Forward paging only, because the
   * partner API pages forward: pass the previous page's `pageInfo.endCursor` as `after`.
   */
  items: InventoryItemConnection;
  /** The account id on the game platform, as asked for. */
  platformId: Scalars['String']['output'];
  /** The total number of items in the inventory, as the partner API reports it (its `total`). */
  totalCount?: Maybe<Scalars['Int']['output']>;
};


/** A user's inventory of one game on the game platform. */
export type InventoryItemsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};

/**
 * One item of an inventory (the partner's `TradeInventoryItem`). Field names follow the partner
 * API's, so that a field can be traced to its source. Every field is null when the partner API
 * sends null or leaves it out.
 */
export type InventoryItem = Node & {
  __typename?: 'InventoryItem';
  /** Activity tag (type not fixed by the partner API). */
  activityTag?: Maybe<Scalars['JSON']['output']>;
  /** The game id. */
  appId?: Maybe<Scalars['Int']['output']>;
  /** The asset id on the game platform: a digit string that may exceed 2^53, passed as text. */
  assetId?: Maybe<Scalars['String']['output']>;
  /** Attributes of this particular asset (wear, paint, stickers and so on). */
  assetInfo?: Maybe<AssetInfo>;
  /** The platform's class id. */
  classId?: Maybe<Scalars['String']['output']>;
  /** Class info id (type not fixed by the partner API). */
  classInfoId?: Maybe<Scalars['JSON']['output']>;
  /** Custom tag; may be empty. */
  customTag?: Maybe<Scalars['String']['output']>;
  /** Stable global id, unique across inventories (built from platformId, appId and assetId). */
  id: Scalars['ID']['output'];
  /** Whether the item can be traded now. */
  ifTradable?: Maybe<Scalars['Boolean']['output']>;
  /** URL of the item's image. */
  imageUrl?: Maybe<Scalars['String']['output']>;
  /** Inspect data (type not fixed by the partner API). */
  inspect?: Maybe<Scalars['JSON']['output']>;
  /** Original inspect URL (type not fixed by the partner API). */
  inspectOriginalUrl?: Maybe<Scalars['JSON']['output']>;
  /** The platform's instance id. */
  instanceId?: Maybe<Scalars['String']['output']>;
  /** Lock flag (type not fixed by the partner API). */
  isLock?: Maybe<Scalars['JSON']['output']>;
  /** Whether the item is new in the inventory. */
  isNew?: Maybe<Scalars['Boolean']['output']>;
  /** Private flag (type not fixed by the partner API). */
  isPrivate?: Maybe<Scalars['JSON']['output']>;
  /** Whether the item is rented out. */
  isRented?: Maybe<Scalars['Boolean']['output']>;
  /** The item's category id on the marketplace. */
  itemId?: Maybe<Scalars['String']['output']>;
  /** Descriptive attributes (quality, rarity, exterior and so on). */
  itemInfo?: Maybe<ItemInfo>;
  /**
   * The fee for listing this item at `price` (the item's own `token` and `styleToken` go with it).
   * All such fields of one operation go to the partner API together, in as few calls as its batch
   * limit allows.
   */
  listingFee?: Maybe<ListingFee>;
  /** The platform's market hash name. */
  marketHashName?: Maybe<Scalars['String']['output']>;
  /** Display name. */
  name?: Maybe<Scalars['String']['output']>;
  /** The account id on the game platform. */
  platformId?: Maybe<Scalars['String']['output']>;
  /** Reference price, exact decimal text. */
  price?: Maybe<Scalars['Decimal']['output']>;
  /** Free-text remark. */
  remark?: Maybe<Scalars['String']['output']>;
  /** Short display name. */
  shortName?: Maybe<Scalars['String']['output']>;
  /** Item status code, as sent by the partner API (its values are not documented). */
  status?: Maybe<Scalars['Int']['output']>;
  /** Opaque style token, as sent by the partner API; goes with `price` to a listing-fee calculation. */
  styleToken?: Maybe<Scalars['String']['output']>;
  /** The partner's system time for this record (upstream Unix seconds, converted). */
  systemTime?: Maybe<Scalars['DateTime']['output']>;
  /** Opaque item token, as sent by the partner API; goes with `price` to a listing-fee calculation. */
  token?: Maybe<Scalars['String']['output']>;
  /** Tradable flag (type not fixed by the partner API; see `ifTradable`). */
  tradable?: Maybe<Scalars['JSON']['output']>;
  /** When the item becomes tradable (upstream Unix seconds, converted). */
  tradableTime?: Maybe<Scalars['DateTime']['output']>;
};


/**
 * One item of an inventory (the partner's `TradeInventoryItem`). Field names follow the partner
 * API's, so that a field can be traced to its source. Every field is null when the partner API
 * sends null or leaves it out.
 */
export type InventoryItemListingFeeArgs = {
  price: Scalars['Int']['input'];
};

/** A page of inventory items (Relay cursor connection). */
export type InventoryItemConnection = {
  __typename?: 'InventoryItemConnection';
  /** The items of this page, each with its cursor. */
  edges: Array<InventoryItemEdge>;
  /** The items of this page, without cursors (a shortcut for `edges { node }`). */
  nodes: Array<InventoryItem>;
  /** Where this page sits in the whole inventory. */
  pageInfo: PageInfo;
  /** The total number of items in the inventory, as the partner API reports it (its `total`). */
  totalCount?: Maybe<Scalars['Int']['output']>;
};

/** An inventory item and its cursor. */
export type InventoryItemEdge = {
  __typename?: 'InventoryItemEdge';
  /** Opaque cursor of this item; pass it as `after` to continue after this item. */
  cursor: Scalars['String']['output'];
  /** The item. */
  node: InventoryItem;
};

/**
 * Descriptive attributes of an item (the partner's `itemInfo`). Every field is text as the partner
 * API sends it; it sends an empty string when an attribute does not apply.
 */
export type ItemInfo = {
  __typename?: 'ItemInfo';
  /** Category code. */
  category?: Maybe<Scalars['String']['output']>;
  /** Category display name. */
  categoryName?: Maybe<Scalars['String']['output']>;
  /** Custom player code. */
  customPlayer?: Maybe<Scalars['String']['output']>;
  /** Custom player display name. */
  customPlayerName?: Maybe<Scalars['String']['output']>;
  /** Exterior (wear class) code. */
  exterior?: Maybe<Scalars['String']['output']>;
  /** Exterior colour, `#rrggbb`. */
  exteriorColor?: Maybe<Scalars['String']['output']>;
  /** Exterior display name. */
  exteriorName?: Maybe<Scalars['String']['output']>;
  /** Hero code. */
  hero?: Maybe<Scalars['String']['output']>;
  /** URL of the hero's avatar. */
  heroAvatar?: Maybe<Scalars['String']['output']>;
  /** Hero display name. */
  heroName?: Maybe<Scalars['String']['output']>;
  /** Item code. */
  item?: Maybe<Scalars['String']['output']>;
  /** Item display name (observed as null). */
  itemName?: Maybe<Scalars['String']['output']>;
  /** Item set code. */
  itemSet?: Maybe<Scalars['String']['output']>;
  /** Item set display name. */
  itemSetName?: Maybe<Scalars['String']['output']>;
  /** Patch capsule code. */
  patchCapsule?: Maybe<Scalars['String']['output']>;
  /** Patch capsule display name. */
  patchCapsuleName?: Maybe<Scalars['String']['output']>;
  /** Quality code. */
  quality?: Maybe<Scalars['String']['output']>;
  /** Quality colour, `#rrggbb`. */
  qualityColor?: Maybe<Scalars['String']['output']>;
  /** Quality display name. */
  qualityName?: Maybe<Scalars['String']['output']>;
  /** Rarity code. */
  rarity?: Maybe<Scalars['String']['output']>;
  /** Rarity colour, `#rrggbb`. */
  rarityColor?: Maybe<Scalars['String']['output']>;
  /** Rarity display name. */
  rarityName?: Maybe<Scalars['String']['output']>;
  /** Slot code. */
  slot?: Maybe<Scalars['String']['output']>;
  /** Slot display name. */
  slotName?: Maybe<Scalars['String']['output']>;
  /** Sticker capsule code. */
  stickerCapsule?: Maybe<Scalars['String']['output']>;
  /** Sticker capsule display name. */
  stickerCapsuleName?: Maybe<Scalars['String']['output']>;
  /** Type code. */
  type?: Maybe<Scalars['String']['output']>;
  /** Type display name. */
  typeName?: Maybe<Scalars['String']['output']>;
  /** Weapon code. */
  weapon?: Maybe<Scalars['String']['output']>;
  /** Weapon display name. */
  weaponName?: Maybe<Scalars['String']['output']>;
};

/**
 * The fee for listing one item at a price (the partner's listing fee result item). The partner API
 * does not state the units of `fee` and `freeFeePrice`; they are passed through as sent.
 */
export type ListingFee = {
  __typename?: 'ListingFee';
  /** The asset id the fee is for, as the partner API reports it. */
  assetId?: Maybe<Scalars['String']['output']>;
  /** The listing fee, in the partner API's unit. */
  fee?: Maybe<Scalars['Int']['output']>;
  /** The price at or below which no fee is charged, as the partner API reports it. */
  freeFeePrice?: Maybe<Scalars['Float']['output']>;
  /** The item's category id, as the partner API reports it. */
  itemId?: Maybe<Scalars['String']['output']>;
};

/** One item and the price it would be listed at. */
export type ListingFeeItemInput = {
  /** The sale price, a positive integer in the partner API's price unit. */
  price: Scalars['Int']['input'];
  /** The item's `styleToken`, from `InventoryItem.styleToken`. */
  styleToken?: InputMaybe<Scalars['String']['input']>;
  /** The item's `token`, from `InventoryItem.token`. */
  token?: InputMaybe<Scalars['String']['input']>;
};

/** The root of every operation that asks the partner API to compute or change something. */
export type Mutation = {
  __typename?: 'Mutation';
  /**
   * Calculates the listing fee of each item at the price given. Answers one fee per input item, in
   * input order. Calculates only; nothing is listed.
   */
  calculateListingFee: CalculateListingFeePayload;
};


/** The root of every operation that asks the partner API to compute or change something. */
export type MutationCalculateListingFeeArgs = {
  input: CalculateListingFeeInput;
};

/** An object with a globally unique, opaque id that `Query.node` can refetch. */
export type Node = {
  /** The object's global id. Opaque: clients must not parse it. */
  id: Scalars['ID']['output'];
};

/** Where a page of a connection sits in the whole list (Relay cursor connections). */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** The cursor of the last edge of this page, or null when the page is empty. Pass it as `after` for the next page. */
  endCursor?: Maybe<Scalars['String']['output']>;
  /** True when more items follow the last edge of this page. */
  hasNextPage: Scalars['Boolean']['output'];
  /** Always false: connections of this API page forward only. */
  hasPreviousPage: Scalars['Boolean']['output'];
  /** The cursor of the first edge of this page, or null when the page is empty. */
  startCursor?: Maybe<Scalars['String']['output']>;
};

/** The root of every read. */
export type Query = {
  __typename?: 'Query';
  /**
   * The caller's inventory of one game on the game platform. The caller's access token comes from
   * the `Authorization: Bearer <token>` request header and is forwarded to the partner API.
   * Reading this field costs no partner call; its `totalCount` and `items` do.
   */
  inventory?: Maybe<Inventory>;
  /**
   * Refetches an object by its global id. Returns null when the id names nothing this API can find;
   * an id that is not an id of this API is a `BAD_USER_INPUT` error.
   */
  node?: Maybe<Node>;
};


/** The root of every read. */
export type QueryInventoryArgs = {
  appId: Scalars['Int']['input'];
  platformId: Scalars['String']['input'];
};


/** The root of every read. */
export type QueryNodeArgs = {
  id: Scalars['ID']['input'];
};

/** What a linked specification is for. */
export type Link__Purpose =
  /** It changes how the schema executes. */
  | 'EXECUTION'
  /** It adds metadata about security to the schema. */
  | 'SECURITY';

export type CalculateFeesMutationVariables = Exact<{ [key: string]: never; }>;


export type CalculateFeesMutation = { __typename: 'Mutation', calculateListingFee: { __typename: 'CalculateListingFeePayload', fees: Array<{ __typename: 'ListingFee', assetId?: string | null, itemId?: string | null, fee?: number | null, freeFeePrice?: number | null }> } };

export type InventoryFirstPageQueryVariables = Exact<{
  platformId?: Scalars['String']['input'];
  appId?: Scalars['Int']['input'];
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type InventoryFirstPageQuery = { __typename: 'Query', inventory?: { __typename: 'Inventory', id: string, totalCount?: number | null, items: { __typename: 'InventoryItemConnection', pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'InventoryItem', id: string, assetId?: string | null, name?: string | null, marketHashName?: string | null, price?: string | null, tradableTime?: string | null, ifTradable?: boolean | null, itemInfo?: { __typename: 'ItemInfo', rarityName?: string | null, rarityColor?: string | null, exteriorName?: string | null } | null, assetInfo?: { __typename: 'AssetInfo', wear?: string | null, paintSeed?: number | null } | null }> } } | null };

export type PageWithDeferredFeesQueryVariables = Exact<{
  platformId?: Scalars['String']['input'];
  appId?: Scalars['Int']['input'];
}>;


export type PageWithDeferredFeesQuery = { __typename: 'Query', inventory?: { __typename: 'Inventory', id: string, items: { __typename: 'InventoryItemConnection', nodes: Array<{ __typename: 'InventoryItem', id: string, assetId?: string | null, name?: string | null, price?: string | null } & ({ __typename: 'InventoryItem' } | { __typename: 'InventoryItem' }) & ({ __typename?: 'InventoryItem', listingFee?: { __typename: 'ListingFee', assetId?: string | null, fee?: number | null, freeFeePrice?: number | null } | null } | { __typename?: 'InventoryItem', listingFee?: never })> } } | null };

export type PageWithFeesQueryVariables = Exact<{
  platformId?: Scalars['String']['input'];
  appId?: Scalars['Int']['input'];
}>;


export type PageWithFeesQuery = { __typename: 'Query', inventory?: { __typename: 'Inventory', id: string, items: { __typename: 'InventoryItemConnection', nodes: Array<{ __typename: 'InventoryItem', id: string, assetId?: string | null, name?: string | null, price?: string | null, listingFee?: { __typename: 'ListingFee', assetId?: string | null, fee?: number | null, freeFeePrice?: number | null } | null }> } } | null };

export type InventoryPageQueryVariables = Exact<{
  platformId: Scalars['String']['input'];
  appId: Scalars['Int']['input'];
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type InventoryPageQuery = { __typename: 'Query', inventory?: { __typename: 'Inventory', id: string, platformId: string, appId: number, totalCount?: number | null, items: { __typename: 'InventoryItemConnection', totalCount?: number | null, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, hasPreviousPage: boolean, startCursor?: string | null, endCursor?: string | null }, edges: Array<{ __typename: 'InventoryItemEdge', cursor: string, node: { __typename: 'InventoryItem', id: string, assetId?: string | null } }> } } | null };

export type InventoryTotalQueryVariables = Exact<{
  platformId: Scalars['String']['input'];
  appId: Scalars['Int']['input'];
}>;


export type InventoryTotalQuery = { __typename: 'Query', inventory?: { __typename: 'Inventory', id: string, totalCount?: number | null } | null };

export type InventoryItemsFullQueryVariables = Exact<{
  platformId: Scalars['String']['input'];
  appId: Scalars['Int']['input'];
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type InventoryItemsFullQuery = { __typename: 'Query', inventory?: { __typename: 'Inventory', id: string, items: { __typename: 'InventoryItemConnection', nodes: Array<{ __typename: 'InventoryItem', id: string, token?: string | null, styleToken?: string | null, status?: number | null, tradableTime?: string | null, appId?: number | null, assetId?: string | null, platformId?: string | null, classId?: string | null, instanceId?: string | null, inspect?: unknown | null, itemId?: string | null, classInfoId?: unknown | null, name?: string | null, shortName?: string | null, marketHashName?: string | null, imageUrl?: string | null, price?: string | null, tradable?: unknown | null, ifTradable?: boolean | null, systemTime?: string | null, remark?: string | null, customTag?: string | null, activityTag?: unknown | null, isNew?: boolean | null, isLock?: unknown | null, isPrivate?: unknown | null, isRented?: boolean | null, inspectOriginalUrl?: unknown | null, itemInfo?: { __typename: 'ItemInfo', quality?: string | null, qualityName?: string | null, qualityColor?: string | null, rarity?: string | null, rarityName?: string | null, rarityColor?: string | null, type?: string | null, typeName?: string | null, slot?: string | null, slotName?: string | null, hero?: string | null, heroName?: string | null, heroAvatar?: string | null, exterior?: string | null, exteriorName?: string | null, exteriorColor?: string | null, weapon?: string | null, weaponName?: string | null, itemSet?: string | null, itemSetName?: string | null, stickerCapsule?: string | null, stickerCapsuleName?: string | null, patchCapsule?: string | null, patchCapsuleName?: string | null, customPlayer?: string | null, customPlayerName?: string | null, category?: string | null, categoryName?: string | null, item?: string | null, itemName?: string | null } | null, assetInfo?: { __typename: 'AssetInfo', classInfoId?: unknown | null, classId?: unknown | null, instanceId?: unknown | null, assetId?: string | null, styleId?: string | null, lastStyle?: unknown | null, styleProgress?: unknown | null, wear?: string | null, paintIndex?: number | null, paintSeed?: number | null, levelName?: string | null, levelColor?: string | null, gradient?: unknown | null, fadeColor?: string | null, inspectImageUrl?: unknown | null, gems?: unknown | null, stickers?: unknown | null, styles?: unknown | null, itemSets?: unknown | null, ext?: unknown | null, fraudwarning?: unknown | null } | null }> } } | null };

export type InventoryItemFieldsFragment = { __typename: 'InventoryItem', id: string, token?: string | null, styleToken?: string | null, status?: number | null, tradableTime?: string | null, appId?: number | null, assetId?: string | null, platformId?: string | null, classId?: string | null, instanceId?: string | null, inspect?: unknown | null, itemId?: string | null, classInfoId?: unknown | null, name?: string | null, shortName?: string | null, marketHashName?: string | null, imageUrl?: string | null, price?: string | null, tradable?: unknown | null, ifTradable?: boolean | null, systemTime?: string | null, remark?: string | null, customTag?: string | null, activityTag?: unknown | null, isNew?: boolean | null, isLock?: unknown | null, isPrivate?: unknown | null, isRented?: boolean | null, inspectOriginalUrl?: unknown | null, itemInfo?: { __typename: 'ItemInfo', quality?: string | null, qualityName?: string | null, qualityColor?: string | null, rarity?: string | null, rarityName?: string | null, rarityColor?: string | null, type?: string | null, typeName?: string | null, slot?: string | null, slotName?: string | null, hero?: string | null, heroName?: string | null, heroAvatar?: string | null, exterior?: string | null, exteriorName?: string | null, exteriorColor?: string | null, weapon?: string | null, weaponName?: string | null, itemSet?: string | null, itemSetName?: string | null, stickerCapsule?: string | null, stickerCapsuleName?: string | null, patchCapsule?: string | null, patchCapsuleName?: string | null, customPlayer?: string | null, customPlayerName?: string | null, category?: string | null, categoryName?: string | null, item?: string | null, itemName?: string | null } | null, assetInfo?: { __typename: 'AssetInfo', classInfoId?: unknown | null, classId?: unknown | null, instanceId?: unknown | null, assetId?: string | null, styleId?: string | null, lastStyle?: unknown | null, styleProgress?: unknown | null, wear?: string | null, paintIndex?: number | null, paintSeed?: number | null, levelName?: string | null, levelColor?: string | null, gradient?: unknown | null, fadeColor?: string | null, inspectImageUrl?: unknown | null, gems?: unknown | null, stickers?: unknown | null, styles?: unknown | null, itemSets?: unknown | null, ext?: unknown | null, fraudwarning?: unknown | null } | null };

export type NodeQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type NodeQuery = { __typename: 'Query', node?:
    | { __typename: 'Inventory', platformId: string, appId: number, totalCount?: number | null, id: string }
    | { __typename: 'InventoryItem', assetId?: string | null, name?: string | null, id: string }
   | null };

export type CalculateListingFeeMutationVariables = Exact<{
  input: CalculateListingFeeInput;
}>;


export type CalculateListingFeeMutation = { __typename: 'Mutation', calculateListingFee: { __typename: 'CalculateListingFeePayload', fees: Array<{ __typename: 'ListingFee', assetId?: string | null, itemId?: string | null, fee?: number | null, freeFeePrice?: number | null }> } };

export type InventoryWithFeesQueryVariables = Exact<{
  platformId: Scalars['String']['input'];
  appId: Scalars['Int']['input'];
  first?: InputMaybe<Scalars['Int']['input']>;
  price: Scalars['Int']['input'];
}>;


export type InventoryWithFeesQuery = { __typename: 'Query', inventory?: { __typename: 'Inventory', id: string, items: { __typename: 'InventoryItemConnection', nodes: Array<{ __typename: 'InventoryItem', id: string, assetId?: string | null, token?: string | null, listingFee?: { __typename: 'ListingFee', assetId?: string | null, itemId?: string | null, fee?: number | null, freeFeePrice?: number | null } | null }> } } | null };

export type TwoInventoriesWithFeesQueryVariables = Exact<{
  a: Scalars['String']['input'];
  b: Scalars['String']['input'];
  appId: Scalars['Int']['input'];
  first: Scalars['Int']['input'];
  price: Scalars['Int']['input'];
}>;


export type TwoInventoriesWithFeesQuery = { __typename: 'Query', a?: { __typename: 'Inventory', id: string, items: { __typename: 'InventoryItemConnection', nodes: Array<{ __typename: 'InventoryItem', id: string, assetId?: string | null, listingFee?: { __typename: 'ListingFee', assetId?: string | null, fee?: number | null } | null }> } } | null, b?: { __typename: 'Inventory', id: string, items: { __typename: 'InventoryItemConnection', nodes: Array<{ __typename: 'InventoryItem', id: string, assetId?: string | null, listingFee?: { __typename: 'ListingFee', assetId?: string | null, fee?: number | null } | null }> } } | null };

export type ItemsWithFeesFragment = { __typename: 'Inventory', id: string, items: { __typename: 'InventoryItemConnection', nodes: Array<{ __typename: 'InventoryItem', id: string, assetId?: string | null, listingFee?: { __typename: 'ListingFee', assetId?: string | null, fee?: number | null } | null }> } };

export type InventoryWithDeferredFeesQueryVariables = Exact<{
  platformId: Scalars['String']['input'];
  appId: Scalars['Int']['input'];
  first?: InputMaybe<Scalars['Int']['input']>;
  price: Scalars['Int']['input'];
}>;


export type InventoryWithDeferredFeesQuery = { __typename: 'Query', inventory?: { __typename: 'Inventory', id: string, items: { __typename: 'InventoryItemConnection', nodes: Array<{ __typename: 'InventoryItem', id: string, assetId?: string | null } & ({ __typename: 'InventoryItem', id: string, listingFee?: { __typename: 'ListingFee', assetId?: string | null, itemId?: string | null, fee?: number | null, freeFeePrice?: number | null } | null } | { __typename: 'InventoryItem', id?: never, listingFee?: never })> } } | null };

export type ItemListingFeeFragment = { __typename: 'InventoryItem', id: string, listingFee?: { __typename: 'ListingFee', assetId?: string | null, itemId?: string | null, fee?: number | null, freeFeePrice?: number | null } | null };

export const InventoryItemFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"InventoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InventoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"styleToken"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"tradableTime"}},{"kind":"Field","name":{"kind":"Name","value":"appId"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"platformId"}},{"kind":"Field","name":{"kind":"Name","value":"classId"}},{"kind":"Field","name":{"kind":"Name","value":"instanceId"}},{"kind":"Field","name":{"kind":"Name","value":"inspect"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"classInfoId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"shortName"}},{"kind":"Field","name":{"kind":"Name","value":"marketHashName"}},{"kind":"Field","name":{"kind":"Name","value":"imageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"tradable"}},{"kind":"Field","name":{"kind":"Name","value":"ifTradable"}},{"kind":"Field","name":{"kind":"Name","value":"systemTime"}},{"kind":"Field","name":{"kind":"Name","value":"remark"}},{"kind":"Field","name":{"kind":"Name","value":"customTag"}},{"kind":"Field","name":{"kind":"Name","value":"itemInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"quality"}},{"kind":"Field","name":{"kind":"Name","value":"qualityName"}},{"kind":"Field","name":{"kind":"Name","value":"qualityColor"}},{"kind":"Field","name":{"kind":"Name","value":"rarity"}},{"kind":"Field","name":{"kind":"Name","value":"rarityName"}},{"kind":"Field","name":{"kind":"Name","value":"rarityColor"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"typeName"}},{"kind":"Field","name":{"kind":"Name","value":"slot"}},{"kind":"Field","name":{"kind":"Name","value":"slotName"}},{"kind":"Field","name":{"kind":"Name","value":"hero"}},{"kind":"Field","name":{"kind":"Name","value":"heroName"}},{"kind":"Field","name":{"kind":"Name","value":"heroAvatar"}},{"kind":"Field","name":{"kind":"Name","value":"exterior"}},{"kind":"Field","name":{"kind":"Name","value":"exteriorName"}},{"kind":"Field","name":{"kind":"Name","value":"exteriorColor"}},{"kind":"Field","name":{"kind":"Name","value":"weapon"}},{"kind":"Field","name":{"kind":"Name","value":"weaponName"}},{"kind":"Field","name":{"kind":"Name","value":"itemSet"}},{"kind":"Field","name":{"kind":"Name","value":"itemSetName"}},{"kind":"Field","name":{"kind":"Name","value":"stickerCapsule"}},{"kind":"Field","name":{"kind":"Name","value":"stickerCapsuleName"}},{"kind":"Field","name":{"kind":"Name","value":"patchCapsule"}},{"kind":"Field","name":{"kind":"Name","value":"patchCapsuleName"}},{"kind":"Field","name":{"kind":"Name","value":"customPlayer"}},{"kind":"Field","name":{"kind":"Name","value":"customPlayerName"}},{"kind":"Field","name":{"kind":"Name","value":"category"}},{"kind":"Field","name":{"kind":"Name","value":"categoryName"}},{"kind":"Field","name":{"kind":"Name","value":"item"}},{"kind":"Field","name":{"kind":"Name","value":"itemName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"assetInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"classInfoId"}},{"kind":"Field","name":{"kind":"Name","value":"classId"}},{"kind":"Field","name":{"kind":"Name","value":"instanceId"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"styleId"}},{"kind":"Field","name":{"kind":"Name","value":"lastStyle"}},{"kind":"Field","name":{"kind":"Name","value":"styleProgress"}},{"kind":"Field","name":{"kind":"Name","value":"wear"}},{"kind":"Field","name":{"kind":"Name","value":"paintIndex"}},{"kind":"Field","name":{"kind":"Name","value":"paintSeed"}},{"kind":"Field","name":{"kind":"Name","value":"levelName"}},{"kind":"Field","name":{"kind":"Name","value":"levelColor"}},{"kind":"Field","name":{"kind":"Name","value":"gradient"}},{"kind":"Field","name":{"kind":"Name","value":"fadeColor"}},{"kind":"Field","name":{"kind":"Name","value":"inspectImageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"gems"}},{"kind":"Field","name":{"kind":"Name","value":"stickers"}},{"kind":"Field","name":{"kind":"Name","value":"styles"}},{"kind":"Field","name":{"kind":"Name","value":"itemSets"}},{"kind":"Field","name":{"kind":"Name","value":"ext"}},{"kind":"Field","name":{"kind":"Name","value":"fraudwarning"}}]}},{"kind":"Field","name":{"kind":"Name","value":"activityTag"}},{"kind":"Field","name":{"kind":"Name","value":"isNew"}},{"kind":"Field","name":{"kind":"Name","value":"isLock"}},{"kind":"Field","name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","name":{"kind":"Name","value":"isRented"}},{"kind":"Field","name":{"kind":"Name","value":"inspectOriginalUrl"}}]}}]} as unknown as DocumentNode<InventoryItemFieldsFragment, unknown>;
export const ItemsWithFeesFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ItemsWithFees"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Inventory"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"listingFee"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ItemsWithFeesFragment, unknown>;
export const ItemListingFeeFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ItemListingFee"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InventoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"listingFee"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"freeFeePrice"}}]}}]}}]} as unknown as DocumentNode<ItemListingFeeFragment, unknown>;
export const CalculateFeesDocument = {"__meta__":{"hash":"c608d1f00ce5a27dbb6bd60e5ed62cddb21e5ce0dd20bf9e18bfe1b212c5431e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CalculateFees"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"calculateListingFee"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"items"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"price"},"value":{"kind":"IntValue","value":"10000"}},{"kind":"ObjectField","name":{"kind":"Name","value":"token"},"value":{"kind":"StringValue","value":"tok_730_30276599000000003","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"styleToken"},"value":{"kind":"StringValue","value":"sty_100000","block":false}}]},{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"price"},"value":{"kind":"IntValue","value":"50"}},{"kind":"ObjectField","name":{"kind":"Name","value":"token"},"value":{"kind":"StringValue","value":"tok_730_30276599000000010","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"styleToken"},"value":{"kind":"StringValue","value":"sty_100001","block":false}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fees"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"freeFeePrice"}}]}}]}}]}}]} as unknown as DocumentNode<CalculateFeesMutation, CalculateFeesMutationVariables>;
export const InventoryFirstPageDocument = {"__meta__":{"hash":"3742bb5c3a3e4a93180a3faf062b22ee386127242beea1a51ce202e076542cf6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"InventoryFirstPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},"defaultValue":{"kind":"StringValue","value":"76561198000000240","block":false}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},"defaultValue":{"kind":"IntValue","value":"730"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"platformId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}}},{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"marketHashName"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"tradableTime"}},{"kind":"Field","name":{"kind":"Name","value":"ifTradable"}},{"kind":"Field","name":{"kind":"Name","value":"itemInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"rarityName"}},{"kind":"Field","name":{"kind":"Name","value":"rarityColor"}},{"kind":"Field","name":{"kind":"Name","value":"exteriorName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"assetInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"wear"}},{"kind":"Field","name":{"kind":"Name","value":"paintSeed"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<InventoryFirstPageQuery, InventoryFirstPageQueryVariables>;
export const PageWithDeferredFeesDocument = {"__meta__":{"hash":"dbc29f7bfa44e33c44a55f8fc98f80c547268765a39d614c731c9d6b27acc79d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PageWithDeferredFees"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},"defaultValue":{"kind":"StringValue","value":"76561198000000240","block":false}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},"defaultValue":{"kind":"IntValue","value":"730"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"platformId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}}},{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"InlineFragment","directives":[{"kind":"Directive","name":{"kind":"Name","value":"defer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"label"},"value":{"kind":"StringValue","value":"fee","block":false}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"listingFee"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"IntValue","value":"10000"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"freeFeePrice"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<PageWithDeferredFeesQuery, PageWithDeferredFeesQueryVariables>;
export const PageWithFeesDocument = {"__meta__":{"hash":"4dde3d1dc734ebdc69e4d5436ec643b978fda27e38cc8d4f78eeef67560a475f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PageWithFees"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},"defaultValue":{"kind":"StringValue","value":"76561198000000240","block":false}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},"defaultValue":{"kind":"IntValue","value":"730"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"platformId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}}},{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"listingFee"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"IntValue","value":"10000"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"freeFeePrice"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<PageWithFeesQuery, PageWithFeesQueryVariables>;
export const InventoryPageDocument = {"__meta__":{"hash":"8658eb94868f6d41ed7e77a347e14efb13c3aebc5f890aba1f405ad5cd218f11"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"InventoryPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"platformId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}}},{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"platformId"}},{"kind":"Field","name":{"kind":"Name","value":"appId"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<InventoryPageQuery, InventoryPageQueryVariables>;
export const InventoryTotalDocument = {"__meta__":{"hash":"5a6efd737444ebe515d524e3af7ce7d7c396c3da2215ae32244e081eebbee2fa"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"InventoryTotal"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"platformId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}}},{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]} as unknown as DocumentNode<InventoryTotalQuery, InventoryTotalQueryVariables>;
export const InventoryItemsFullDocument = {"__meta__":{"hash":"bdc744f4b7bc0fffb4174c064d8fd71c94b1cc47226d9b42aa57db328114e6e5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"InventoryItemsFull"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"platformId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}}},{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"InventoryItemFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"InventoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InventoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"styleToken"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"tradableTime"}},{"kind":"Field","name":{"kind":"Name","value":"appId"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"platformId"}},{"kind":"Field","name":{"kind":"Name","value":"classId"}},{"kind":"Field","name":{"kind":"Name","value":"instanceId"}},{"kind":"Field","name":{"kind":"Name","value":"inspect"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"classInfoId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"shortName"}},{"kind":"Field","name":{"kind":"Name","value":"marketHashName"}},{"kind":"Field","name":{"kind":"Name","value":"imageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"tradable"}},{"kind":"Field","name":{"kind":"Name","value":"ifTradable"}},{"kind":"Field","name":{"kind":"Name","value":"systemTime"}},{"kind":"Field","name":{"kind":"Name","value":"remark"}},{"kind":"Field","name":{"kind":"Name","value":"customTag"}},{"kind":"Field","name":{"kind":"Name","value":"itemInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"quality"}},{"kind":"Field","name":{"kind":"Name","value":"qualityName"}},{"kind":"Field","name":{"kind":"Name","value":"qualityColor"}},{"kind":"Field","name":{"kind":"Name","value":"rarity"}},{"kind":"Field","name":{"kind":"Name","value":"rarityName"}},{"kind":"Field","name":{"kind":"Name","value":"rarityColor"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"typeName"}},{"kind":"Field","name":{"kind":"Name","value":"slot"}},{"kind":"Field","name":{"kind":"Name","value":"slotName"}},{"kind":"Field","name":{"kind":"Name","value":"hero"}},{"kind":"Field","name":{"kind":"Name","value":"heroName"}},{"kind":"Field","name":{"kind":"Name","value":"heroAvatar"}},{"kind":"Field","name":{"kind":"Name","value":"exterior"}},{"kind":"Field","name":{"kind":"Name","value":"exteriorName"}},{"kind":"Field","name":{"kind":"Name","value":"exteriorColor"}},{"kind":"Field","name":{"kind":"Name","value":"weapon"}},{"kind":"Field","name":{"kind":"Name","value":"weaponName"}},{"kind":"Field","name":{"kind":"Name","value":"itemSet"}},{"kind":"Field","name":{"kind":"Name","value":"itemSetName"}},{"kind":"Field","name":{"kind":"Name","value":"stickerCapsule"}},{"kind":"Field","name":{"kind":"Name","value":"stickerCapsuleName"}},{"kind":"Field","name":{"kind":"Name","value":"patchCapsule"}},{"kind":"Field","name":{"kind":"Name","value":"patchCapsuleName"}},{"kind":"Field","name":{"kind":"Name","value":"customPlayer"}},{"kind":"Field","name":{"kind":"Name","value":"customPlayerName"}},{"kind":"Field","name":{"kind":"Name","value":"category"}},{"kind":"Field","name":{"kind":"Name","value":"categoryName"}},{"kind":"Field","name":{"kind":"Name","value":"item"}},{"kind":"Field","name":{"kind":"Name","value":"itemName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"assetInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"classInfoId"}},{"kind":"Field","name":{"kind":"Name","value":"classId"}},{"kind":"Field","name":{"kind":"Name","value":"instanceId"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"styleId"}},{"kind":"Field","name":{"kind":"Name","value":"lastStyle"}},{"kind":"Field","name":{"kind":"Name","value":"styleProgress"}},{"kind":"Field","name":{"kind":"Name","value":"wear"}},{"kind":"Field","name":{"kind":"Name","value":"paintIndex"}},{"kind":"Field","name":{"kind":"Name","value":"paintSeed"}},{"kind":"Field","name":{"kind":"Name","value":"levelName"}},{"kind":"Field","name":{"kind":"Name","value":"levelColor"}},{"kind":"Field","name":{"kind":"Name","value":"gradient"}},{"kind":"Field","name":{"kind":"Name","value":"fadeColor"}},{"kind":"Field","name":{"kind":"Name","value":"inspectImageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"gems"}},{"kind":"Field","name":{"kind":"Name","value":"stickers"}},{"kind":"Field","name":{"kind":"Name","value":"styles"}},{"kind":"Field","name":{"kind":"Name","value":"itemSets"}},{"kind":"Field","name":{"kind":"Name","value":"ext"}},{"kind":"Field","name":{"kind":"Name","value":"fraudwarning"}}]}},{"kind":"Field","name":{"kind":"Name","value":"activityTag"}},{"kind":"Field","name":{"kind":"Name","value":"isNew"}},{"kind":"Field","name":{"kind":"Name","value":"isLock"}},{"kind":"Field","name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","name":{"kind":"Name","value":"isRented"}},{"kind":"Field","name":{"kind":"Name","value":"inspectOriginalUrl"}}]}}]} as unknown as DocumentNode<InventoryItemsFullQuery, InventoryItemsFullQueryVariables>;
export const NodeDocument = {"__meta__":{"hash":"f2d04b5034aa019e0e07285a259acd8943b646f124c992095c1a499b3e1e2ce7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Node"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Inventory"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"platformId"}},{"kind":"Field","name":{"kind":"Name","value":"appId"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InventoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<NodeQuery, NodeQueryVariables>;
export const CalculateListingFeeDocument = {"__meta__":{"hash":"08b8edcdcbddfa5239f133b3b56d07b4bca65a3482f66167fd78ea20532cf59a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CalculateListingFee"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CalculateListingFeeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"calculateListingFee"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fees"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"freeFeePrice"}}]}}]}}]}}]} as unknown as DocumentNode<CalculateListingFeeMutation, CalculateListingFeeMutationVariables>;
export const InventoryWithFeesDocument = {"__meta__":{"hash":"04f5a08b96a9ecfc40b02ebe289e33cb8a43df59e0fb94cbb5221474c5485d0b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"InventoryWithFees"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"price"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"platformId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}}},{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"listingFee"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"freeFeePrice"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<InventoryWithFeesQuery, InventoryWithFeesQueryVariables>;
export const TwoInventoriesWithFeesDocument = {"__meta__":{"hash":"3614f4062b9c9ff04c5bedb50d4bed27f88013bfc6516046f649de455f5bec1c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TwoInventoriesWithFees"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"a"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"b"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"price"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","alias":{"kind":"Name","value":"a"},"name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"platformId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"a"}}},{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ItemsWithFees"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"b"},"name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"platformId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"b"}}},{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ItemsWithFees"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ItemsWithFees"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Inventory"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"listingFee"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TwoInventoriesWithFeesQuery, TwoInventoriesWithFeesQueryVariables>;
export const InventoryWithDeferredFeesDocument = {"__meta__":{"hash":"80ae37b939da04ca20ec118c2c023bf8868c581095a772d55a042df650b6c42c","deferredFields":{"ItemListingFee":["__typename","id","listingFee"]}},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"InventoryWithDeferredFees"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"price"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"platformId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platformId"}}},{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ItemListingFee"},"directives":[{"kind":"Directive","name":{"kind":"Name","value":"defer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"label"},"value":{"kind":"StringValue","value":"fee","block":false}}]}]}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ItemListingFee"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InventoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"listingFee"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"assetId"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"freeFeePrice"}}]}}]}}]} as unknown as DocumentNode<InventoryWithDeferredFeesQuery, InventoryWithDeferredFeesQueryVariables>;