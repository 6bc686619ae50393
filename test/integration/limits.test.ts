// Hostile and oversized input over real HTTP: every operation limit refuses before execution with
// OPERATION_LIMIT_EXCEEDED and zero partner calls; bodies over MAX_BODY_BYTES get 413; malformed
// requests get 4xx, never 5xx.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { InventoryWithFeesDocument, TwoInventoriesWithFeesDocument } from '../generated/graphql.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, useTestkit } from '../support/testkit.js';
import { DEMO_APP_ID, platformIdWithSize } from '../../src/simulator/data.js';

const APP_ID = DEMO_APP_ID;
const MAX_BODY_BYTES = 64 * 1024;
const withSize = platformIdWithSize;

/**
 * The limits as docs/operation-limits.md states them, written out here rather than read from
 * the code: a limit changed in the code alone fails these tests.
 */
const DOCUMENTED = { tokens: 2000, depth: 10, aliases: 30, directives: 50, cost: 1000, queryBytes: 32 * 1024, variablesDepth: 32, bodyBytes: 1024 * 1024 };

const kit = useTestkit({ config: { maxBodyBytes: MAX_BODY_BYTES } });

const partnerCalls = () => kit().simulator.calls.length;

interface GraphQLBody {
  data?: unknown;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

async function postQuery(query: string, variables: Record<string, unknown> = {}) {
  const response = await kit().post({ query, variables });
  return { status: response.status, body: (await response.json()) as GraphQLBody };
}

function expectRefused(result: { status: number; body: GraphQLBody }, limit: string | RegExp) {
  expect(result.status).toBe(400);
  expect(result.body.data ?? null).toBeNull();
  expect(errorCodes(result.body)).toEqual(['OPERATION_LIMIT_EXCEEDED']);
  expect(result.body.errors![0]!.extensions?.limit).toMatch(limit);
  expect(result.body.errors![0]!.message).toMatch(/^The operation/);
  expect(partnerCalls()).toBe(0);
}

describe('operation limits', () => {
  it('refuses 500 aliased inventory fields before any partner call', async () => {
    const fields = Array.from(
      { length: 500 },
      (_, index) => `i${index}: inventory(platformId: "${withSize(5)}", appId: ${APP_ID}) { totalCount }`,
    );
    // The text's size or the token count trips first here (both before validation); nothing runs.
    expectRefused(await postQuery(`{ ${fields.join(' ')} }`), /^(queryBytes|tokens|aliases)$/);
  });

  it('refuses one alias more than the limit', async () => {
    const fields = Array.from(
      { length: DOCUMENTED.aliases + 1 },
      (_, index) => `i${index}: inventory(platformId: "${withSize(5)}", appId: ${APP_ID}) { totalCount }`,
    );
    expectRefused(await postQuery(`{ ${fields.join(' ')} }`), 'aliases');
  });

  it('refuses an operation deeper than the limit', async () => {
    // The schema has no cycles; the introspection types do.
    let selection = 'name';
    for (let level = 0; level < DOCUMENTED.depth; level++) selection = `ofType { ${selection} }`;
    expectRefused(await postQuery(`{ __type(name: "Inventory") { fields { type { ${selection} } } } }`), 'depth');
  });

  it('refuses the same too-deep document on every request, not only the first (validation is cached per document)', async () => {
    let selection = 'name';
    for (let level = 0; level < DOCUMENTED.depth; level++) selection = `ofType { ${selection} }`;
    const text = `{ __type(name: "Inventory") { fields { type { ${selection} } } } }`;
    for (let attempt = 0; attempt < 3; attempt++) expectRefused(await postQuery(text), 'depth');
    // A document that passes stays answered on its later requests too.
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await postQuery('{ __type(name: "Inventory") { name } }');
      expect(answer.body).toMatchObject({ data: { __type: { name: 'Inventory' } } });
    }
  });

  it('refuses an operation with more tokens than the limit', async () => {
    const typenames = Array.from({ length: DOCUMENTED.tokens }, () => '__typename').join(' ');
    expectRefused(await postQuery(`{ ${typenames} }`), 'tokens');
  });

  it('refuses an operation with more directives than the limit', async () => {
    // One directive per field: graphql forbids repeating @include at one location.
    const fields = Array.from({ length: DOCUMENTED.directives + 1 }, () => '__typename @include(if: true)');
    expectRefused(await postQuery(`{ ${fields.join(' ')} }`), 'directives');
  });

  it('refuses 30 inventories × 100 items × a listing fee each, priced with the variables', async () => {
    const inventories = Array.from(
      { length: 30 },
      (_, index) =>
        `i${index}: inventory(platformId: "${withSize(100 + index)}", appId: ${APP_ID}) {
           items(first: $first) { nodes { assetId listingFee(price: 500) { fee } } } }`,
    );
    const query = `query Many($first: Int) { ${inventories.join(' ')} }`;
    const result = await postQuery(query, { first: 100 });
    expectRefused(result, 'cost');
    expect(result.body.errors![0]!.message).toMatch(/cost \d+ units.*at most 1000/);
    // The same document with a small page is cheap enough: the price follows the variables.
    const small = await postQuery(query, { first: 1 });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
  });

  it('prices items(first:) at its default of 20 when first is omitted', async () => {
    // 25 inventories × (1 call + 20 items) = 525 units: under the limit. With a fee on each item
    // it is 25 × 41 = 1025 units: over it.
    const inventories = (withFee: boolean) =>
      Array.from(
        { length: 25 },
        (_, index) =>
          `i${index}: inventory(platformId: "${withSize(20)}", appId: ${APP_ID}) {
             items { nodes { assetId ${withFee ? 'listingFee(price: 500) { fee }' : ''} } } }`,
      ).join(' ');
    const plain = await postQuery(`{ ${inventories(false)} }`);
    expect(plain.body.errors).toBeUndefined();
    kit().simulator.reset();
    expectRefused(await postQuery(`{ ${inventories(true)} }`), 'cost');
  });

  it('accepts a normal page: 100 items with a listing fee on each', async () => {
    const result = await kit().execute(InventoryWithFeesDocument, {
      platformId: withSize(150),
      appId: APP_ID,
      first: 100,
      price: 500,
    });
    expectNoGraphQLErrors(result);
    expect(result.data.inventory!.items.nodes).toHaveLength(100);
    expect(result.data.inventory!.items.nodes.every((node) => node.listingFee !== null)).toBe(true);
  });

  it('accepts two inventories of 100 items with fees, an operation front ends keep', async () => {
    const result = await kit().execute(TwoInventoriesWithFeesDocument, {
      a: withSize(120),
      b: withSize(130),
      appId: APP_ID,
      first: 100,
      price: 500,
    });
    expectNoGraphQLErrors(result);
    expect(result.data.a!.items.nodes).toHaveLength(100);
  });
});

