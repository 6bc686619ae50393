// GraphiQL's page over real HTTP (node:http, which neither decompresses nor caches): it carries an
// ETag and Cache-Control, goes out compressed to a client that accepts it, and a browser that asks
// again with the page's tag (as sent, weak when compressed) gets an empty 304, not the page again.
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../support/raw-http.js';
import { useTestkit } from '../support/testkit.js';

const kit = useTestkit();
// The response cache takes If-None-Match off the requests it may answer: not off the page's.
const cachingKit = useTestkit({ config: { responseCacheTtlMs: 60_000 } });

const get = (path: string, headers: Record<string, string>, base = kit().url) => rawRequest(`${base}${path}`, 'GET', headers);

const PAGE = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe("GraphiQL's page", () => {
  it('goes out compressed, with an ETag and Cache-Control: no-cache', async () => {
    const plain = await get('/graphql', { ...PAGE, 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.body.toString('utf8')).toMatch(/graphiql/i);
    expect(plain.headers['etag']).toMatch(/^"[\w-]+"$/);
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers['vary']).toMatch(/\baccept\b/i);

    const compressed = await get('/graphql', { ...PAGE, 'accept-encoding': 'br, gzip' });
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.body).equals(plain.body)).toBe(true);
    // The same page: the same tag, made weak for its compressed bytes.
    expect(compressed.headers['etag']).toBe(`W/${String(plain.headers['etag'])}`);
    expect(compressed.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    ['compressed', 'br, gzip'],
    ['plain', 'identity'],
  ])('answers 304 with no body to a client that has the %s page', async (_, acceptEncoding) => {
    const first = await get('/graphql', { ...PAGE, 'accept-encoding': acceptEncoding });
    const etag = String(first.headers['etag']);
    const again = await get('/graphql', { ...PAGE, 'accept-encoding': acceptEncoding, 'if-none-match': `"some-other-page", ${etag}` });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['etag']).toBe(etag);
    expect(again.headers['cache-control']).toBe('no-cache');
  });

  it('answers 304 with the response cache on too', async () => {
    const first = await get('/graphql', { ...PAGE, 'accept-encoding': 'br' }, cachingKit().url);
    const again = await get('/graphql', { ...PAGE, 'accept-encoding': 'br', 'if-none-match': String(first.headers['etag']) }, cachingKit().url);
    expect(again.status).toBe(304);
  });

  it('sends the whole page again for a tag that is not the page', async () => {
    const again = await get('/graphql', { ...PAGE, 'accept-encoding': 'identity', 'if-none-match': '"an-old-page"' });
    expect(again.status).toBe(200);
    expect(again.body.toString('utf8')).toMatch(/graphiql/i);
  });

  it("gives the API's own answers at the same path no ETag of the page", async () => {
    const page = await get('/graphql', { ...PAGE, 'accept-encoding': 'identity' });
    const answer = await get('/graphql?query=%7B__typename%7D', { accept: 'application/json', 'x-graphql-csrf': '1', 'if-none-match': String(page.headers['etag']) });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual(expect.objectContaining({ data: { __typename: 'Query' } }));
    expect(answer.headers['etag']).toBeUndefined();
  });
});
