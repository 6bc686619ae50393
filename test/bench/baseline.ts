// The benchmark's baseline: the least a facade of the partner API can cost. A hand-written
// node:http server with the same undici keep-alive Pool and per-call timeout as the facade's
// client and no GraphQL, answering the same pages with the same fields in the same JSON shape.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createPartnerCaller, listenUntilStopped, UpstreamFailure, type Json } from './bench-server.js';
import { ASSET_INFO_FIELDS, CARD_FIELDS, FEE_FIELDS, ITEM_FIELDS, ITEM_INFO_FIELDS, MUTATION_FEE_FIELDS } from './scenarios.js';

const port = Number(process.env.BASELINE_PORT ?? 4020);
const partner = createPartnerCaller(process.env.PARTNER_API_URL ?? 'http://127.0.0.1:4010', process.env.PARTNER_APP_KEY ?? '');
const { readInventoryPage, calculateListingFees: fees } = partner;

const iso = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null);
const itemId = (platformId: string, appId: number, assetId: string) =>
  Buffer.from(JSON.stringify(['InventoryItem', platformId, appId, assetId]), 'utf8').toString('base64url');
// The service's cursor: its position and asset, under a short digest of the inventory's coordinates.
const cursorOf = (platformId: string, appId: number, index: number, assetId: string) => {
  const tag = createHash('sha256').update(`${appId}/${platformId}`).digest('base64url').slice(0, 11);
  return Buffer.from(`item:v2:${tag}:${index}:${assetId}`, 'utf8').toString('base64url');
};

function pick(source: Json | null | undefined, fields: readonly string[]): Json | null {
  if (!source) return null;
  const out: Json = {};
  for (const field of fields) out[field] = source[field] ?? null;
  return out;
}

function toItem(item: Json, fields: readonly string[], platformId: string, appId: number): Json {
  const out: Json = {};
  for (const field of fields) {
    switch (field) {
      case 'id':
        out.id = itemId(platformId, appId, item.assetId as string);
        break;
      case 'tradableTime':
      case 'systemTime':
        out[field] = iso(item[field]);
        break;
      case 'itemInfo':
        out.itemInfo = pick(item.itemInfo as Json, ITEM_INFO_FIELDS);
        break;
      case 'assetInfo':
        out.assetInfo = pick(item.assetInfo as Json, ASSET_INFO_FIELDS);
        break;
      default:
        out[field] = item[field] ?? null;
    }
  }
  return out;
}

function tokenOf(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  return header.startsWith('Bearer ') ? header.slice(7) : '';
}

async function inventory(req: IncomingMessage, params: URLSearchParams): Promise<Json> {
  const platformId = params.get('platformId') ?? '';
  const appId = Number(params.get('appId'));
  const first = Number(params.get('first') ?? 20);
  const full = params.get('view') === 'full';
  const feePrice = params.get('feePrice');
  const page = await readInventoryPage(platformId, appId, first, tokenOf(req));
  const list = ((page.list as Json[] | null) ?? []).slice(0, first);
  const nodes = list.map((item) => toItem(item, full ? ITEM_FIELDS : CARD_FIELDS, platformId, appId));
  if (feePrice !== null) {
    const price = Number(feePrice);
    const results = await fees(list.map((item) => ({ price, styleToken: item.styleToken, token: item.token })));
    nodes.forEach((node, index) => {
      if (results[index]!.assetId && results[index]!.assetId !== list[index]!.assetId) throw new UpstreamFailure('fee for another asset');
      node.listingFee = pick(results[index], FEE_FIELDS);
    });
  }
  const last = list[list.length - 1];
  return {
    data: {
      inventory: {
        totalCount: page.total ?? null,
        items: {
          pageInfo: {
            hasNextPage: ((page.list as Json[] | null) ?? []).length > first,
            endCursor: last ? cursorOf(platformId, appId, list.length - 1, last.assetId as string) : null,
          },
          nodes,
        },
      },
    },
  };
}

async function listingFees(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const { items } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { items: Json[] };
  if (!Array.isArray(items) || items.length === 0 || items.length > 100) throw new RangeError('1 to 100 items');
  const entries = items.map((item) => {
    if (!Number.isSafeInteger(item.price) || (item.price as number) <= 0) throw new RangeError('bad price');
    return { price: item.price, styleToken: item.styleToken, token: item.token };
  });
  const results = await fees(entries);
  return { data: { calculateListingFee: { fees: results.map((fee) => pick(fee, MUTATION_FEE_FIELDS)) } } };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer({ keepAlive: true }, (req, res) => {
  const url = new URL(req.url ?? '/', 'http://baseline');
  const answer =
    url.pathname === '/health'
      ? Promise.resolve({ status: 'ok' })
      : url.pathname === '/inventory' && req.method === 'GET'
        ? inventory(req, url.searchParams)
        : url.pathname === '/listing-fees' && req.method === 'POST'
          ? listingFees(req)
          : null;
  if (!answer) return send(res, 404, { error: 'not found' });
  answer.then(
    (body) => send(res, 200, body),
    (error: unknown) => send(res, error instanceof RangeError ? 400 : 502, { error: String(error) }),
  );
});

listenUntilStopped(server, port, 'baseline', partner);