describe('each documented limit: an operation exactly at it is accepted, one past it refused', () => {
  it('states the same limits as docs/operation-limits.md', () => {
    const doc = readFileSync(new URL('../../docs/operation-limits.md', import.meta.url), 'utf8');
    const row = (name: string) => new RegExp(`^\\| ${name} \\| ([^|]+) \\|`, 'm').exec(doc)?.[1]?.trim();
    expect({
      tokens: row('Tokens'),
      depth: row('Depth'),
      aliases: row('Aliases'),
      directives: row('Directives'),
      cost: row('Cost'),
      queryBytes: row('Query text'),
      variablesDepth: row("Variables' nesting"),
      bodyBytes: row('Body size'),
    }).toEqual({
      tokens: String(DOCUMENTED.tokens),
      depth: String(DOCUMENTED.depth),
      aliases: String(DOCUMENTED.aliases),
      directives: String(DOCUMENTED.directives),
      cost: `${DOCUMENTED.cost} units`,
      queryBytes: '`MAX_QUERY_BYTES` (32 KiB)',
      variablesDepth: `${DOCUMENTED.variablesDepth} levels of arrays and objects`,
      bodyBytes: '`MAX_BODY_BYTES` (1 MiB)',
    });
  });

  async function expectAccepted(query: string) {
    const result = await postQuery(query);
    expect(result.body.errors).toBeUndefined();
    expect(result.status).toBe(200);
  }

  it('tokens', async () => {
    // Six tokens a fragment, and the operation's two braces.
    const fragments = (count: number) => Array.from({ length: count }, () => '... on Query { __typename }').join(' ');
    const atLimit = `{ ${fragments((DOCUMENTED.tokens - 2) / 6)} }`;
    await expectAccepted(atLimit);
    expectRefused(await postQuery(atLimit.replace('{', '{ __typename')), 'tokens');
  });

  it('depth', async () => {
    // A chain of exactly `fields` nested fields: __type, fields, type, then ofType down to name.
    const chain = (fields: number) => {
      let selection = 'name';
      for (let level = 0; level < fields - 4; level++) selection = `ofType { ${selection} }`;
      return `{ __type(name: "Inventory") { fields { type { ${selection} } } } }`;
    };
    await expectAccepted(chain(DOCUMENTED.depth));
    expectRefused(await postQuery(chain(DOCUMENTED.depth + 1)), 'depth');
  });

  it('aliases', async () => {
    const aliased = (count: number) => `{ ${Array.from({ length: count }, (_, index) => `t${index}: __type(name: "Inventory") { name }`).join(' ')} }`;
    await expectAccepted(aliased(DOCUMENTED.aliases));
    expectRefused(await postQuery(aliased(DOCUMENTED.aliases + 1)), 'aliases');
  });

  it('directives', async () => {
    const directed = (count: number) => `{ ${Array.from({ length: count }, () => '__typename @include(if: true)').join(' ')} }`;
    await expectAccepted(directed(DOCUMENTED.directives));
    expectRefused(await postQuery(directed(DOCUMENTED.directives + 1)), 'directives');
  });

  it('cost', async () => {
    // 10 inventories × (1 call + 99 items) = 1000 units; a totalCount more is 1001.
    const page = (index: number) => `i${index}: inventory(platformId: "${withSize(100)}", appId: ${APP_ID}) { items(first: 99) { nodes { assetId } } }`;
    const pages = Array.from({ length: DOCUMENTED.cost / 100 }, (_, index) => page(index)).join(' ');
    await expectAccepted(`{ ${pages} }`);
    kit().simulator.reset();
    expectRefused(await postQuery(`{ ${pages} total: inventory(platformId: "${withSize(100)}", appId: ${APP_ID}) { totalCount } }`), 'cost');
  });

  it('query text', async () => {
    const padded = (bytes: number) => `{ __typename${' '.repeat(bytes - '{ __typename}'.length)}}`;
    await expectAccepted(padded(DOCUMENTED.queryBytes));
    expectRefused(await postQuery(padded(DOCUMENTED.queryBytes + 1)), 'queryBytes');
  });

  it("variables' nesting", async () => {
    // Arrays in an object: a variable of `levels` levels, its innermost an object.
    const nested = (levels: number) => JSON.parse(`${'['.repeat(levels - 1)}{}${']'.repeat(levels - 1)}`) as unknown;
    const accepted = await postQuery('{ __typename }', { unused: nested(DOCUMENTED.variablesDepth) });
    expect(accepted.body).toMatchObject({ data: { __typename: 'Query' } });
    expectRefused(await postQuery('{ __typename }', { unused: nested(DOCUMENTED.variablesDepth + 1) }), 'variablesDepth');
  });

  describe('with the default MAX_BODY_BYTES', () => {
    const kit = useTestkit();

    /** A JSON body of exactly `bytes` bytes: a small operation, then whitespace, which JSON allows. */
    const send = (bytes: number) => {
      const operation = JSON.stringify({ query: '{ __typename }' });
      return fetch(kit().graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: operation + ' '.repeat(bytes - operation.length),
      });
    };

    it('body size', async () => {
      const atLimit = await send(DOCUMENTED.bodyBytes);
      expect(atLimit.status).toBe(200);
      expect(await atLimit.json()).toMatchObject({ data: { __typename: 'Query' } });
      const past = await send(DOCUMENTED.bodyBytes + 1);
      expect(past.status).toBe(413);
      expect(await past.json()).toMatchObject({ errors: [{ extensions: { limit: 'bodyBytes', maximum: DOCUMENTED.bodyBytes } }] });
    });
  });
});

