// Compression over real HTTP, read as bytes on the wire (node:http, which does not decompress): an
// answer over 1 KiB goes out in br or gzip to a client that accepts it, decompresses to the same
// answer as the uncompressed one, and a 100-item page is at least 4 times smaller; small answers,
// clients that refuse both, and @defer's streams go out uncompressed, the stream's first part before
// its last.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { InventoryItemsFullDocument, InventoryWithDeferredFeesDocument } from '../generated/graphql.js';
import { payloadsOf, type IncrementalPayload } from '../support/incremental.js';
import { rawRequest, type RawAnswer } from '../support/raw-http.js';
import { useTestkit } from '../support/testkit.js';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { chosenEncoding } from '../../src/plugins/compression.js';

const kit = useTestkit();
const cachingKit = useTestkit({ config: { responseCacheTtlMs: 60_000 } });

const sendTo = (base: string, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> =>
  rawRequest(`${base}${path}`, method, headers, body);

/** One request over node:http to the plain kit's service; the body as sent, compressed or not. */
const send = (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string) => sendTo(kit().url, method, path, headers, body);

const pageOf = (first: number) =>
  JSON.stringify({ query: print(InventoryItemsFullDocument), variables: { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID, first } });

const postPage = (first: number, acceptEncoding: string) =>
  send('POST', '/graphql', {
    'content-type': 'application/json',
    accept: 'application/graphql-response+json',
    authorization: `Bearer ${DEMO_ACCESS_TOKEN}`,
    'accept-encoding': acceptEncoding,
  }, pageOf(first));

const decompress = { gzip: gunzipSync, br: brotliDecompressSync } as const;

describe('compressed answers', () => {
  it.each(['gzip', 'br'] as const)('a 100-item page in %s: the same answer, at least 4 times smaller', async (encoding) => {
    const plain = await postPage(100, 'identity');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // Sent as it is, it still depends on Accept-Encoding.
    expect(plain.headers['vary']).toMatch(/accept-encoding/i);
    const compressed = await postPage(100, encoding);
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe(encoding);
    expect(compressed.headers['vary']).toMatch(/accept-encoding/i);
    expect(Number(compressed.headers['content-length'])).toBe(compressed.body.length);
    expect(compressed.headers['x-request-id']).toBeTruthy();
    const answer = decompress[encoding](compressed.body);
    expect(answer.toString('utf8')).toBe(plain.body.toString('utf8'));
    expect((JSON.parse(answer.toString('utf8')) as { data: { inventory: { items: { nodes: unknown[] } } } }).data.inventory.items.nodes).toHaveLength(100);
    expect(compressed.body.length * 4).toBeLessThanOrEqual(plain.body.length);
  });

  it('sends the encoding the client weighs highest, br on a tie, never one at q=0', async () => {
    expect((await postPage(100, 'gzip, deflate, br, zstd')).headers['content-encoding']).toBe('br');
    expect((await postPage(100, 'br;q=0, gzip;q=0.5')).headers['content-encoding']).toBe('gzip');
    expect((await postPage(100, 'gzip;q=0, br;q=0, identity')).headers['content-encoding']).toBeUndefined();
    expect((await postPage(100, '*')).headers['content-encoding']).toBe('br');
    expect((await postPage(100, 'br;q=0.3, gzip;q=0.5')).headers['content-encoding']).toBe('gzip');
    expect(chosenEncoding('deflate')).toBeNull();
    expect(chosenEncoding('gzip;q=0, *')).toBe('br');
    expect(chosenEncoding('br;q=0, *;q=0.1')).toBe('gzip');
  });

  it('leaves an answer under 1 KiB as it is', async () => {
    const small = await send(
      'POST',
      '/graphql',
      { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}`, 'accept-encoding': 'gzip, br' },
      JSON.stringify({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { totalCount } }` }),
    );
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toHaveProperty('data.inventory.totalCount');
  });

  it("compresses GraphiQL's page", async () => {
    const plain = await send('GET', '/graphql', { accept: 'text/html', 'accept-encoding': 'identity' });
    const compressed = await send('GET', '/graphql', { accept: 'text/html', 'accept-encoding': 'gzip' });
    expect(plain.status).toBe(200);
    expect(plain.body.toString('utf8')).toMatch(/graphiql/i);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(compressed.body).equals(plain.body)).toBe(true);
    expect(compressed.body.length * 2).toBeLessThanOrEqual(plain.body.length);
  });

  it('streams @defer uncompressed, its first part before its last, to a client that accepts compression', async () => {
    const release = kit().simulator.holdListingFees();
    try {
      const response = await kit().post(
        { query: print(InventoryWithDeferredFeesDocument), variables: { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID, first: 100, price: 10_000 } },
        { headers: { accept: 'multipart/mixed', 'accept-encoding': 'gzip, br' } },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBeNull();
      const payloads = payloadsOf(response);
      const first = (await payloads.next()).value as IncrementalPayload;
      expect(first.hasNext).toBe(true);
      // The fee call is held upstream, unanswered, while the first part has arrived.
      await expect.poll(() => kit().simulator.callsOf('calculateListingFee').length).toBeGreaterThanOrEqual(1);
      release();
      const rest: IncrementalPayload[] = [];
      for await (const payload of payloads) rest.push(payload);
      expect(rest.at(-1)!.hasNext).toBe(false);
    } finally {
      release();
    }
  });

});

