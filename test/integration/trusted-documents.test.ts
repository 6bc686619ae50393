// Trusted documents over real HTTP: each request form (POST documentId, GET documentId, Apollo's
// persistedQuery hash), unknown ids, PERSISTED_QUERY_ONLY in production, limits on manifest
// documents, and a bad manifest stopping the service at start.
import { readFileSync, writeFileSync } from 'node:fs';
import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { InventoryPageDocument, InventoryTotalDocument } from '../generated/trusted/graphql.js';
import { startServiceProcess } from '../support/service-process.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, useTestkit, type GraphQLResponse, type Testkit } from '../support/testkit.js';
import { documentIdOf, manifest, MANIFEST_PATH, manifestOf, sha256, writeManifestFile } from '../support/trusted-documents.js';
import { CSRF_HEADER } from '../../src/plugins/csrf-prevention.js';
import { createLogger } from '../../src/logger.js';
import { createTradegraph } from '../../src/server.js';
import { loadConfig, readTrustedDocuments, TRUSTED_DOCUMENTS_MAX_BYTES } from '../../src/config.js';
import { OPERATION_LIMITS } from '../../src/tunables.js';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';

const variables = { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID };
const TOTAL_ID = documentIdOf(InventoryTotalDocument);
const UNKNOWN_ID = sha256('query Unknown { __typename }');

const productionOnly = useTestkit({ config: { production: true, trustedDocuments: manifest(), trustedDocumentsOnly: true } });
const productionBoth = useTestkit({ config: { production: true, trustedDocuments: manifest(), trustedDocumentsOnly: false } });
const development = useTestkit({ config: { production: false, trustedDocuments: manifest(), trustedDocumentsOnly: false } });

async function postJson(kit: Testkit, body: unknown): Promise<{ status: number; result: GraphQLResponse<Record<string, unknown>> }> {
  const response = await kit.post(body);
  return { status: response.status, result: (await response.json()) as GraphQLResponse<Record<string, unknown>> };
}

function getUrl(kit: Testkit, params: Record<string, string>): string {
  return `${kit.graphqlUrl}?${new URLSearchParams(params).toString()}`;
}

const totalOf = (result: GraphQLResponse<Record<string, unknown>>) =>
  (result.data as { inventory: { totalCount: number } }).inventory.totalCount;

