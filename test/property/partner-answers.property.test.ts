// Property: whatever the partner answers (generated from its interface document, docs/partner-api.md:
// a field null, missing, of another type or huge; an envelope with odd codes; ids past 2^53; pages
// that repeat or skip), served by a real HTTP stand-in, the client gets either the data the partner
// sent for its own request or a coded error: never a 5xx, never an item of another answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemAt, listingFeeFor } from '../../src/simulator/data.js';
import { ANSWER_CODES, codesIn, propertyParameters } from '../support/properties.js';
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

function build(platformId: string, a: GeneratedAnswer): { body: string; assetIds: string[] } {
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
  return { body, assetIds };
}

describe('generated partner answers', () => {
  it('come to the client as the data the partner sent for that request, or as coded errors', async () => {
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
        for (const code of codesIn(text)) expect(ANSWER_CODES.has(code), text).toBe(true);
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

  it('of listing fees come as the fee of each item asked for, at its place, or as coded errors', async () => {
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
          return JSON.stringify({ success: answer.success, errorCode: answer.success ? 0 : 40_001, errorMsg: null, errorCodeStr: null, errorData: null, data });
        };
        const response = await kit.post({
          query: 'mutation ($input: CalculateListingFeeInput!) { calculateListingFee(input: $input) { fees { assetId fee } } }',
          variables: { input: { items } },
        });
        const text = await response.text();
        expect(response.status, text).toBe(200);
        for (const code of codesIn(text)) expect(ANSWER_CODES.has(code), text).toBe(true);
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
