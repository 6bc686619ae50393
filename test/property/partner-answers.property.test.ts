// Property: whatever the partner answers (generated from its interface document, docs/partner-api.md:
// a field null, missing, of another type or huge; an envelope with odd codes; ids past 2^53; pages
// that repeat or skip), served by a real HTTP stand-in, the client gets the data the partner sent
// for its own request and exactly the codes the oracle below expects of that answer: never a 5xx,
// never an item of another answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { GraphQLInt, GraphQLString } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemAt, listingFeeFor } from '../../src/simulator/data.js';
import { codesIn, propertyParameters } from '../support/properties.js';
import { startTestkit, type Testkit } from '../support/testkit.js';

const APP_ID = 730;
const ODD_VALUES = [null, '', 'x', -1, 0, 1.5, true, [], {}, 'A'.repeat(70_000), 2 ** 60, '9007199254740993', 1e308];

/** A changed copy of a valid item: each field kept, dropped, or replaced with an odd value. */
const itemChanges = fc.array(fc.tuple(fc.nat(40), fc.oneof(fc.constant('drop' as const), fc.constantFrom(...ODD_VALUES))), { maxLength: 3 });

const answerArbitrary = fc.record({
  items: fc.integer({ min: 0, max: 6 }),
  changes: fc.array(itemChanges, { maxLength: 6 }),
  /** Repeat one item, skip one, or keep the page as it is. */
  paging: fc.constantFrom('exact', 'repeat', 'skip', 'reverse'),
  envelope: fc.record({
    success: fc.constantFrom(true, true, true, false, 'yes', null),
    errorCode: fc.constantFrom(0, 0, 0, 1, -1, '0', null, 2 ** 60),
    total: fc.constantFrom('size', 'size', null, -1, 'many', 1e12),
  }),
  raw: fc.constantFrom('json', 'json', 'json', 'json', 'bigint-ids', 'not-json'),
});

let standIn: Server;
let next: (platformId: string) => { body: string; assetIds: string[] };
let nextFees: (requested: Array<Record<string, unknown>>) => string;
let kit: Testkit;