describe('request bodies', () => {
  /** Sends a raw request with node:http, so that framing (chunked or not) is under the test's control. */
  function rawPost(
    chunks: Buffer[],
    { chunked, contentType = 'application/json' }: { chunked: boolean; contentType?: string },
  ): Promise<{ status: number; body: string }> {
    const url = new URL(kit().graphqlUrl);
    const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            'content-type': contentType,
            accept: 'application/graphql-response+json',
            ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': length }),
          },
        },
        (res) => {
          const received: Buffer[] = [];
          res.on('data', (chunk: Buffer) => received.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(received).toString('utf8') }));
        },
      );
      // The server may close the connection while the rest of an oversized body is still going out.
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      let index = 0;
      const writeNext = () => {
        if (req.destroyed) return;
        if (index === chunks.length) return void req.end();
        req.write(chunks[index++], () => setImmediate(writeNext));
      };
      writeNext();
    });
  }

  const oversizedQuery = () => {
    const padding = ' '.repeat(MAX_BODY_BYTES);
    return Buffer.from(JSON.stringify({ query: `{ __typename ${padding}}` }));
  };

  it('answers 413 for a body whose content-length is over MAX_BODY_BYTES', async () => {
    const result = await rawPost([oversizedQuery()], { chunked: false });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({
      errors: [{ extensions: { code: 'OPERATION_LIMIT_EXCEEDED', limit: 'bodyBytes', maximum: MAX_BODY_BYTES } }],
    });
    expect(partnerCalls()).toBe(0);
  });

  it('answers 413 for a chunked body without content-length once it passes MAX_BODY_BYTES', async () => {
    const body = oversizedQuery();
    const chunks: Buffer[] = [];
    for (let offset = 0; offset < body.length; offset += 8192) chunks.push(body.subarray(offset, offset + 8192));
    const result = await rawPost(chunks, { chunked: true });
    expect(result.status).toBe(413);
    expect(errorCodes(JSON.parse(result.body) as GraphQLBody)).toEqual(['OPERATION_LIMIT_EXCEEDED']);
  });

  it('still serves a chunked body under the limit', async () => {
    const body = Buffer.from(JSON.stringify({ query: '{ __typename }' }));
    const result = await rawPost([body.subarray(0, 5), body.subarray(5)], { chunked: true });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({ data: { __typename: 'Query' } });
  });

  it.each([false, true])('neither logs nor counts an operation whose client left mid-body (chunked: %s)', async (chunked) => {
    // A service of its own: its log and metrics hold only this test's operations.
    const own = await startTestkit();
    try {
      const body = Buffer.from(JSON.stringify({ query: '{ __typename }' }));
      const url = new URL(own.graphqlUrl);
      const leaving = request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-request-id': 'left-mid-body',
          ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': body.length }),
        },
      });
      leaving.on('error', () => undefined);
      await new Promise<void>((resolve) => leaving.write(body.subarray(0, 5), () => resolve()));
      leaving.destroy();
      // An operation on another connection, sent after the one that left and logged.
      const after = await fetch(own.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'after-it' },
        body,
      });
      expect(after.status).toBe(200);
      const operations = () =>
        own.logs.map((line) => JSON.parse(line) as { msg: string; requestId?: string }).filter((line) => line.msg === 'graphql operation');
      await vi.waitFor(() => expect(operations().map((line) => line.requestId)).toContain('after-it'), { timeout: 10_000, interval: 10 });

      expect(operations().map((line) => line.requestId)).toEqual(['after-it']);
      const metrics = await (await fetch(`${own.url}/metrics`)).text();
      expect(metrics).toMatch(/tradegraph_graphql_operation_duration_seconds_count\{[^}]*outcome="ok"[^}]*\} 1\n/);
      expect(metrics).not.toMatch(/tradegraph_graphql_errors_total\{/);
    } finally {
      await own.close();
    }
  });

  it.each(['application/json', 'application/json; charset=utf-8'])('executes a JSON body sent as %s', async (contentType) => {
    const body = Buffer.from(JSON.stringify({ query: 'query Named { __typename }', operationName: 'Named' }));
    const result = await rawPost([body], { chunked: false, contentType });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({ data: { __typename: 'Query' } });
  });

  const malformed: Array<[string, Buffer, string]> = [
    ['malformed JSON', Buffer.from('{"query": '), 'application/json'],
    ['an empty body', Buffer.alloc(0), 'application/json'],
    ['JSON that is not an object', Buffer.from('"{ __typename }"'), 'application/json'],
    ['an empty JSON object', Buffer.from('{}'), 'application/json'],
    ['no query', Buffer.from('{"variables": {}}'), 'application/json'],
    ['a query that is not a string', Buffer.from('{"query": 42}'), 'application/json'],
    ['variables that are not an object', Buffer.from('{"query": "{ __typename }", "variables": [1]}'), 'application/json'],
    ['a query that does not parse', Buffer.from('{"query": "{ inventory("}'), 'application/json'],
    ['content type text/plain', Buffer.from('{"query": "{ __typename }"}'), 'text/plain'],
    ['content type application/xml', Buffer.from('<query/>'), 'application/xml'],
    ['an array batch', Buffer.from('[{"query": "{ __typename }"}, {"query": "{ __typename }"}]'), 'application/json'],
  ];
  it.each(malformed)('answers 4xx, never 5xx, for %s', async (_name, body, contentType) => {
    const result = await rawPost([body], { chunked: false, contentType });
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
    expect(partnerCalls()).toBe(0);
  });
});

describe('variables that do not fit their types', () => {
  const kit = useTestkit();

  it('are BAD_USER_INPUT like every other refused input, with no partner call', async () => {
    const response = await kit().post({
      query: 'query ($appId: Int!) { inventory(platformId: "76561198000000005", appId: $appId) { totalCount } }',
      variables: { appId: 'seven-thirty' },
    });
    const result = (await response.json()) as { data?: unknown; errors: Array<{ message: string; extensions?: { code?: string } }> };
    expect(result.data).toBeUndefined();
    expect(result.errors.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors[0]!.message).toContain('Int cannot represent non-integer value: "seven-thirty"');
    expect(kit().simulator.calls).toHaveLength(0);
  });

  it('are BAD_USER_INPUT inside an input object literal too (the cost limit leaves them to execution)', async () => {
    const response = await kit().post({
      query: 'mutation ($items: [ListingFeeItemInput!]!) { calculateListingFee(input: { items: $items }) { fees { fee } } }',
      variables: { items: null },
    });
    const result = (await response.json()) as { data?: unknown; errors: Array<{ extensions?: { code?: string } }> };
    expect(result.data).toBeUndefined();
    expect(result.errors.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect(kit().simulator.calls).toHaveLength(0);
  });
});
