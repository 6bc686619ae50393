// The partner API's answers as this simulator writes them, read from partner-api.md part 2 on
// their own rather than taken from src/partner/models.ts: the simulator is a second reading of the
// document, so a field misnamed in the facade's types is not misnamed here too.
// test/unit/partner-wire.test.ts checks both readings against the document.

/** 2.3: text attributes, an empty string when one does not apply; `itemName` is seen as null. */
export type SimulatedItemInfo = Record<
  | 'quality' | 'qualityName' | 'qualityColor' | 'rarity' | 'rarityName' | 'rarityColor'
  | 'type' | 'typeName' | 'slot' | 'slotName' | 'hero' | 'heroName' | 'heroAvatar'
  | 'exterior' | 'exteriorName' | 'exteriorColor' | 'weapon' | 'weaponName' | 'itemSet' | 'itemSetName'
  | 'stickerCapsule' | 'stickerCapsuleName' | 'patchCapsule' | 'patchCapsuleName'
  | 'customPlayer' | 'customPlayerName' | 'category' | 'categoryName' | 'item',
  string
> & { itemName: null };

/** 2.4, with the values the simulator sets; the fields seen only as null stay null. */
export interface SimulatedAssetInfo {
  assetId: string;
  styleId: string;
  wear: string;
  paintIndex: number;
  paintSeed: number;
  levelName: string;
  levelColor: string;
  fadeColor: string;
  /** Seen only as null upstream; some simulated items carry a value, to show it passes through. */
  stickers: unknown;
  classInfoId: null;
  classId: null;
  instanceId: null;
  lastStyle: null;
  styleProgress: null;
  gradient: null;
  inspectImageUrl: null;
  gems: null;
  styles: null;
  itemSets: null;
  ext: null;
  fraudwarning: null;
}

/** 2.2: the simulator sets every field the document saw with a value. */
export interface SimulatedItem {
  token: string;
  styleToken: string;
  status: number;
  tradableTime: number;
  appId: number;
  assetId: string;
  platformId: string;
  classId: string;
  instanceId: string;
  itemId: string;
  name: string;
  shortName: string;
  marketHashName: string;
  imageUrl: string;
  price: string;
  ifTradable: boolean;
  systemTime: number;
  remark: string;
  customTag: string;
  itemInfo: SimulatedItemInfo;
  assetInfo: SimulatedAssetInfo;
  isNew: boolean;
  isRented: boolean;
  inspect: null;
  classInfoId: null;
  tradable: null;
  activityTag: null;
  isLock: null;
  isPrivate: null;
  inspectOriginalUrl: null;
}

/** 2.6; the ids are null when the request item's tokens do not name them. */
export interface SimulatedFeeResult {
  assetId: string | null;
  itemId: string | null;
  fee: number;
  freeFeePrice: number;
}

/** 2.5, as the simulator reads a `dataList` entry. */
export interface SimulatedFeeRequest {
  price: number;
  token?: string | null;
  styleToken?: string | null;
}
