// Client awareness over real HTTP: the client's name and version (Hive's or Apollo's headers) in
// each operation's log line and in /metrics, bounded (a name cap, a safe alphabet, a length cap,
// never a credential); and deprecated fields counted by client, still served, on a schema with one.
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { expectNoGraphQLErrors, useTestkit, type GraphQLResponse, type Testkit } from '../support/testkit.js';
import { deprecatedCoordinatesOf } from '../../src/plugins/deprecated-usage.js';
import { buildSchema, readSchemaFiles, typeDefsOf } from '../../src/schema.js';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_APP_KEY, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';

const TOTAL = `query Total { inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { totalCount } }`;

const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

async function metricsOf(kit: Testkit): Promise<string> {
  return (await fetch(`${kit.url}/metrics`)).text();
}

/** The operation log lines of the kit, parsed, from the index given on. */
function operationLines(kit: Testkit, from = 0): Array<Record<string, unknown>> {
  return kit.logs
    .slice(from)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'graphql operation');
}

async function run(kit: Testkit, headers: Record<string, string>, query = TOTAL, token: string | null = DEMO_ACCESS_TOKEN) {
  const from = kit.logs.length;
  const response = await kit.post({ query }, { headers, token });
  const result = (await response.json()) as GraphQLResponse<Record<string, unknown>>;
  // The line is written as the response ends; wait for it rather than for a time.
  await expect.poll(() => operationLines(kit, from).length).toBe(1);
  return { result, line: operationLines(kit, from)[0]! };
}

describe('client awareness', () => {
  const testkit = useTestkit({ config: { clientNamesMax: 3 } });

  it("reads Hive's headers into the log line and the client operations counter", async () => {
    const kit = testkit();
    const { result, line } = await run(kit, { 'graphql-client-name': 'web-shop', 'graphql-client-version': '4.12.0' });
    expectNoGraphQLErrors(result);
    expect(line).toMatchObject({ operationName: 'Total', clientName: 'web-shop', clientVersion: '4.12.0', outcome: 'ok' });
    expect(sample(await metricsOf(kit), 'tradegraph_client_operations_total{client_name="web-shop",client_version="4.12.0",outcome="ok"}')).toBe(1);
  });

  it("reads Apollo's headers, and takes Hive's when a request has both", async () => {
    const kit = testkit();
    const apollo = await run(kit, { 'apollographql-client-name': 'ios-app', 'apollographql-client-version': '2.0.1' });
    expect(apollo.line).toMatchObject({ clientName: 'ios-app', clientVersion: '2.0.1' });
    const both = await run(kit, {
      'graphql-client-name': 'web-shop',
      'graphql-client-version': '4.13.0',
      'apollographql-client-name': 'ios-app',
      'apollographql-client-version': '2.0.1',
    });
    expect(both.line).toMatchObject({ clientName: 'web-shop', clientVersion: '4.13.0' });
    const text = await metricsOf(kit);
    expect(sample(text, 'tradegraph_client_operations_total{client_name="ios-app",client_version="2.0.1",outcome="ok"}')).toBe(1);
    expect(sample(text, 'tradegraph_client_operations_total{client_name="web-shop",client_version="4.13.0",outcome="ok"}')).toBe(1);
  });

  it('names a request without the headers unknown', async () => {
    const kit = testkit();
    const { line } = await run(kit, {});
    expect(line).toMatchObject({ clientName: 'unknown', clientVersion: 'unknown' });
  });

  it('caps the length of a value and replaces characters outside its alphabet', async () => {
    const kit = testkit();
    const { line } = await run(kit, { 'graphql-client-name': `  web "shop"<x>${'y'.repeat(100)}`, 'graphql-client-version': '1.0 beta\t{1}' });
    expect(line.clientName).toBe(`web__shop__x_${'y'.repeat(51)}`);
    expect(line.clientVersion).toBe('1.0_beta__1_');
    expect(String(line.clientName)).toHaveLength(64);
  });

  it('counts names past CLIENT_NAMES_MAX as other, and still tells the first ones apart', async () => {
    const kit = testkit();
    // web-shop, ios-app and the long name came first (the tests above; unknown takes no place): the cap is 3.
    const fourth = await run(kit, { 'graphql-client-name': 'scraper-1', 'graphql-client-version': '9' });
    expect(fourth.line).toMatchObject({ clientName: 'other', clientVersion: 'other' });
    const fifth = await run(kit, { 'graphql-client-name': 'scraper-2' });
    expect(fifth.line.clientName).toBe('other');
    expect((await run(kit, { 'graphql-client-name': 'web-shop', 'graphql-client-version': '4.12.0' })).line.clientName).toBe('web-shop');
    const text = await metricsOf(kit);
    expect(sample(text, 'tradegraph_client_operations_total{client_name="other",client_version="other",outcome="ok"}')).toBe(2);
    expect(text).not.toContain('scraper');
  });
});

