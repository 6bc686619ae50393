// The partner layer against golden answers written from partner-api.md (test/fixtures/partner/),
// with no simulator involved: the fixtures are first checked against the document's own field
// tables, then the envelope, inventory and listing-fee parsing run on them. The wire types and the
// simulator's item are checked against the same tables.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { PartnerEnvelopeError } from '../../src/errors.js';
import { unwrapEnvelope } from '../../src/partner/error-from-response.js';
import { READ_INVENTORY, parseInventoryPage } from '../../src/partner/inventory.js';
import { CALCULATE_LISTING_FEE, parseListingFeeResults } from '../../src/partner/listing-fee.js';
import type {
  AssetInfoDTO,
  ItemInfoDTO,
  ListingFeeRequestItemDTO,
  ListingFeeResultDTO,
  TradeInventoryItemDTO,
} from '../../src/partner/models.js';
import { itemAt, listingFeeFor } from '../../src/simulator/data.js';
import { hasDocType, partnerDoc, partnerFixtures, type DocField, type Json } from '../support/partner-doc.js';

const { inventoryPage, envelopeError, listingFee, listingFeeRequest } = partnerFixtures;
const pageData = inventoryPage.data;
const [fullItem, bareItem] = pageData.list;

const namesOf = (fields: DocField[]) => fields.map((field) => field.name);
/** The fields of `value` whose type is not the document's, or that the document does not name. */
function offDoc(value: Json, fields: DocField[]): string[] {
  const types = new Map(fields.map((field) => [field.name, field.type]));
  return Object.entries(value).flatMap(([name, field]) => {
    const type = types.get(name);
    if (type === undefined) return [`${name}: not in the document`];
    return hasDocType(field, type) ? [] : [`${name}: ${JSON.stringify(field)} is not ${type}`];
  });
}

describe('the golden fixtures follow partner-api.md', () => {
  it('reads the document: 30 item fields, 30 itemInfo fields, 21 assetInfo fields, a 6-field envelope', () => {
    expect(partnerDoc.inventoryItem).toHaveLength(30);
    expect(partnerDoc.itemInfo).toHaveLength(30);
    expect(partnerDoc.assetInfo).toHaveLength(21);
    expect(namesOf(partnerDoc.envelope)).toEqual(['success', 'data', 'errorCode', 'errorMsg', 'errorData', 'errorCodeStr']);
  });

  it.each([
    ['inventory-page', inventoryPage],
    ['envelope-error', envelopeError],
    ['listing-fee', listingFee],
  ])('%s is an envelope with every field of part 7, each of its type', (_name, envelope) => {
    expect(Object.keys(envelope)).toEqual(namesOf(partnerDoc.envelope));
    expect(offDoc(envelope, partnerDoc.envelope)).toEqual([]);
  });

  it('the inventory answer: data as 2.1, items as 2.2 with itemInfo as 2.3 and assetInfo as 2.4', () => {
    expect(Object.keys(pageData)).toEqual(namesOf(partnerDoc.inventoryResponse));
    expect(offDoc(pageData, partnerDoc.inventoryResponse)).toEqual([]);
    for (const item of [fullItem!, bareItem!]) {
      expect(Object.keys(item)).toEqual(namesOf(partnerDoc.inventoryItem));
      expect(offDoc(item, partnerDoc.inventoryItem)).toEqual([]);
    }
    // The full item sets every field the document saw with a value; the bare one only its asset id.
    const observedWithValues = partnerDoc.inventoryItem.filter((field) => !field.type.startsWith('null-valued'));
    expect(observedWithValues.filter((field) => fullItem![field.name] === null)).toEqual([]);
    expect(Object.entries(bareItem!).filter(([, value]) => value !== null)).toEqual([['assetId', bareItem!.assetId]]);
    expect(Object.keys(fullItem!.itemInfo as Json)).toEqual(namesOf(partnerDoc.itemInfo));
    expect(offDoc(fullItem!.itemInfo as Json, partnerDoc.itemInfo)).toEqual([]);
    expect(Object.keys(fullItem!.assetInfo as Json)).toEqual(namesOf(partnerDoc.assetInfo));
    expect(offDoc(fullItem!.assetInfo as Json, partnerDoc.assetInfo)).toEqual([]);
  });

  it('the fee answer: data as a list of 2.6; the request: dataList as a list of 2.5', () => {
    for (const result of listingFee.data as Json[]) {
      expect(Object.keys(result)).toEqual(namesOf(partnerDoc.listingFeeResultItem));
      expect(offDoc(result, partnerDoc.listingFeeResultItem)).toEqual([]);
    }
    for (const entry of listingFeeRequest.dataList as Json[]) {
      expect(Object.keys(entry).sort()).toEqual(namesOf(partnerDoc.listingFeeRequestItem).sort());
      expect(offDoc(entry, partnerDoc.listingFeeRequestItem)).toEqual([]);
    }
  });
});

