// Production mode over real HTTP: no GraphiQL, no introspection, no field suggestions, unexpected
// errors masked, typed errors unchanged. Each check is paired with development mode, so that a
// check cannot pass merely because the thing was never there.
import { describe, expect, it } from 'vitest';
import { InventoryTotalDocument } from '../generated/graphql.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, useTestkit, type GraphQLResponse, type Testkit } from '../support/testkit.js';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { startServiceProcess } from '../support/service-process.js';

const APP_ID = DEMO_APP_ID;
const PLATFORM_ID = DEMO_PLATFORM_ID;

const productionKit = useTestkit({ config: { production: true } });
const developmentKit = useTestkit({ config: { production: false } });

async function query(kit: Testkit, text: string) {
  const response = await kit.post({ query: text });
  return (await response.json()) as GraphQLResponse<Record<string, unknown>>;
}

const openGraphiQL = (kit: Testkit) => fetch(kit.graphqlUrl, { headers: { accept: 'text/html' } });

describe('production mode', () => {
  it('serves no GraphiQL', async () => {
    const dev = await openGraphiQL(developmentKit());
    expect(dev.headers.get('content-type')).toMatch(/text\/html/);
    expect(await dev.text()).toMatch(/graphiql/i);

    const prod = await openGraphiQL(productionKit());
    expect(prod.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
    expect(await prod.text()).not.toMatch(/graphiql/i);
  });

  it.each([
    ['__schema', '{ __schema { queryType { name } } }'],
    ['__type', '{ __type(name: "Inventory") { name fields { name } } }'],
    ['the subgraph SDL', '{ _service { sdl } }'],
  ])('refuses introspection through %s', async (_field, text) => {
    expectNoGraphQLErrors(await query(developmentKit(), text));
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await query(productionKit(), text);
      expect(result.data ?? null).toBeNull();
      expect(result.errors?.[0]?.message).toMatch(/introspection/i);
    }
  });

  it('still answers __typename', async () => {
    expect(await query(productionKit(), '{ __typename }')).toMatchObject({ data: { __typename: 'Query' } });
  });

  it('gives no "did you mean" suggestions', async () => {
    const text = `{ inventory(platformId: "${PLATFORM_ID}", appId: ${APP_ID}) { itemz totalCont } }`;
    const dev = await query(developmentKit(), text);
    expect(dev.errors?.map((error) => error.message).join(' ')).toMatch(/Did you mean "items"/);

    // Twice: the second answer comes from the validation cache and must be as bare as the first.
    for (let attempt = 0; attempt < 2; attempt++) {
      const prod = await query(productionKit(), text);
      expect(prod.errors).toHaveLength(2);
      for (const error of prod.errors!) {
        expect(error.message).toMatch(/^Cannot query field "(itemz|totalCont)" on type "Inventory"\.$/);
        expect(error.message).not.toMatch(/did you mean|items|totalCount/i);
      }
    }
  });

  it('masks an unexpected error: no internal message, no stack; the log keeps it', async () => {
    // A listing-fee batch size of 0 skips the environment's validation (tests build Config
    // directly) and makes the fee loader throw a RangeError when an operation first asks for a
    // fee: a genuine internal failure, not a planted one.
    const broken = await startTestkit({ config: { production: true, listingFeeBatchMax: 0 } });
    try {
      const response = await broken.post({
        query: `{ inventory(platformId: "${PLATFORM_ID}", appId: ${APP_ID}) { items(first: 1) { nodes { listingFee(price: 500) { fee } } } } }`,
      });
      const text = await response.text();
      const result = JSON.parse(text) as GraphQLResponse<unknown>;
      expect(result.errors?.map(({ message, extensions }) => ({ message, extensions }))).toEqual([
        { message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      ]);
      expect(text).not.toMatch(/batch size|RangeError|stack|\.ts/);
      expect(broken.logs.join('\n')).toMatch(/batch size/);
    } finally {
      await broken.close();
    }
  });

  it("answers a malformed body without the JSON parser's internals", async () => {
    const malformed = (kit: Testkit) => kit.post('{"query": "{ __typename }", ');
    const dev = await malformed(developmentKit());
    expect(dev.status).toBe(400);
    expect(await dev.text()).toContain('originalError');

    const prod = await malformed(productionKit());
    expect(prod.status).toBe(400);
    expect(await prod.json()).toEqual({
      errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('keeps typed errors: their code, their safe message, their documented extensions', async () => {
    productionKit().simulator.injectFault({ operation: 'readInventory', kind: 'http-429', retryAfter: 9, times: 1 });
    developmentKit().simulator.injectFault({ operation: 'readInventory', kind: 'http-429', retryAfter: 9, times: 1 });
    const variables = { platformId: PLATFORM_ID, appId: APP_ID };
    const prod = await productionKit().execute(InventoryTotalDocument, variables);
    const dev = await developmentKit().execute(InventoryTotalDocument, variables);
    expect(errorCodes(prod)).toEqual(['RATE_LIMITED']);
    expect(prod.errors).toEqual(dev.errors);
    expect(prod.errors![0]!.extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: 9 });
  });

  it('keeps operation-limit errors typed', async () => {
    const fields = Array.from(
      { length: 31 },
      (_, index) => `a${index}: inventory(platformId: "${PLATFORM_ID}", appId: ${APP_ID}) { platformId }`,
    ).join(' ');
    const result = await query(productionKit(), `{ ${fields} }`);
    expect(errorCodes(result)).toEqual(['OPERATION_LIMIT_EXCEEDED']);
  });
});

describe('production mode never serves demo data by accident (a real process)', () => {
  it('exits 1 without PARTNER_API_URL, with a message naming it and the opt-in', async () => {
    const started = startServiceProcess({ NODE_ENV: 'production' });
    // Should it start after all, it is stopped, not left serving past the test.
    void started.then((service) => service.stop(), () => undefined);
    await expect(started).rejects.toThrow(/exited with 1 before serving/);
    await expect(started).rejects.toThrow(/PARTNER_API_URL: is required when NODE_ENV=production/);
    await expect(started).rejects.toThrow(/PARTNER_SIMULATOR=embedded/);
  });

  it('serves the demo in production mode only when PARTNER_SIMULATOR=embedded asks for it, and says so', async () => {
    const service = await startServiceProcess({ NODE_ENV: 'production', PARTNER_SIMULATOR: 'embedded' });
    try {
      const warning = service.logs.find((line) => String(line.msg).startsWith('PARTNER_SIMULATOR=embedded'));
      expect(warning).toMatchObject({ level: 40 });
      const response = await fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
        body: JSON.stringify({ query: `{ inventory(platformId: "${PLATFORM_ID}", appId: ${APP_ID}) { totalCount } }` }),
      });
      expect(await response.json()).toMatchObject({ data: { inventory: { totalCount: 240 } } });
      // Still production mode: no GraphiQL.
      const page = await fetch(`${service.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(await page.text()).not.toMatch(/graphiql/i);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});
