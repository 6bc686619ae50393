// Property: whatever the HTTP request (method, path, query string, headers, Accept, Content-Type,
// body), the answer is one the status table of docs/statuses-and-error-codes.md names, a refusal has a
// JSON body with a code of the closed set, a 405 says what is allowed, and the rows the table fixes
// by method and media type hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANSWER_CODES, codesIn, propertyParameters } from '../support/properties.js';
import { useTestkit } from '../support/testkit.js';

const DOCUMENTED = new Set([200, 400, 403, 404, 405, 406, 413, 415, 429, 503]);

const shape = fc.record({
  method: fc.constantFrom('GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH'),
  path: fc.constantFrom('/graphql', '/graphql', '/graphql', '/graphql/', '/GRAPHQL', '/health', '/metrics', '/nope'),
  search: fc.constantFrom('', '', '?query=%7B__typename%7D', '?query=%7B', '?query=mutation%7B__typename%7D', '?extensions=1', '?%ZZ'),
  accept: fc.option(
    fc.constantFrom('*/*', 'application/json', 'application/graphql-response+json', 'text/html', 'application/xml', 'multipart/mixed', 'text/event-stream', 'application/json;q=0', ''),
    { nil: undefined },
  ),
  contentType: fc.option(
    fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/graphql+json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/graphql'),
    { nil: undefined },
  ),
  csrf: fc.boolean(),
  authorization: fc.constantFrom(undefined, 'Bearer demo-access-token', 'Basic abc', 'Bearer', ''),
  body: fc.constantFrom(
    undefined,
    '{"query":"{ __typename }"}',
    '{"query":"{ __typename }","variables":[]}',
    '{"query":',
    '[]',
    'query=%7B__typename%7D',
    '{ __typename }',
    '{"query":"{ inventory(platformId: \\"76561198000000240\\", appId: 730) { totalCount } }"}',
    '',
  ),
});

describe.each([
  ['development', false],
  ['production', true],
])('generated request shapes, %s mode', (_mode, production) => {
  const kit = useTestkit({ config: { maxBodyBytes: 4096, production } });

  it('get a documented status, a coded JSON refusal, and the rows the table fixes', async () => {
    await fc.assert(
      fc.asyncProperty(shape, async (request) => {
        const headers: Record<string, string> = {};
        if (request.accept !== undefined) headers.accept = request.accept;
        if (request.contentType !== undefined) headers['content-type'] = request.contentType;
        if (request.csrf) headers['x-graphql-csrf'] = '1';
        if (request.authorization !== undefined) headers.authorization = request.authorization;
        const hasBody = request.method !== 'GET' && request.body !== undefined;
        const response = await fetch(`${kit().url}${request.path}${request.search}`, {
          method: request.method,
          headers,
          ...(hasBody ? { body: request.body } : {}),
        });
        const text = await response.text();
        const status = response.status;
        const context = `${status} ${text.slice(0, 300)}`;
        expect(DOCUMENTED.has(status), context).toBe(true);
        // Production answers a browser's GET with a plain-text help page (406), as documented.
        const helpPage = production && status === 406 && response.headers.get('content-type')?.startsWith('text/plain');
        if (status !== 200 && !helpPage) {
          // A browser's GET in development gets GraphiQL; production's help page is plain text.
          // A client that accepts only a stream gets the refusal as one event of it (Yoga's framing).
          const streamed = /^(text\/event-stream|multipart\/mixed)/.test(request.accept ?? '');
          expect(response.headers.get('content-type'), context).toMatch(streamed ? /^(application\/(graphql-response\+)?json|text\/event-stream|multipart\/mixed)/ : /^application\/(graphql-response\+)?json/);
          expect(codesIn(text).length, context).toBeGreaterThan(0);
        }
        for (const code of codesIn(text)) expect(ANSWER_CODES.has(code), context).toBe(true);
        if (status === 405) expect(response.headers.get('allow'), context).toBeTruthy();
        // Rows the table fixes by method alone: another method on /graphql is 405.
        // (An Accept the service cannot answer in is refused first, with 406.)
        if (request.path === '/graphql' && ['PUT', 'DELETE', 'PATCH'].includes(request.method)) expect([405, 406], context).toContain(status);
        if (request.path === '/nope') expect(status, context).toBe(404);
        if (['/health', '/metrics'].includes(request.path) && request.method !== 'GET') expect(status, context).toBe(405);
      }),
      propertyParameters(production ? 150 : 200),
    );
    expect((await fetch(`${kit().url}/health`)).status).toBe(200);
  }, 60_000);
});