describe('client values that could be credentials', () => {
  const SECRET_TOKEN = 'tok-CLIENT-HEADER-secret-5f1e';
  const testkit = useTestkit();

  it.each([
    ['the bearer token itself', { 'graphql-client-name': SECRET_TOKEN, 'graphql-client-version': '1' }],
    ['a part of the bearer token', { 'graphql-client-name': 'web-shop', 'graphql-client-version': SECRET_TOKEN.slice(4, 20) }],
    ['a value holding the bearer token', { 'apollographql-client-name': `app-${SECRET_TOKEN}`, 'apollographql-client-version': '1' }],
    ['the merchant app-key', { 'graphql-client-name': 'web-shop', 'graphql-client-version': DEMO_APP_KEY }],
    ['an authorization header', { 'graphql-client-name': 'Bearer abc.def', 'graphql-client-version': '1' }],
    ['a JWT', { 'graphql-client-name': 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', 'graphql-client-version': '1' }],
  ])('writes %s nowhere: name and version become redacted', async (_case, headers) => {
    const kit = testkit();
    const { line } = await run(kit, headers, TOTAL, SECRET_TOKEN);
    expect(line).toMatchObject({ clientName: 'redacted', clientVersion: 'redacted' });
    const text = await metricsOf(kit);
    expect(text).toContain('tradegraph_client_operations_total{client_name="redacted",client_version="redacted"');
    for (const value of Object.values(headers).filter((each) => each.length >= 8)) expect(text).not.toContain(value);
    expect(kit.logs.join('\n')).not.toContain(SECRET_TOKEN.slice(4, 20));
  });
});

describe('client names that carry a token after a prefix', () => {
  // The caller's own token, long enough that 40 of its characters follow `web:` in a 64-character name.
  const LONG_TOKEN = 'tok-9a7c41e2b6d8f0315e7a9c2b4d6f8a1c3e5b7d9f0a2c4e6b';
  const testkit = useTestkit();

  it.each([
    ["'web:' and 40 characters of the caller's own token", { 'graphql-client-name': `web:${LONG_TOKEN.slice(4, 44)}`, 'graphql-client-version': '3.1.0' }],
    ["40 characters of the caller's own token as the version", { 'graphql-client-name': 'web', 'graphql-client-version': `v:${LONG_TOKEN.slice(10, 40)}` }],
    ['a token-like run of someone else', { 'graphql-client-name': 'web:Zk3qP9xLmW2vT8rYc4nB7hJ5sD1fG6aK', 'graphql-client-version': '3.1.0' }],
  ])('writes %s neither to /metrics nor to the log', async (_case, headers) => {
    const kit = testkit();
    const { line } = await run(kit, headers, TOTAL, LONG_TOKEN);
    expect(line).toMatchObject({ clientName: 'redacted', clientVersion: 'redacted' });
    const text = await metricsOf(kit);
    expect(text).toContain('tradegraph_client_operations_total{client_name="redacted",client_version="redacted"');
    const logs = kit.logs.join('\n');
    for (const value of Object.values(headers)) {
      const secretPart = value.replace(/^(web|v):/, '');
      if (secretPart.length < 16) continue;
      expect(text).not.toContain(secretPart.slice(0, 16));
      expect(logs).not.toContain(secretPart.slice(0, 16));
    }
  });

  it('keeps names and versions that only look long: a release tag, a commit id', async () => {
    const kit = testkit();
    const headers = { 'graphql-client-name': 'storefront-checkout-web-2026', 'graphql-client-version': '4f1c2a9e0b7d6c5a4f3e2d1c0b9a8f7e' };
    const { line } = await run(kit, headers, TOTAL, LONG_TOKEN);
    expect(line).toMatchObject({ clientName: headers['graphql-client-name'], clientVersion: headers['graphql-client-version'] });
  });
});

describe('deprecated field usage by client', () => {
  // The service built on schema/ with one field deprecated, as a schema change would deprecate it.
  const deprecatedSchema = buildSchema(
    typeDefsOf(
      readSchemaFiles().map((file) => ({
        ...file,
        sdl: file.sdl.replace('  shortName: String\n', '  shortName: String @deprecated(reason: "Use name.")\n'),
      })),
    ),
  );
  const testkit = useTestkit({ schema: deprecatedSchema });
  const SHORT_NAMES = `query ShortNames { inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { items(first: 2) { nodes { name shortName } } } }`;
  const THROUGH_FRAGMENT = `query Names { inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { items(first: 2) { nodes { ...Names } } } }
    fragment Names on InventoryItem { shortName }`;
  const series = (client: string) => `tradegraph_deprecated_field_usage_total{field="InventoryItem.shortName",client_name="${client}"}`;

  it('keeps serving the deprecated field and counts each operation that asks for it, by client', async () => {
    const kit = testkit();
    for (let i = 0; i < 2; i++) {
      const { result } = await run(kit, { 'graphql-client-name': 'web-shop' }, SHORT_NAMES);
      expectNoGraphQLErrors(result);
      const nodes = (result.data as { inventory: { items: { nodes: Array<{ name: string; shortName: string | null }> } } }).inventory.items.nodes;
      expect(nodes).toHaveLength(2);
      for (const node of nodes) expect(node.shortName).toEqual(expect.any(String));
    }
    await run(kit, { 'apollographql-client-name': 'ios-app' }, THROUGH_FRAGMENT);
    await run(kit, { 'graphql-client-name': 'web-shop' }, TOTAL);
    const text = await metricsOf(kit);
    expect(sample(text, series('web-shop'))).toBe(2);
    expect(sample(text, series('ios-app'))).toBe(1);
    expect(text.match(/^tradegraph_deprecated_field_usage_total\{/gm)).toHaveLength(2);
  });

  it('works out the deprecated coordinates of a document once: the same list for each later request', () => {
    const document = parse(SHORT_NAMES);
    const first = deprecatedCoordinatesOf(deprecatedSchema, document, 'ShortNames');
    expect(first).toEqual(['InventoryItem.shortName']);
    expect(deprecatedCoordinatesOf(deprecatedSchema, document, 'ShortNames')).toBe(first);
    // Another parse of the same text is another document: worked out again, to the same answer.
    const again = deprecatedCoordinatesOf(deprecatedSchema, parse(SHORT_NAMES), 'ShortNames');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(deprecatedCoordinatesOf(deprecatedSchema, parse(TOTAL), 'Total')).toEqual([]);
  });
});
