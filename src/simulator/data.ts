// Deterministic demo data for the partner simulator. An inventory's size follows from its
// platformId, so that tests and GraphiQL can name the inventory they want:
// - a digit platformId of 5+ digits holds (its last 4 digits) items, e.g. 76561198000000240 → 240
//   items, 76561198000005000 → 5000 items, 76561198000000000 → an empty inventory;
// - any other platformId holds 0 to 299 items, chosen by a hash of the id.
import type { SimulatedFeeRequest, SimulatedFeeResult, SimulatedItem } from './wire.js';

export const DEMO_PLATFORM_ID = '76561198000000240';
export const DEMO_APP_ID = 730;
export const DEMO_ACCESS_TOKEN = 'demo-access-token';
/** The demo inventory that changes over time on the embedded simulator (GraphiQL's live tab); the others never do. */
export const LIVE_DEMO_PLATFORM_ID = '76561198000000050';
export const DEMO_APP_KEY = 'demo-app-key';

/** Unix seconds of 2026-01-01T00:00:00Z. */
const EPOCH_2026 = 1_767_225_600;
/** Asset ids start above 2^53, so that any trip through a JavaScript number would show. */
const ASSET_ID_BASE = 30_000_000_000_000_000n;

/** A platformId whose demo inventory holds `size` items (0 to 9999). */
export function platformIdWithSize(size: number): string {
  return `7656119800000${String(size).padStart(4, '0')}`;
}

export function inventorySize(platformId: string): number {
  if (/^\d{5,}$/.test(platformId)) return Number(platformId.slice(-4));
  return hash(platformId) % 300;
}

export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function assetIdAt(platformId: string, appId: number, index: number): string {
  const inventoryBase = ASSET_ID_BASE + BigInt(hash(`${platformId}/${appId}`) % 1_000_000) * 1_000_000_000n;
  return (inventoryBase + BigInt(index) * 7n + 3n).toString();
}

const WEAPONS = [
  { name: 'AK-47 | 红线', en: 'AK-47 | Redline', weapon: 'weapon_ak47', weaponName: 'AK-47' },
  { name: 'AWP | 二西莫夫', en: 'AWP | Asiimov', weapon: 'weapon_awp', weaponName: 'AWP' },
  { name: '★ 爪子刀 | 多普勒', en: '★ Karambit | Doppler', weapon: 'weapon_knife_karambit', weaponName: '爪子刀' },
  { name: 'M4A1 消音型 | 毁灭者 2000', en: 'M4A1-S | Decimator', weapon: 'weapon_m4a1_silencer', weaponName: 'M4A1 消音型' },
  { name: 'USP 消音版 | 枪响人亡', en: 'USP-S | Kill Confirmed', weapon: 'weapon_usp_silencer', weaponName: 'USP 消音版' },
  { name: 'Glock-18 | Fade — édition spéciale', en: 'Glock-18 | Fade', weapon: 'weapon_glock', weaponName: 'Glock-18' },
] as const;
const EXTERIORS = [
  { code: 'WearCategory0', name: '崭新出厂', en: 'Factory New', color: '#2ebf58' },
  { code: 'WearCategory1', name: '略有磨损', en: 'Minimal Wear', color: '#87c34a' },
  { code: 'WearCategory2', name: '久经沙场', en: 'Field-Tested', color: '#eabd37' },
] as const;
const RARITIES = [
  { code: 'Rarity_Legendary_Weapon', name: '保密', color: '#d32ce6' },
  { code: 'Rarity_Ancient_Weapon', name: '隐秘', color: '#eb4b4b' },
] as const;

