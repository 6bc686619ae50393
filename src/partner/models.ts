// The partner API's wire shapes (partner-api.md part 2), declared once. Codegen maps the GraphQL
// types onto these, so a resolver that reads a field the upstream does not send fails `tsc`.

/** `itemInfo` (partner-api.md 2.3): text attributes; an empty string when one does not apply. */
export interface ItemInfoDTO {
  quality?: string | null;
  qualityName?: string | null;
  qualityColor?: string | null;
  rarity?: string | null;
  rarityName?: string | null;
  rarityColor?: string | null;
  type?: string | null;
  typeName?: string | null;
  slot?: string | null;
  slotName?: string | null;
  hero?: string | null;
  heroName?: string | null;
  heroAvatar?: string | null;
  exterior?: string | null;
  exteriorName?: string | null;
  exteriorColor?: string | null;
  weapon?: string | null;
  weaponName?: string | null;
  itemSet?: string | null;
  itemSetName?: string | null;
  stickerCapsule?: string | null;
  stickerCapsuleName?: string | null;
  patchCapsule?: string | null;
  patchCapsuleName?: string | null;
  customPlayer?: string | null;
  customPlayerName?: string | null;
  category?: string | null;
  categoryName?: string | null;
  item?: string | null;
  itemName?: string | null;
}

/** `assetInfo` (partner-api.md 2.4). Fields only ever observed as null are `unknown`. */
export interface AssetInfoDTO {
  classInfoId?: unknown;
  classId?: unknown;
  instanceId?: unknown;
  assetId?: string | null;
  styleId?: string | null;
  lastStyle?: unknown;
  styleProgress?: unknown;
  wear?: string | null;
  paintIndex?: number | null;
  paintSeed?: number | null;
  levelName?: string | null;
  levelColor?: string | null;
  gradient?: unknown;
  fadeColor?: string | null;
  inspectImageUrl?: unknown;
  gems?: unknown;
  stickers?: unknown;
  styles?: unknown;
  itemSets?: unknown;
  ext?: unknown;
  fraudwarning?: unknown;
}

/** `TradeInventoryItem` (partner-api.md 2.2): 30 fields, all optional and nullable. */
export interface TradeInventoryItemDTO {
  token?: string | null;
  styleToken?: string | null;
  status?: number | null;
  /** Unix seconds. */
  tradableTime?: number | null;
  appId?: number | null;
  /**
   * A digit string that may exceed 2^53. Always a string here: the operation module turns a
   * numeric id that is still exact into text and refuses an inexact one.
   */
  assetId: string;
  platformId?: string | null;
  classId?: string | null;
  instanceId?: string | null;
  inspect?: unknown;
  itemId?: string | null;
  classInfoId?: unknown;
  name?: string | null;
  shortName?: string | null;
  marketHashName?: string | null;
  imageUrl?: string | null;
  /** Decimal text. */
  price?: string | null;
  tradable?: unknown;
  ifTradable?: boolean | null;
  /** Unix seconds. */
  systemTime?: number | null;
  remark?: string | null;
  customTag?: string | null;
  itemInfo?: ItemInfoDTO | null;
  assetInfo?: AssetInfoDTO | null;
  activityTag?: unknown;
  isNew?: boolean | null;
  isLock?: unknown;
  isPrivate?: unknown;
  isRented?: boolean | null;
  inspectOriginalUrl?: unknown;
}

/** `TradeInventoryResponseDTO` (partner-api.md 2.1), after the shape check of `partner/inventory.ts`. */
export interface TradeInventoryResponseDTO {
  platformId?: string | null;
  appId?: number | null;
  total: number | null;
  lastAssetId: string | null;
  list: TradeInventoryItemDTO[];
}

/** Listing fee request item (partner-api.md 2.5). */
export interface ListingFeeRequestItemDTO {
  price: number;
  styleToken?: string | null;
  token?: string | null;
}

/** Listing fee result item (partner-api.md 2.6). */
export interface ListingFeeResultDTO {
  assetId?: string | null;
  itemId?: string | null;
  fee?: number | null;
  freeFeePrice?: number | null;
}