beforeAll(async () => {
  standIn = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: string;
      if (req.method === 'POST') {
        body = nextFees((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { dataList: Array<Record<string, unknown>> }).dataList);
      } else {
        body = next(decodeURIComponent(/^\/api\/user\/v2\/([^/]+)\//.exec(req.url ?? '')?.[1] ?? '')).body;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
  // Retries off: each answer is one generated case.
  kit = await startTestkit({ config: { partnerApiUrl: url, partnerOpenApiUrl: url, upstreamMaxRetries: 0 } });
});
afterAll(async () => {
  await kit.close();
  await new Promise((resolve) => standIn.close(resolve));
});

type GeneratedAnswer = typeof answerArbitrary extends fc.Arbitrary<infer T> ? T : never;

function build(platformId: string, a: GeneratedAnswer): { body: string; assetIds: string[]; list: Array<Record<string, unknown>> } {
  let list: Array<Record<string, unknown>> = Array.from({ length: a.items }, (_, index) => ({ ...itemAt(platformId, APP_ID, index) }));
  list.forEach((item, index) => {
    const keys = Object.keys(item);
    for (const [at, value] of a.changes[index] ?? []) {
      const key = keys[at % keys.length]!;
      if (value === 'drop') delete item[key];
      else item[key] = value;
    }
  });
  if (a.paging === 'repeat' && list.length > 0) list = [...list, list[0]!];
  if (a.paging === 'skip' && list.length > 1) list = list.slice(1);
  if (a.paging === 'reverse') list = [...list].reverse();
  const assetIds = list.map((item) => String(item.assetId));
  const envelope = {
    success: a.envelope.success,
    errorCode: a.envelope.errorCode,
    errorMsg: null,
    errorCodeStr: null,
    errorData: null,
    data: { platformId, appId: APP_ID, total: a.envelope.total === 'size' ? a.items : a.envelope.total, lastAssetId: assetIds.at(-1) ?? null, list },
  };
  let body = JSON.stringify(envelope);
  // Ids past 2^53 as bare JSON numbers, as a careless upstream would send them.
  if (a.raw === 'bigint-ids') body = body.replace(/"assetId":"(\d+)"/g, '"assetId":$1');
  if (a.raw === 'not-json') body = body.slice(0, Math.floor(body.length / 2));
  return { body, assetIds, list };
}

// The oracle: what the client must get for each generated answer, from docs/partner-api.md (part
// 7's envelope, 2.1's page, 2.2's item) and the service's documented answers to a partner that
// breaks them (docs/errors.md). Each generated answer expects exactly one set of codes.

/** What one page may weigh (src/partner/inventory.ts): an envelope's 64 KiB, 16 KiB per item asked for. */
const pageCap = (count: number) => 64 * 1024 + count * 16 * 1024;
/** Decimal text, as docs/partner-api.md 2.2 gives `price`. */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;
const BAD = 'UPSTREAM_BAD_RESPONSE';

/** The asset id the service reads from a page item as sent, or null when it cannot be an asset id. */
function assetIdOf(value: unknown): string | null {
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return null;
}

/** Whether a GraphQL scalar serializes a value the partner sent (null and absent are null). */
function serializes(value: unknown, serialize: (value: unknown) => unknown): boolean {
  if (value === null || value === undefined) return true;
  try {
    serialize(value);
    return true;
  } catch {
    return false;
  }
}

/** One partner call's answer to a page asked for `count` items: a code, or the page it holds. */
function pageOutcome(
  a: GeneratedAnswer,
  built: { body: string; list: Array<Record<string, unknown>> },
  count: number,
): { code: string } | { total: number | null; ids: string[] } {
  if (Buffer.byteLength(built.body) > pageCap(count)) return { code: BAD };
  if (a.raw === 'not-json') return { code: BAD };
  const { success, errorCode, total } = a.envelope;
  if (success !== null && typeof success !== 'boolean') return { code: BAD };
  if (errorCode !== null && typeof errorCode !== 'number') return { code: BAD };
  if (success === false || (errorCode !== null && errorCode !== 0)) return { code: 'UPSTREAM_ERROR' };
  const pageTotal = total === 'size' ? a.items : total;
  if (pageTotal !== null && !Number.isSafeInteger(pageTotal)) return { code: BAD };
  const ids = built.list.map((item) => assetIdOf(a.raw === 'bigint-ids' && typeof item.assetId === 'string' && /^\d+$/.test(item.assetId) ? Number(item.assetId) : item.assetId));
  if (ids.some((id) => id === null)) return { code: BAD };
  return { total: pageTotal as number | null, ids: ids as string[] };
}

/**
 * The codes the client must see for a page of `first` items and the inventory's total: the walk
 * of docs/paging (first + 1 items, at most 4 calls, a start asset answered again is dropped, an
 * asset answered twice is the partner's fault), then the served fields' types.
 */
function expectedCodes(a: GeneratedAnswer, built: { body: string; list: Array<Record<string, unknown>> }, first: number): string[] {
  const codes = new Set<string>();
  const wanted = first + 1;
  const collected: number[] = [];
  const seen = new Set<string>();
  let start: string | null = null;
  let total: number | null | undefined;
  for (let calls = 0; collected.length < wanted && calls < 4; calls++) {
    const missing = wanted - collected.length;
    const page = pageOutcome(a, built, start === null ? missing : missing + 1);
    if ('code' in page) {
      codes.add(page.code);
      // The first call also answers totalCount; a later one fails the items alone.
      return [...codes];
    }
    if (total === undefined) {
      total = page.total;
      if (!serializes(total, (value) => GraphQLInt.serialize(value))) codes.add(BAD);
    }
    let at = page.ids.map((_, index) => index);
    if (start !== null && at.length > 0 && page.ids[0] === start) at = at.slice(1);
    if (at.length === 0) break;
    for (const index of at.slice(0, missing)) {
      if (seen.has(page.ids[index]!)) {
        codes.add(BAD);
        return [...codes];
      }
      seen.add(page.ids[index]!);
      collected.push(index);
    }
    if (collected.length >= wanted) break;
    if (typeof total === 'number' && collected.length >= total) break;
    start = page.ids[collected.at(-1)!]!;
  }
  for (const index of collected.slice(0, first)) {
    const item = built.list[index]!;
    if (!serializes(item.name, (value) => GraphQLString.serialize(value))) codes.add(BAD);
    if (!serializes(item.appId, (value) => GraphQLInt.serialize(value))) codes.add(BAD);
    if (!serializes(item.price, (value) => { if (typeof value !== 'string' || !DECIMAL_TEXT.test(value)) throw new Error(); })) codes.add(BAD);
  }
  return [...codes];
}

/** Where one fee result says which asset it is for: text, an exact number as text, else null when it cannot. */
const textOrExact = (value: unknown): { ok: boolean; text: string | null | undefined } =>
  value === undefined || value === null || typeof value === 'string'
    ? { ok: true, text: value }
    : typeof value === 'number' && Number.isSafeInteger(value)
      ? { ok: true, text: String(value) }
      : { ok: false, text: null };

/**
 * The codes the client must see for a fee answer (docs/partner-api.md 2.6 and 7): results matched
 * to the items asked by asset id where a result names an asked asset, the rest by position; a
 * count that differs, or a result naming another asset than its item's, is the partner's fault.
 */
function expectedFeeCodes(success: unknown, body: string, assetIds: string[], data: Array<Record<string, unknown>>): string[] {
  // What one answer may weigh (src/partner/listing-fee.ts): an envelope's 16 KiB, 2 KiB per item.
  if (Buffer.byteLength(body) > 16 * 1024 + assetIds.length * 2 * 1024) return [BAD];
  if (success !== true) return ['UPSTREAM_ERROR'];
  const named: Array<string | null | undefined> = [];
  for (const result of data) {
    const { fee, freeFeePrice } = result;
    const assetId = textOrExact(result.assetId);
    if (fee !== undefined && fee !== null && !Number.isSafeInteger(fee)) return [BAD];
    if (freeFeePrice !== undefined && freeFeePrice !== null && typeof freeFeePrice !== 'number') return [BAD];
    if (!assetId.ok || !textOrExact(result.itemId).ok) return [BAD];
    named.push(assetId.text);
  }
  if (data.length !== assetIds.length) return [BAD];
  const owner = new Array<number | undefined>(assetIds.length);
  const unclaimed: number[] = [];
  named.forEach((assetId, result) => {
    const entry = assetId ? assetIds.indexOf(assetId) : -1;
    if (entry === -1 || owner[entry] !== undefined) unclaimed.push(result);
    else owner[entry] = result;
  });
  const codes = new Set<string>();
  assetIds.forEach((assetId, entry) => {
    const result = owner[entry] ?? unclaimed.shift()!;
    if (named[result] && named[result] !== assetId) codes.add(BAD);
    else if (!serializes(data[result]!.fee, (value) => GraphQLInt.serialize(value))) codes.add(BAD);
  });
  return [...codes];
}

describe('generated partner answers', () => {
  it('come to the client as the data the partner sent for that request, with exactly the codes that answer calls for', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(answerArbitrary, fc.integer({ min: 1, max: 5 }), async (answer, first) => {
        // A platform id of its own per run, so that nothing of an earlier answer can be reused.
        const platformId = `prop_${run++}`;
        let served: string[] = [];
        next = (asked) => {
          const built = build(asked, answer);
          served = served.concat(built.assetIds);
          return built;
        };
        const response = await kit.post({
          query: `{ inventory(platformId: "${platformId}", appId: ${APP_ID}) { totalCount items(first: ${first}) { nodes { assetId name appId price } } } }`,
        });
        const text = await response.text();
        expect(response.status, text).toBe(200);
        expect([...new Set(codesIn(text))].sort(), text).toEqual(expectedCodes(answer, build(platformId, answer), first).sort());
        const body = JSON.parse(text) as { data?: { inventory: { items: { nodes: Array<{ assetId: string } | null> } | null } | null } };
        const assetIds = (body.data?.inventory?.items?.nodes ?? []).flatMap((node) => (node?.assetId == null ? [] : [node.assetId]));
        for (const assetId of assetIds) expect(served, text).toContain(assetId);
        // A page that repeats an item is the partner's fault, never an item twice on the client's page.
        expect(new Set(assetIds).size, text).toBe(assetIds.length);
      }),
      propertyParameters(150),
    );
    expect((await fetch(`${kit.url}/health`)).status).toBe(200);
  }, 60_000);

  it('of listing fees come as the fee of each item asked for, at its place, with exactly the codes that answer calls for', async () => {
    const feeAnswer = fc.record({
      order: fc.constantFrom('same', 'same', 'reversed', 'one-missing', 'one-extra', 'other-assets'),
      changes: fc.array(fc.tuple(fc.constantFrom('assetId', 'itemId', 'fee', 'freeFeePrice'), fc.oneof(fc.constant('drop' as const), fc.constantFrom(...ODD_VALUES))), { maxLength: 2 }),
      success: fc.constantFrom(true, true, true, false, null),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(feeAnswer, fc.integer({ min: 1, max: 4 }), async (answer, size) => {
        const items = Array.from({ length: size }, (_, n) => {
          const assetId = String(9_007_199_254_740_993n + BigInt(run * 10 + n));
          return { price: 1000 + n, token: `tok_730_${assetId}`, styleToken: `sty_${n}`, assetId };
        });
        run += 1;
        let answered: { body: string; data: Array<Record<string, unknown>> } | undefined;
        nextFees = (requested) => {
          let data: Array<Record<string, unknown>> = requested.map((entry) => ({ ...listingFeeFor(entry as never) }));
          if (answer.order === 'reversed') data.reverse();
          if (answer.order === 'one-missing') data = data.slice(1);
          if (answer.order === 'one-extra') data.push({ ...data[0]! });
          if (answer.order === 'other-assets') data = data.map((fee) => ({ ...fee, assetId: '1234567' }));
          for (const [key, value] of answer.changes) {
            if (value === 'drop') delete data[0]?.[key];
            else if (data[0]) data[0][key] = value;
          }
          const body = JSON.stringify({ success: answer.success, errorCode: answer.success ? 0 : 40_001, errorMsg: null, errorCodeStr: null, errorData: null, data });
          answered = { body, data };
          return body;
        };
        const response = await kit.post({
          query: 'mutation ($input: CalculateListingFeeInput!) { calculateListingFee(input: $input) { fees { assetId fee } } }',
          variables: { input: { items } },
        });
        const text = await response.text();
        expect(response.status, text).toBe(200);
        // One partner call per operation: the items name distinct assets, fewer than a batch.
        expect(answered, text).toBeDefined();
        const expected = expectedFeeCodes(answer.success, answered!.body, items.map((item) => item.assetId), answered!.data);
        expect([...new Set(codesIn(text))].sort(), text).toEqual(expected.sort());
        const body = JSON.parse(text) as { data?: { calculateListingFee: { fees: Array<{ assetId: string | null; fee: number } | null> } | null } | null };
        const fees = body.data?.calculateListingFee?.fees;
        if (fees) {
          expect(fees, text).toHaveLength(items.length);
          fees.forEach((fee, index) => {
            // An empty or absent assetId names no asset: the partner's own value, matched by place.
            if (fee?.assetId) expect(fee.assetId, text).toBe(items[index]!.assetId);
          });
        } else {
          expect(codesIn(text).length, text).toBeGreaterThan(0);
        }
      }),
      propertyParameters(120),
    );
  }, 60_000);
});