/** The item at `index` of an inventory: every field set, in the types the document observed. */
export function itemAt(platformId: string, appId: number, index: number): SimulatedItem {
  const assetId = assetIdAt(platformId, appId, index);
  const weapon = WEAPONS[index % WEAPONS.length]!;
  const exterior = EXTERIORS[index % EXTERIORS.length]!;
  const rarity = RARITIES[index % RARITIES.length]!;
  const itemId = String(100_000 + (index % 50));
  const name = `${weapon.name} (${exterior.name})`;
  return {
    token: itemToken(appId, assetId),
    styleToken: styleToken(itemId),
    status: index % 3,
    tradableTime: EPOCH_2026 + index * 3600,
    appId,
    assetId,
    platformId,
    classId: String(3_000_000_000 + (index % 50)),
    instanceId: index % 2 === 0 ? '0' : '188530139',
    inspect: null,
    itemId,
    classInfoId: null,
    name,
    shortName: weapon.name,
    marketHashName: `${weapon.en} (${exterior.en})`,
    imageUrl: `https://images.simulator.invalid/items/${itemId}.png`,
    // Decimal text, including values a float would not keep exactly.
    price: index % 10 === 9 ? '12345678901234567.89' : ((index * 137) % 100_000 / 100).toFixed(2),
    tradable: null,
    ifTradable: index % 4 !== 0,
    systemTime: EPOCH_2026 + 86_400 * 30,
    remark: index % 5 === 0 ? `备注 #${index}: 交易前请检查` : '',
    customTag: index % 7 === 0 ? '收藏' : '',
    itemInfo: {
      quality: 'normal',
      qualityName: '普通',
      qualityColor: '#b2b2b2',
      rarity: rarity.code,
      rarityName: rarity.name,
      rarityColor: rarity.color,
      type: 'CSGO_Type_Rifle',
      typeName: '步枪',
      slot: '',
      slotName: '',
      hero: '',
      heroName: '',
      heroAvatar: '',
      exterior: exterior.code,
      exteriorName: exterior.name,
      exteriorColor: exterior.color,
      weapon: weapon.weapon,
      weaponName: weapon.weaponName,
      itemSet: 'set_community_1',
      itemSetName: '武器箱系列',
      stickerCapsule: '',
      stickerCapsuleName: '',
      patchCapsule: '',
      patchCapsuleName: '',
      customPlayer: '',
      customPlayerName: '',
      category: 'weapon',
      categoryName: '武器',
      item: weapon.weapon,
      itemName: null,
    },
    assetInfo: {
      classInfoId: null,
      classId: null,
      instanceId: null,
      assetId,
      styleId: String(index % 4),
      lastStyle: null,
      styleProgress: null,
      wear: `0.${String(hash(assetId)).padStart(10, '0')}12345678`,
      paintIndex: 282 + (index % 20),
      paintSeed: (index * 31) % 1000,
      levelName: index % 3 === 0 ? 'T1' : '',
      levelColor: index % 3 === 0 ? '#ffd700' : '',
      gradient: null,
      fadeColor: '',
      inspectImageUrl: null,
      gems: null,
      // Observed only as null; every fifth item carries a value so the JSON pass-through shows.
      stickers: index % 5 === 4 ? [{ slot: 0, name: '印花 | 贴纸', wear: 0.25 }] : null,
      styles: null,
      itemSets: null,
      ext: null,
      fraudwarning: null,
    },
    activityTag: null,
    isNew: index < 5,
    isLock: null,
    isPrivate: null,
    isRented: index % 11 === 0,
    inspectOriginalUrl: null,
  };
}

const itemToken = (appId: number, assetId: string) => `tok_${appId}_${assetId}`;
const styleToken = (itemId: string) => `sty_${itemId}`;

/** The fee rule: free at or below freeFeePrice, otherwise 2.5% of the price, rounded up. */
export const FREE_FEE_PRICE = 99.5;
export function listingFeeFor(item: SimulatedFeeRequest): SimulatedFeeResult {
  const asset = item.token ? /^tok_\d+_(\d+)$/.exec(item.token) : null;
  const style = item.styleToken ? /^sty_(\d+)$/.exec(item.styleToken) : null;
  return {
    assetId: asset ? asset[1]! : null,
    itemId: style ? style[1]! : null,
    fee: item.price <= FREE_FEE_PRICE ? 0 : Math.ceil((item.price * 25) / 1000),
    freeFeePrice: FREE_FEE_PRICE,
  };
}

/** The index of an asset in its inventory, or -1 when the inventory holds no such asset. */
export function indexOfAsset(platformId: string, appId: number, assetId: string, size: number): number {
  if (!/^\d+$/.test(assetId)) return -1;
  const offset = BigInt(assetId) - BigInt(assetIdAt(platformId, appId, 0));
  if (offset < 0n || offset % 7n !== 0n) return -1;
  const index = Number(offset / 7n);
  return index < size ? index : -1;
}
