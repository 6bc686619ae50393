// The whole facade against golden partner answers (test/fixtures/partner/, written from
// partner-api.md), served from a loopback server in place of the simulator: the calls it makes are
// the document's (4.1, 4.2), and every field of the document's answers reaches the client.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createTradegraph, GRAPHQL_PATH, type Tradegraph } from '../../src/server.js';
import { partnerFixtures, type Json } from '../support/partner-doc.js';

const { inventoryPage, envelopeError, listingFee, listingFeeRequest } = partnerFixtures;
const pageData = inventoryPage.data;

const TOKEN = 'golden-access-token';
const APP_KEY = 'golden-app-key';

interface Received {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: unknown;
}
const received: Received[] = [];
/** What the golden partner answers the inventory read with. */
let inventoryAnswer: Json = inventoryPage;

let partner: Server;
let service: Tradegraph;
let graphqlUrl: string;

beforeAll(async () => {
  partner = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://partner.invalid');
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', url, headers: req.headers, body: text ? (JSON.parse(text) as unknown) : null });
      const answer = url.pathname.startsWith('/merchant/') ? listingFee : inventoryAnswer;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  const partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
  const config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    partnerApiUrl: partnerUrl,
    partnerOpenApiUrl: partnerUrl,
    partnerAppKey: APP_KEY,
  };
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  service = createTradegraph({ config, logger: createLogger(config.logLevel, silent) });
  graphqlUrl = `${await service.listen(0, '127.0.0.1')}${GRAPHQL_PATH}`;
});

afterAll(async () => {
  await service.close();
  await new Promise<void>((resolve) => partner.close(() => resolve()));
});

async function graphql(query: string): Promise<{ data?: Json; errors?: Json[] }> {
  received.length = 0;
  const response = await fetch(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: Json; errors?: Json[] };
}

const ITEM_INFO = Object.keys((pageData.list[0]!.itemInfo as Json));
const ASSET_INFO = Object.keys((pageData.list[0]!.assetInfo as Json));
const ITEM_FIELDS = Object.keys(pageData.list[0]!).filter((name) => name !== 'itemInfo' && name !== 'assetInfo');
const ALL_FIELDS = `${ITEM_FIELDS.join(' ')} itemInfo { ${ITEM_INFO.join(' ')} } assetInfo { ${ASSET_INFO.join(' ')} }`;
const isoSeconds = (seconds: unknown) => (seconds === null ? null : new Date((seconds as number) * 1000).toISOString());

describe('the inventory read (4.1)', () => {
  it('asks GET {base_url}/api/user/v2/{platformId}/{appId} with count and access_token', async () => {
    inventoryAnswer = inventoryPage;
    const result = await graphql(`{ inventory(platformId: "${pageData.platformId}", appId: ${pageData.appId}) { totalCount } }`);
    expect(result.errors).toBeUndefined();
    expect(received).toHaveLength(1);
    const [call] = received;
    expect(call!.method).toBe('GET');
    expect(call!.url.pathname).toBe(`/api/user/v2/${pageData.platformId}/${pageData.appId}`);
    expect(call!.url.searchParams.get('access_token')).toBe(TOKEN);
    expect(Number.isInteger(Number(call!.url.searchParams.get('count')))).toBe(true);
    expect(call!.url.searchParams.has('startAssetId')).toBe(false);
  });

  it('serves all 30 item fields, itemInfo and assetInfo as the partner sent them', async () => {
    inventoryAnswer = inventoryPage;
    const result = await graphql(
      `{ inventory(platformId: "${pageData.platformId}", appId: ${pageData.appId}) { totalCount items(first: 2) { nodes { ${ALL_FIELDS} } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const inventory = result.data!.inventory as { totalCount: number; items: { nodes: Json[] } };
    expect(inventory.totalCount).toBe(pageData.total);
    // As sent, but Unix seconds served as DateTime.
    const expected = pageData.list.map((item) => ({
      ...item,
      tradableTime: isoSeconds(item.tradableTime),
      systemTime: isoSeconds(item.systemTime),
    }));
    expect(inventory.items.nodes).toEqual(expected);
  });

  it("answers the failure envelope as UPSTREAM_ERROR with the partner's fields", async () => {
    inventoryAnswer = envelopeError;
    const result = await graphql(`{ inventory(platformId: "${pageData.platformId}", appId: ${pageData.appId}) { totalCount } }`);
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]!.extensions).toEqual({
      code: 'UPSTREAM_ERROR',
      upstream: {
        errorCode: envelopeError.errorCode,
        errorCodeStr: envelopeError.errorCodeStr,
        errorMsg: envelopeError.errorMsg,
        errorData: envelopeError.errorData,
      },
    });
  });
});

describe('the listing fee calculation (4.2)', () => {
  it('POSTs {open_api_url}/merchant/sale/v1/calculate with dataList and the app-key, and serves the results', async () => {
    const entries = listingFeeRequest.dataList as Array<{ price: number; token: string; styleToken: string }>;
    const input = entries.map(({ price, token, styleToken }) => `{ price: ${price}, token: "${token}", styleToken: "${styleToken}" }`);
    const result = await graphql(`mutation { calculateListingFee(input: { items: [${input.join(', ')}] }) { fees { assetId itemId fee freeFeePrice } } }`);
    expect(result.errors).toBeUndefined();
    expect(received).toHaveLength(1);
    const [call] = received;
    expect(call!.method).toBe('POST');
    expect(call!.url.pathname).toBe('/merchant/sale/v1/calculate');
    expect(call!.headers['app-key']).toBe(APP_KEY);
    expect(call!.headers['content-type']).toMatch(/^application\/json/);
    expect(call!.body).toEqual(listingFeeRequest);
    expect((result.data!.calculateListingFee as { fees: unknown[] }).fees).toEqual(listingFee.data);
  });
});
