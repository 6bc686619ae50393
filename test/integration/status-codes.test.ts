// The HTTP status a client sees, as the docs state it (README.md, docs/statuses-and-error-codes.md,
// docs/clients-and-graphql-over-http.md): a parse or validation error is 200 for a client whose
// Accept prefers application/json or takes anything (curl, fetch), and 400 for one that prefers
// application/graphql-response+json (Apollo Client, urql); and every non-2xx answer, whichever
// layer gives it, has a JSON body with a code.
import { connect } from 'node:net';
import { getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useTestkit } from '../support/testkit.js';

const kit = useTestkit({ config: { maxBodyBytes: 1024 } });

const ACCEPTS = [
  ['no Accept header', null, 200, 'application/json'],
  ["curl's and fetch's default, */*", '*/*', 200, 'application/json'],
  ['application/json', 'application/json', 200, 'application/json'],
  ["Apollo Client 4's default", 'application/graphql-response+json,application/json;q=0.9', 400, 'application/graphql-response+json'],
  [
    "urql 6's default",
    'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed',
    400,
    'application/graphql-response+json',
  ],
  ['application/graphql-response+json', 'application/graphql-response+json', 400, 'application/graphql-response+json'],
] as const;

describe.each([
  ['a parse error', '{ inventory(', 'GRAPHQL_PARSE_FAILED'],
  ['a validation error', '{ nope }', 'GRAPHQL_VALIDATION_FAILED'],
])('%s', (_case, query, code) => {
  it.each(ACCEPTS)('is answered with the status the docs state to a client sending %s', async (_client, accept, status, mediaType) => {
    const response = await fetch(kit().graphqlUrl, {
      method: 'POST',
      // undici's fetch adds `accept: */*` itself when none is given; an empty value stands for none.
      headers: { 'content-type': 'application/json', accept: accept ?? '' },
      body: JSON.stringify({ query }),
    });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(new RegExp(`^${mediaType.replace(/\+/g, '\\+')};`));
    const body = (await response.json()) as { data?: unknown; errors: Array<{ extensions: { code: string } }> };
    expect(body.data).toBeUndefined();
    expect(body.errors[0]!.extensions.code).toBe(code);
  });
});

/** Each non-2xx answer must be JSON with `errors[0].extensions.code`. */
async function expectCodedRefusal(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/(graphql-response\+)?json; charset=utf-8$/);
  const body = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]!.extensions.code).toBe(code);
  expect(body.errors[0]!.message.length).toBeGreaterThan(10);
  return body.errors[0]!.message;
}