describe('compressed answers from the response cache', () => {
  it("weakens a cached read's ETag when it compresses it, and If-None-Match with it still gets 304", async () => {
    const query = new URLSearchParams({
      query: print(InventoryItemsFullDocument),
      variables: JSON.stringify({ platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID, first: 100 }),
    });
    const headers = { accept: 'application/graphql-response+json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}`, 'x-graphql-csrf': '1', 'accept-encoding': 'gzip' };
    await sendTo(cachingKit().url, 'GET', `/graphql?${query}`, headers);
    const cached = await sendTo(cachingKit().url, 'GET', `/graphql?${query}`, headers);
    expect(cached.status).toBe(200);
    expect(cached.headers['content-encoding']).toBe('gzip');
    const etag = cached.headers['etag'] as string;
    expect(etag).toMatch(/^W\//);
    const revalidated = await sendTo(cachingKit().url, 'GET', `/graphql?${query}`, { ...headers, 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    // The 304 carries the ETag and Vary its 200 would (RFC 9110 15.4.5): the weak tag of the
    // compressed answer, and Accept-Encoding beside Authorization.
    expect(revalidated.headers['etag']).toBe(etag);
    expect(revalidated.headers['vary']).toBe(cached.headers['vary']);
    expect(String(revalidated.headers['vary']).toLowerCase().split(/\s*,\s*/).sort()).toEqual(['accept-encoding', 'authorization']);
    expect(revalidated.body.length).toBe(0);
  });

  it('compresses a cached answer once per encoding: each hit is the kept encoding of its data and its own extensions', async () => {
    const query = new URLSearchParams({
      query: print(InventoryItemsFullDocument),
      variables: JSON.stringify({ platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID, first: 60 }),
    });
    const headers = { accept: 'application/graphql-response+json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}`, 'x-graphql-csrf': '1' };
    const compressions = async () => {
      const text = await (await fetch(`${cachingKit().url}/metrics`)).text();
      return Object.fromEntries(
        (['br', 'gzip'] as const).map((encoding) => [encoding, Number(new RegExp(`^tradegraph_http_compressions_total\\{encoding="${encoding}"\\} (\\d+)$`, 'm').exec(text)![1])]),
      );
    };
    const plain = await sendTo(cachingKit().url, 'GET', `/graphql?${query}`, { ...headers, 'accept-encoding': 'identity' });
    const data = (JSON.parse(plain.body.toString('utf8')) as { data: unknown }).data;
    const before = await compressions();
    for (const encoding of ['br', 'gzip', 'br', 'gzip', 'br'] as const) {
      const hit = await sendTo(cachingKit().url, 'GET', `/graphql?${query}`, { ...headers, 'accept-encoding': encoding });
      expect(hit.headers['content-encoding']).toBe(encoding);
      const answer = JSON.parse(decompress[encoding](hit.body).toString('utf8')) as { data: unknown; extensions: { cost: unknown } };
      expect(answer.data).toEqual(data);
      expect(answer.extensions.cost).toEqual({ requestedQueryCost: 1, actualQueryCost: 0 });
    }
    const after = await compressions();
    expect({ br: after.br! - before.br!, gzip: after.gzip! - before.gzip! }).toEqual({ br: 1, gzip: 1 });
  });
});