describe('the partner layer on the golden answers', () => {
  it('hands out the inventory page with every item field as sent', () => {
    const sent = structuredClone(inventoryPage);
    const page = parseInventoryPage(unwrapEnvelope(READ_INVENTORY, sent));
    expect(page).toEqual({
      platformId: pageData.platformId,
      appId: pageData.appId,
      total: pageData.total,
      lastAssetId: pageData.lastAssetId,
      list: [fullItem, bareItem],
    });
  });

  it("raises the failure envelope as UPSTREAM_ERROR with the partner's fields as sent", () => {
    let thrown: unknown;
    try {
      unwrapEnvelope(READ_INVENTORY, structuredClone(envelopeError));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PartnerEnvelopeError);
    expect((thrown as PartnerEnvelopeError).upstream).toEqual({
      errorCode: envelopeError.errorCode,
      errorCodeStr: envelopeError.errorCodeStr,
      errorMsg: envelopeError.errorMsg,
      errorData: envelopeError.errorData,
    });
  });

  it('hands out the fee results as sent, in order', () => {
    expect(parseListingFeeResults(unwrapEnvelope(CALCULATE_LISTING_FEE, structuredClone(listingFee)))).toEqual(listingFee.data);
  });
});

// The document's field lists, written out as types: the test below checks them against the document
// at run time, and `npm run typecheck` checks the wire types name exactly these fields.
const ITEM_FIELDS = ['token', 'styleToken', 'status', 'tradableTime', 'appId', 'assetId', 'platformId', 'classId',
  'instanceId', 'inspect', 'itemId', 'classInfoId', 'name', 'shortName', 'marketHashName', 'imageUrl', 'price', 'tradable',
  'ifTradable', 'systemTime', 'remark', 'customTag', 'itemInfo', 'assetInfo', 'activityTag', 'isNew', 'isLock', 'isPrivate',
  'isRented', 'inspectOriginalUrl'] as const;
const ITEM_INFO_FIELDS = ['quality', 'qualityName', 'qualityColor', 'rarity', 'rarityName', 'rarityColor', 'type',
  'typeName', 'slot', 'slotName', 'hero', 'heroName', 'heroAvatar', 'exterior', 'exteriorName', 'exteriorColor', 'weapon',
  'weaponName', 'itemSet', 'itemSetName', 'stickerCapsule', 'stickerCapsuleName', 'patchCapsule', 'patchCapsuleName',
  'customPlayer', 'customPlayerName', 'category', 'categoryName', 'item', 'itemName'] as const;
const ASSET_INFO_FIELDS = ['classInfoId', 'classId', 'instanceId', 'assetId', 'styleId', 'lastStyle', 'styleProgress',
  'wear', 'paintIndex', 'paintSeed', 'levelName', 'levelColor', 'gradient', 'fadeColor', 'inspectImageUrl', 'gems',
  'stickers', 'styles', 'itemSets', 'ext', 'fraudwarning'] as const;
const FEE_REQUEST_FIELDS = ['price', 'styleToken', 'token'] as const;
const FEE_RESULT_FIELDS = ['assetId', 'itemId', 'fee', 'freeFeePrice'] as const;

describe("the facade's wire types (src/partner/models.ts)", () => {
  it('name exactly the fields of 2.2 to 2.6', () => {
    expect([ITEM_FIELDS, ITEM_INFO_FIELDS, ASSET_INFO_FIELDS, FEE_REQUEST_FIELDS, FEE_RESULT_FIELDS]).toEqual(
      [partnerDoc.inventoryItem, partnerDoc.itemInfo, partnerDoc.assetInfo, partnerDoc.listingFeeRequestItem, partnerDoc.listingFeeResultItem].map(namesOf),
    );
    expectTypeOf<keyof TradeInventoryItemDTO>().toEqualTypeOf<(typeof ITEM_FIELDS)[number]>();
    expectTypeOf<keyof ItemInfoDTO>().toEqualTypeOf<(typeof ITEM_INFO_FIELDS)[number]>();
    expectTypeOf<keyof AssetInfoDTO>().toEqualTypeOf<(typeof ASSET_INFO_FIELDS)[number]>();
    expectTypeOf<keyof ListingFeeRequestItemDTO>().toEqualTypeOf<(typeof FEE_REQUEST_FIELDS)[number]>();
    expectTypeOf<keyof ListingFeeResultDTO>().toEqualTypeOf<(typeof FEE_RESULT_FIELDS)[number]>();
  });
});

describe("the simulator's answers", () => {
  it('name every field of 2.2, 2.3 and 2.4, each of its type', () => {
    const item = itemAt('76561198000000240', 730, 5) as unknown as Json;
    expect(Object.keys(item).sort()).toEqual(namesOf(partnerDoc.inventoryItem).sort());
    expect(offDoc(item, partnerDoc.inventoryItem)).toEqual([]);
    expect(Object.keys(item.itemInfo as Json).sort()).toEqual(namesOf(partnerDoc.itemInfo).sort());
    expect(offDoc(item.itemInfo as Json, partnerDoc.itemInfo)).toEqual([]);
    expect(Object.keys(item.assetInfo as Json).sort()).toEqual(namesOf(partnerDoc.assetInfo).sort());
    expect(offDoc(item.assetInfo as Json, partnerDoc.assetInfo)).toEqual([]);
  });

  it('name every field of 2.6 in a fee result, each of its type', () => {
    const result = listingFeeFor({ price: 10000, token: 'tok_730_30000000000000003', styleToken: 'sty_100000' }) as unknown as Json;
    expect(Object.keys(result).sort()).toEqual(namesOf(partnerDoc.listingFeeResultItem).sort());
    expect(offDoc(result, partnerDoc.listingFeeResultItem)).toEqual([]);
  });
});