describe('trusted documents: request forms', () => {
  it('runs POST {documentId, variables} and answers as the query text would', async () => {
    const kit = productionOnly();
    const { status, result } = await postJson(kit, { documentId: TOTAL_ID, variables });
    expect(status).toBe(200);
    expectNoGraphQLErrors(result);
    // The same document sent as text, where text may run, gives the same answer.
    const raw = await postJson(development(), { query: print(InventoryTotalDocument), variables });
    expect(result).toEqual(raw.result);
    expect(totalOf(result)).toBeGreaterThan(0);
    expect(kit.simulator.callsOf('readInventory')).toHaveLength(1);
  });

  it("takes a document's id bare or with the client preset's 'sha256:' prefix, from a manifest written either way", async () => {
    const bare = TOTAL_ID.replace(/^sha256:/, '');
    // The repo's manifest is written by client preset 6, whose keys and __meta__.hash are prefixed.
    expect(TOTAL_ID).toBe(`sha256:${bare}`);
    expect(Object.keys(JSON.parse(readFileSync(MANIFEST_PATH, 'utf8')) as object)).toContain(TOTAL_ID);
    const text = manifest()[bare]!;
    const fromBareManifest = await startTestkit({
      config: { production: true, trustedDocuments: readTrustedDocuments(writeManifestFile(JSON.stringify({ [bare]: text }))), trustedDocumentsOnly: true },
    });
    try {
      for (const kit of [productionOnly(), fromBareManifest]) {
        for (const documentId of [TOTAL_ID, bare]) {
          const { status, result } = await postJson(kit, { documentId, variables });
          expect(status).toBe(200);
          expectNoGraphQLErrors(result);
          expect(totalOf(result)).toBeGreaterThan(0);
        }
        // Another algorithm's prefix, or the hex in capitals, names no document.
        for (const documentId of [`sha1:${bare}`, `sha256:${bare.toUpperCase()}`, `sha256:sha256:${bare}`]) {
          const { result } = await postJson(kit, { documentId, variables });
          expect(errorCodes(result)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
        }
      }
    } finally {
      await fromBareManifest.close();
    }
  });

  it('runs GET ?documentId=&variables= (cacheable), and the CSRF check still applies to it', async () => {
    const kit = productionOnly();
    const url = getUrl(kit, { documentId: TOTAL_ID, variables: JSON.stringify(variables) });
    const headers = { authorization: `Bearer ${DEMO_ACCESS_TOKEN}`, accept: 'application/graphql-response+json' };

    const refused = await fetch(url, { headers });
    expect(refused.status).toBe(403);
    expect(errorCodes((await refused.json()) as GraphQLResponse<unknown>)).toEqual(['CSRF_HEADER_REQUIRED']);
    expect(kit.simulator.calls).toHaveLength(0);

    const response = await fetch(url, { headers: { ...headers, [CSRF_HEADER]: '1' } });
    expect(response.status).toBe(200);
    const result = (await response.json()) as GraphQLResponse<Record<string, unknown>>;
    expectNoGraphQLErrors(result);
    expect(totalOf(result)).toBeGreaterThan(0);
  });

  it("runs Apollo's extensions.persistedQuery.sha256Hash, by POST and by GET", async () => {
    const kit = productionOnly();
    const extensions = { persistedQuery: { version: 1, sha256Hash: documentIdOf(InventoryPageDocument) } };
    const pageVariables = { ...variables, first: 3 };
    const { result } = await postJson(kit, { variables: pageVariables, extensions });
    expectNoGraphQLErrors(result);
    const items = (result.data as { inventory: { items: { edges: unknown[] } } }).inventory.items;
    expect(items.edges).toHaveLength(3);

    const response = await fetch(
      getUrl(kit, { variables: JSON.stringify(pageVariables), extensions: JSON.stringify(extensions) }),
      { headers: { authorization: `Bearer ${DEMO_ACCESS_TOKEN}`, [CSRF_HEADER]: '1' } },
    );
    const viaGet = (await response.json()) as GraphQLResponse<Record<string, unknown>>;
    expect(viaGet).toEqual(result);
  });

  it('answers an unknown id, in each form, with PERSISTED_QUERY_NOT_FOUND and calls nothing upstream', async () => {
    for (const kit of [productionOnly(), development()]) {
      const byBody = await postJson(kit, { documentId: UNKNOWN_ID, variables });
      expect(errorCodes(byBody.result)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
      expect(byBody.result.errors![0]!.message).toContain(UNKNOWN_ID);
      const byExtension = await postJson(kit, { extensions: { persistedQuery: { version: 1, sha256Hash: UNKNOWN_ID } } });
      expect(errorCodes(byExtension.result)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
      const byGet = await fetch(getUrl(kit, { documentId: UNKNOWN_ID }), { headers: { [CSRF_HEADER]: '1' } });
      expect(errorCodes((await byGet.json()) as GraphQLResponse<unknown>)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
      expect(kit.simulator.calls).toHaveLength(0);
    }
  });
});

describe('trusted documents: which documents may run', () => {
  const rawQuery = { query: print(InventoryTotalDocument), variables };

  it('refuses a query text in production with PERSISTED_QUERY_ONLY before anything runs', async () => {
    const kit = productionOnly();
    const { result } = await postJson(kit, rawQuery);
    expect(result.data ?? null).toBeNull();
    expect(errorCodes(result)).toEqual(['PERSISTED_QUERY_ONLY']);
    // Apollo's registration retry (text and hash together) is refused as well.
    const retry = await postJson(kit, { ...rawQuery, extensions: { persistedQuery: { version: 1, sha256Hash: TOTAL_ID } } });
    expect(errorCodes(retry.result)).toEqual(['PERSISTED_QUERY_ONLY']);
    expect(kit.simulator.calls).toHaveLength(0);
  });

  it('runs query text too in production with TRUSTED_DOCUMENTS_ONLY=false, and in development', async () => {
    for (const kit of [productionBoth(), development()]) {
      expectNoGraphQLErrors((await postJson(kit, rawQuery)).result);
      expectNoGraphQLErrors((await postJson(kit, { documentId: TOTAL_ID, variables })).result);
    }
  });

  it('still prices a trusted document per request: a manifest can hold one over the cost limit', async () => {
    // Five inventories of 100 items with a fee each: over the 1000 units of the cost limit.
    const text = `query FivePagesWithFees($p: String!, $a: Int!) { ${[1, 2, 3, 4, 5]
      .map((n) => `i${n}: inventory(platformId: $p, appId: $a) { items(first: 100) { nodes { id listingFee(price: 100) { fee } } } }`)
      .join(' ')} }`;
    const kit = await startTestkit({ config: { production: true, trustedDocuments: manifestOf(text), trustedDocumentsOnly: true } });
    try {
      const { status, result } = await postJson(kit, { documentId: sha256(text), variables: { p: DEMO_PLATFORM_ID, a: DEMO_APP_ID } });
      expect(status).toBe(400);
      expect(errorCodes(result)).toEqual(['OPERATION_LIMIT_EXCEEDED']);
      expect(result.errors![0]!.extensions).toMatchObject({ limit: 'cost' });
      expect(kit.simulator.calls).toHaveLength(0);
    } finally {
      await kit.close();
    }
  });

  it.each([
    ['is not valid against the schema', 'query Bad { inventory(platformId: "x", appId: 1) { nope } }', /is not valid: Cannot query field "nope"/],
    ['is over the depth limit', `query Deep { __type(name: "Inventory") { fields { type { ${'ofType { '.repeat(OPERATION_LIMITS.depth)}name${' }'.repeat(OPERATION_LIMITS.depth)} } } } }`, /depth/i],
    ['uses too many aliases', `query Aliases { ${Array.from({ length: OPERATION_LIMITS.aliases + 1 }, (_, n) => `a${n}: inventory(platformId: "x", appId: 1) { id }`).join(' ')} }`, /aliases/i],
    ['has too many tokens', `query Tokens { ${Array.from({ length: OPERATION_LIMITS.tokens }, () => '__typename').join(' ')} }`, /does not parse: .*token limit/i],
  ])('refuses to start with a manifest document that %s', async (_case, text, message) => {
    const start = (texts: string[]) =>
      createTradegraph({
        config: {
          ...loadConfig({ NODE_ENV: 'development' }),
          trustedDocuments: manifestOf(...texts),
          partnerApiUrl: 'http://127.0.0.1:9',
          partnerOpenApiUrl: 'http://127.0.0.1:9',
        },
        logger: createLogger('silent'),
      });
    // The same manifest without that document starts.
    await start([print(InventoryTotalDocument)]).close();
    expect(() => start([print(InventoryTotalDocument), text])).toThrow(
      new RegExp(`TRUSTED_DOCUMENTS: document '${sha256(text)}' .*${message.source}`, message.flags),
    );
  });
});

describe('trusted documents: a bad manifest at start', () => {
  it.each([
    ['unreadable', null, /TRUSTED_DOCUMENTS: cannot read/],
    ['not JSON', '{"abc": ', /TRUSTED_DOCUMENTS: '.*' is not JSON/],
    ['a key that is not the sha256 of its document', JSON.stringify({ [sha256('x')]: '{ __typename }' }), /is not the sha256 of its document/],
    ['a document that is not valid', JSON.stringify(manifestOf('{ nope }')), /TRUSTED_DOCUMENTS: document '[0-9a-f]{64}' is not valid/],
    ['a key of another form', JSON.stringify({ [`sha1:${sha256('{ __typename }')}`]: '{ __typename }' }), /is not a lowercase hex sha256/],
    ['a device that never ends', '/dev/zero', /TRUSTED_DOCUMENTS: '\/dev\/zero' is not a regular file/],
    ['a file over the size cap', 'oversize', /TRUSTED_DOCUMENTS: '.*' is \d+ bytes, over the \d+-byte limit/],
  ])('stops the service with exit code 1 and a message naming TRUSTED_DOCUMENTS (%s)', async (_case, text, message) => {
    const path =
      text === null ? '/nonexistent/persisted-documents.json'
      : text === '/dev/zero' ? text
      : text === 'oversize' ? oversizeManifest()
      : writeManifestFile(text);
    const started = startServiceProcess({ NODE_ENV: 'production', PARTNER_SIMULATOR: 'embedded', TRUSTED_DOCUMENTS: path });
    await expect(started).rejects.toThrow(/exited with 1 before serving/);
    await expect(started).rejects.toThrow(message);
  });
});

/** A manifest file one byte over the cap (a valid JSON object padded with white space). */
function oversizeManifest(): string {
  const path = writeManifestFile('');
  writeFileSync(path, `{}${' '.repeat(TRUSTED_DOCUMENTS_MAX_BYTES - 1)}`);
  return path;
}