describe('every non-2xx answer has a JSON body with a code', () => {
  const post = (body: string, headers: Record<string, string>, path = '/graphql', method = 'POST') =>
    fetch(`${kit().url}${path}`, { method, headers, body });

  it('404: a path with no route', async () => {
    const message = await expectCodedRefusal(await fetch(`${kit().url}/nope`), 404, 'BAD_REQUEST');
    expect(message).toContain('/graphql');
    await expectCodedRefusal(await post('{}', { 'content-type': 'application/json' }, '/nope'), 404, 'BAD_REQUEST');
  });

  it('405: a route asked with another method than GET, or /graphql with PUT', async () => {
    const health = await post('{}', { 'content-type': 'application/json' }, '/health');
    expect(health.headers.get('allow')).toBe('GET, HEAD');
    await expectCodedRefusal(health, 405, 'BAD_REQUEST');
    await expectCodedRefusal(await post('{"query":"{ __typename }"}', { 'content-type': 'application/json' }, '/graphql', 'PUT'), 405, 'BAD_REQUEST');
  });

  it('406: an Accept the service cannot answer in', async () => {
    const response = await post('{"query":"{ __typename }"}', { 'content-type': 'application/json', accept: 'application/xml' });
    expect(await expectCodedRefusal(response, 406, 'BAD_REQUEST')).toContain('application/json');
  });

  it.each([
    ['application/json;q=0'],
    ['*/*;q=0'],
    ['application/json;q=0, application/graphql-response+json;q=0, text/event-stream;q=0, multipart/mixed;q=0'],
  ])('406: an Accept that refuses every media type the service answers in (RFC 9110 q=0): %s', async (accept) => {
    const response = await post('{"query":"{ __typename }"}', { 'content-type': 'application/json', accept });
    expect(await expectCodedRefusal(response, 406, 'BAD_REQUEST')).toContain(accept);
  });

  it('answers in the media type the client weighs highest, not the one it lists first, and never in one it refuses', async () => {
    const send = (accept: string) => post('{"query":"{ nope }"}', { 'content-type': 'application/json', accept });
    const weighed = await send('application/json;q=0.5, application/graphql-response+json');
    expect(weighed.headers.get('content-type')).toMatch(/^application\/graphql-response\+json;/);
    expect(weighed.status).toBe(400);
    const refused = await send('application/json;q=0, */*');
    expect(refused.headers.get('content-type')).toMatch(/^application\/graphql-response\+json;/);
    // A body that arrived before the rewrite of Accept still reaches the operation.
    const answered = await post('{"query":"{ __typename }"}', { 'content-type': 'application/json', accept: 'application/graphql-response+json;q=0.9' });
    expect(await answered.json()).toMatchObject({ data: { __typename: 'Query' } });
  });

  it('415: a content-type the service does not read', async () => {
    const response = await post('<query/>', { 'content-type': 'application/xml' });
    expect(await expectCodedRefusal(response, 415, 'BAD_REQUEST')).toContain("'application/xml'");
  });

  it('413: a body over MAX_BODY_BYTES', async () => {
    const response = await post(JSON.stringify({ query: `{ __typename }${' '.repeat(2000)}` }), { 'content-type': 'application/json' });
    await expectCodedRefusal(response, 413, 'OPERATION_LIMIT_EXCEEDED');
  });

  it('403: a GET without the CSRF header', async () => {
    await expectCodedRefusal(await fetch(`${kit().graphqlUrl}?query=%7B__typename%7D`), 403, 'CSRF_HEADER_REQUIRED');
  });

  it('400: malformed JSON, and a request that is not HTTP', async () => {
    await expectCodedRefusal(await post('{"query":', { 'content-type': 'application/json' }), 400, 'BAD_REQUEST');

    const { hostname, port } = new URL(kit().url);
    const raw = await new Promise<string>((resolve, reject) => {
      let answer = '';
      const socket = connect(Number(port), hostname, () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(raw).toMatch(/content-type: application\/json; charset=utf-8/);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { errors: Array<{ extensions: { code: string } }> };
    expect(body.errors[0]!.extensions.code).toBe('BAD_REQUEST');
  });
});

describe('introspection in development', () => {
  // The default body limit: the standard introspection query is larger than the 1 KiB above.
  const developmentKit = useTestkit();
  const ask = async (query: string) => {
    const response = await fetch(developmentKit().graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return (await response.json()) as { data?: unknown; errors?: Array<{ extensions: { code: string } }> };
  };

  it("answers the standard introspection query (deeper than the depth limit) that GraphiQL and codegen send", async () => {
    const result = await ask(getIntrospectionQuery());
    expect(result.errors).toBeUndefined();
    expect(result.data).toHaveProperty('__schema.queryType.name', 'Query');
  });

  it("refuses introspection that recurses through the types' lists, by graphql-js's own rule", async () => {
    const result = await ask('{ __schema { types { fields { type { fields { type { fields { type { name } } } } } } } } }');
    expect(result.data).toBeUndefined();
    expect(result.errors!.map((error) => error.extensions.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});

describe('a client that accepts only a stream', () => {
  it.each([
    ['text/event-stream', 'a validation error', { method: 'POST', body: '{"query":"{ nope }"}' }, 200, 'GRAPHQL_VALIDATION_FAILED'],
    // Not a GraphQL request at all: 400, whatever the stream (plugins/refusal-bodies.ts).
    ['text/event-stream', 'a malformed body', { method: 'POST', body: '{"query":' }, 400, 'BAD_REQUEST'],
    ['text/event-stream', 'a GET without the CSRF header', { method: 'GET' }, 403, 'CSRF_HEADER_REQUIRED'],
    ['multipart/mixed', 'a validation error', { method: 'POST', body: '{"query":"{ nope }"}' }, 400, 'GRAPHQL_VALIDATION_FAILED'],
    ['multipart/mixed', 'a GET without the CSRF header', { method: 'GET' }, 403, 'CSRF_HEADER_REQUIRED'],
  ] as const)('%s: gets %s as one coded part of that stream', async (accept, _case, init, status, code) => {
    const query = init.method === 'GET' ? '?query=%7B__typename%7D' : '';
    const response = await fetch(`${kit().graphqlUrl}${query}`, {
      ...init,
      headers: { accept, ...(init.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(new RegExp(`^${accept}`));
    expect(await response.text()).toContain(`"code":"${code}"`);
  });
});
