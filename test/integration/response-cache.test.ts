// The in-process response cache (RESPONSE_CACHE_TTL_MS > 0, no Redis): repeated reads of one
// credential cost one partner call; other credentials, mutations and answers with errors are never
// served from it; GET reads carry ETag and Cache-Control and revalidate to 304; and it works with
// compiled execution, which runs the document the cache rewrites.
import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCESS_TOKEN, itemAt, platformIdWithSize } from '../../src/simulator/data.js';
import { CalculateListingFeeDocument, InventoryPageDocument, InventoryTotalDocument } from '../generated/graphql.js';
import { errorCodes, expectNoGraphQLErrors, useTestkit, type Testkit } from '../support/testkit.js';

const APP_ID = 730;
const TTL_MS = 60_000;
const OTHER_TOKEN = 'other-credential-token';

const page = (size: number) => ({ platformId: platformIdWithSize(size), appId: APP_ID, first: 3 });

describe('response cache, in-process', () => {
  const kit = useTestkit({ config: { responseCacheTtlMs: TTL_MS } });
  const inventoryCalls = () => kit().simulator.callsOf('readInventory').length;

  it('answers a repeated read of the same credential from the cache, without a partner call', async () => {
    const first = await kit().execute(InventoryPageDocument, page(11), {});
    const again = await kit().execute(InventoryPageDocument, page(11), {});
    expectNoGraphQLErrors(first);
    expectNoGraphQLErrors(again);
    expect(again.data).toEqual(first.data);
    expect(first.extensions).toMatchObject({ responseCache: { hit: false, didCache: true, ttl: TTL_MS } });
    expect(again.extensions).toMatchObject({ responseCache: { hit: true } });
    // The cache's own selections (__typename and id under aliases) never reach the client.
    expect(JSON.stringify(again.data)).not.toContain('__responseCache');
    expect(inventoryCalls()).toBe(1);
    // One lookup each: the miss that ran, the hit; and the budget the store is weighed against.
    const metrics = await (await fetch(`${kit().url}/metrics`)).text();
    expect(metrics).toMatch(/^tradegraph_response_cache_lookups_total\{result="miss"\} 1$/m);
    expect(metrics).toMatch(/^tradegraph_response_cache_lookups_total\{result="hit"\} 1$/m);
    expect(metrics).toMatch(new RegExp(`^tradegraph_response_cache_max_bytes ${kit().config.responseCacheMaxBytes}$`, 'm'));
    // The log tells a cached answer apart, as the query it is.
    const logged = kit()
      .logs.map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'graphql operation')
      .slice(-2);
    expect(logged.map(({ operationType, responseCache }) => ({ operationType, responseCache }))).toEqual([
      { operationType: 'query', responseCache: undefined },
      { operationType: 'query', responseCache: 'hit' },
    ]);
  });

  it('serves a cached answer only to the credential that read it', async () => {
    const mine = await kit().execute(InventoryPageDocument, page(12), {});
    const other = await kit().execute(InventoryPageDocument, page(12), { token: OTHER_TOKEN });
    expectNoGraphQLErrors(mine);
    expectNoGraphQLErrors(other);
    expect(other.extensions).toMatchObject({ responseCache: { hit: false } });
    expect(inventoryCalls()).toBe(2);
    // A token the partner refuses gets its refusal, not the page another credential has cached.
    const refused = await kit().execute(InventoryPageDocument, page(12), { token: 'forbidden-token-1' });
    expect(new Set(errorCodes(refused))).toEqual(new Set(['FORBIDDEN']));
    expect(refused.data?.inventory ?? null).toBeNull();
    // Without a credential nothing is cached or served from the cache.
    const anonymous = await kit().execute(InventoryPageDocument, page(12), { token: null });
    expect(anonymous.extensions?.responseCache).toBeUndefined();
    expect(anonymous.data?.inventory ?? null).toBeNull();
  });

  it('never caches an answer with errors', async () => {
    kit().simulator.injectFault({ kind: 'envelope-error', operation: 'readInventory', times: 1 });
    const failed = await kit().execute(InventoryTotalDocument, page(13), {});
    expect(errorCodes(failed)).toEqual(['UPSTREAM_ERROR']);
    const retried = await kit().execute(InventoryTotalDocument, page(13), {});
    expectNoGraphQLErrors(retried);
    expect(retried.extensions).toMatchObject({ responseCache: { hit: false } });
    expect(inventoryCalls()).toBe(2);
  });

  it('never caches a mutation', async () => {
    const item = itemAt(platformIdWithSize(3), APP_ID, 0);
    const input = { items: [{ price: 1500, token: item.token, styleToken: item.styleToken }] };
    for (let round = 0; round < 2; round++) {
      const result = await kit().execute(CalculateListingFeeDocument, { input }, {});
      expectNoGraphQLErrors(result);
      expect((result.extensions?.responseCache as { hit?: boolean } | undefined)?.hit).toBeUndefined();
    }
    expect(kit().simulator.callsOf('calculateListingFee')).toHaveLength(2);
  });

  it('gives GET reads an ETag and Cache-Control, and answers If-None-Match with 304', async () => {
    const first = await getRead(kit(), page(14));
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^[0-9a-f]{64}$/);
    // The seconds left of the TTL: Last-Modified has whole seconds, and a loaded machine may take
    // a few of them between storing the answer and writing its headers.
    const maxAge = /^private, max-age=(\d+)$/.exec(first.headers.get('cache-control') ?? '');
    expect(Number(maxAge?.[1])).toBeGreaterThanOrEqual(50);
    expect(Number(maxAge?.[1])).toBeLessThanOrEqual(60);
    expect(first.headers.get('vary')).toMatch(/Authorization/);

    const revalidated = await getRead(kit(), page(14), { 'if-none-match': etag! });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect(revalidated.headers.get('etag')).toBe(etag);
    expect(revalidated.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);

    // An ETag the cache does not hold is answered in full.
    const unknown = await getRead(kit(), page(14), { 'if-none-match': '0'.repeat(64) });
    expect(unknown.status).toBe(200);
    expect(((await unknown.json()) as { data: unknown }).data).toEqual(((await first.json()) as { data: unknown }).data);
    expect(inventoryCalls()).toBe(1);
  });

  it('gives each hit the Last-Modified of its own answer, for answers stored in different seconds', async () => {
    await getRead(kit(), page(21));
    const storedSecond = Math.floor(Date.now() / 1000);
    // The next answer is stored in a later second than the first.
    await expect.poll(() => Math.floor(Date.now() / 1000), { timeout: 5_000, interval: 50 }).toBeGreaterThan(storedSecond);
    await getRead(kit(), page(22));
    const lastModified = async (size: number) => (await getRead(kit(), page(size))).headers.get('last-modified');
    const first = await lastModified(21);
    const second = await lastModified(22);
    expect(first).toMatch(/GMT$/);
    expect(second).toMatch(/GMT$/);
    expect(Date.parse(second!)).toBeGreaterThan(Date.parse(first!));
    // Hits alternate between the two answers: each keeps its own date.
    expect(await lastModified(21)).toBe(first);
    expect(await lastModified(22)).toBe(second);
    expect(inventoryCalls()).toBe(2);
  });

  it("answers If-None-Match with 304 only for the credential and the answer the ETag was given for", async () => {
    const first = await getRead(kit(), page(19));
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^[0-9a-f]{64}$/);
    expect((await getRead(kit(), page(19), { 'if-none-match': etag })).status).toBe(304);
    await expectSameAnswerWithAndWithoutEtag(kit(), etag, [
      // Another credential, one the partner refuses, none, and A's own credential on another read.
      { variables: page(19), token: OTHER_TOKEN },
      { variables: page(19), token: 'forbidden-token-1' },
      { variables: page(19), token: null },
      { variables: page(20), token: DEMO_ACCESS_TOKEN },
    ]);
    // A POST never gets a 304, whoever sends it.
    const posted = await kit().post({ query: print(InventoryTotalDocument), variables: page(19) }, { token: OTHER_TOKEN, headers: { 'if-none-match': etag } });
    expect(posted.status).toBe(200);
    expect(((await posted.json()) as { data: unknown }).data).toMatchObject({ inventory: { totalCount: 19 } });
  });

  it('gives POST reads no Cache-Control', async () => {
    const response = await kit().post({ query: print(InventoryTotalDocument), variables: page(15) });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBeNull();
  });

  it('refuses variables nested 200,000 deep with HTTP 400 before its key serialises them, and logs no error', async () => {
    // Written as text: JSON.stringify itself would overflow the stack on such a value.
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const response = await fetch(kit().graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
      body: `{"query":"{ __typename }","variables":{"unused":${deep}}}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: 'OPERATION_LIMIT_EXCEEDED', limit: 'variablesDepth' } }] });
    const errorLines = kit().logs.map((line) => JSON.parse(line) as { level: number }).filter((line) => line.level >= 50);
    expect(errorLines).toEqual([]);
  });
});

describe('response cache, in-process, in production (no cache metadata in answers)', () => {
  const kit = useTestkit({ config: { responseCacheTtlMs: TTL_MS, production: true } });
  const read = async (size: number) => {
    const response = await kit().post({ query: print(InventoryPageDocument), variables: page(size) });
    expect(response.status).toBe(200);
    return response.text();
  };

  it('answers a hit with the same bytes as the read that filled the cache, for each cached answer', async () => {
    const first = await read(17);
    const other = await read(18);
    const [firstAgain, otherAgain, firstThird] = [await read(17), await read(18), await read(17)];
    expect(kit().simulator.callsOf('readInventory')).toHaveLength(2);
    // The same bytes up to the extensions, which hold each answer's own cost (extensions.cost).
    const dataOf = (text: string) => text.slice(0, text.indexOf(',"extensions":'));
    expect(dataOf(firstAgain)).toBe(dataOf(first));
    expect(dataOf(firstThird)).toBe(dataOf(first));
    expect(dataOf(otherAgain)).toBe(dataOf(other));
    expect(dataOf(other)).not.toBe(dataOf(first));
    const parsed = JSON.parse(first) as { data?: { inventory?: { items?: { edges?: unknown[] } } }; extensions?: object };
    expect(Object.keys(parsed)).toEqual(['data', 'extensions']);
    expect(Object.keys(parsed.extensions!)).toEqual(['cost']);
    expect(JSON.parse(firstAgain)).toMatchObject({ data: parsed.data, extensions: { cost: { requestedQueryCost: 1, actualQueryCost: 0 } } });
    expect(parsed.data?.inventory?.items?.edges).toHaveLength(3);
  });
});

describe('response cache off (the default)', () => {
  const kit = useTestkit();

  it('sends every read upstream and adds no cache headers', async () => {
    await kit().execute(InventoryTotalDocument, page(16), {});
    const again = await getRead(kit(), page(16));
    expect(again.headers.get('etag')).toBeNull();
    expect(((await again.json()) as { extensions?: { responseCache?: unknown } }).extensions?.responseCache).toBeUndefined();
    expect(kit().simulator.callsOf('readInventory')).toHaveLength(2);
  });
});

describe('response cache with compiled execution', () => {
  const kit = useTestkit({ config: { responseCacheTtlMs: TTL_MS } });

  it("runs the document the service's cache rewrites compiled, and serves the hit", async () => {
    // Neither __typename nor id is selected: only the cache's rewrite selects them, and compiled
    // execution (listed before the cache) runs the rewritten document.
    const query = `query ($platformId: String!, $appId: Int!) { inventory(platformId: $platformId, appId: $appId) { totalCount } }`;
    const send = async () => {
      const response = await kit().post({ query, variables: { platformId: platformIdWithSize(17), appId: APP_ID } });
      return (await response.json()) as { data: unknown; extensions: { responseCache: { hit: boolean } } };
    };
    const first = await send();
    const again = await send();
    expect(first.data).toEqual({ inventory: { totalCount: 17 } });
    expect(first.extensions).toMatchObject({ responseCache: { hit: false, didCache: true } });
    expect(again).toMatchObject({ data: first.data, extensions: { responseCache: { hit: true } } });
    expect(kit().simulator.callsOf('readInventory')).toHaveLength(1);
    expect(kit().logs.filter((line) => line.includes('operation runs uncompiled'))).toEqual([]);
  });
});

/** A read sent as a GET, as a browser or CDN-minded client sends it. */
/**
 * Sends each read twice, with A's ETag and without, and expects the same status, data and error
 * codes from both: never a 304.
 */
export async function expectSameAnswerWithAndWithoutEtag(
  kit: Testkit,
  etag: string,
  reads: { variables: Record<string, unknown>; token: string | null }[],
): Promise<void> {
  for (const { variables, token } of reads) {
    const authorization: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
    const withEtag = await getRead(kit, variables, { ...authorization, 'if-none-match': etag }, token === null);
    const without = await getRead(kit, variables, authorization, token === null);
    expect({ token, status: withEtag.status }).toEqual({ token, status: without.status });
    type Answer = { data?: unknown; errors?: { extensions?: { code?: string } }[] };
    const [a, b] = (await Promise.all([withEtag.json(), without.json()])) as [Answer, Answer];
    expect(a.data).toEqual(b.data);
    expect(a.errors?.map((error) => error.extensions?.code)).toEqual(b.errors?.map((error) => error.extensions?.code));
  }
}

function getRead(kit: Testkit, variables: Record<string, unknown>, headers: Record<string, string> = {}, anonymous = false) {
  const url = new URL(kit.graphqlUrl);
  url.searchParams.set('query', print(InventoryTotalDocument));
  url.searchParams.set('variables', JSON.stringify(variables));
  return fetch(url, {
    headers: {
      accept: 'application/graphql-response+json',
      ...(anonymous ? {} : { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` }),
      'x-graphql-csrf': '1',
      ...headers,
    },
  });
}
