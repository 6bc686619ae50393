// A POST whose body is not JSON, or is empty, is not a GraphQL request: 400 BAD_REQUEST whatever
// the client accepts (the GraphQL over HTTP spec's "JSON parsing failure"), in production as in
// development. Sent with undici's request(), which adds no Accept header of its own: fetch would
// send `*/*` where the case is "none".
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { useTestkit } from '../support/testkit.js';

const kits = {
  development: useTestkit({ config: { production: false } }),
  production: useTestkit({ config: { production: true } }),
};

const ACCEPTS = ['*/*', 'application/json', 'application/graphql-response+json', null] as const;
const BODIES = [
  ['malformed', '{"query":'],
  ['empty', ''],
] as const;

describe.each(Object.keys(kits) as (keyof typeof kits)[])('%s', (mode) => {
  describe.each(BODIES)('a %s body', (_name, body) => {
    it.each(ACCEPTS)('answers 400 BAD_REQUEST to Accept %s', async (accept) => {
      const response = await request(kits[mode]().graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(accept === null ? {} : { accept }) },
        body,
      });
      const answer = (await response.body.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(response.statusCode).toBe(400);
      expect(answer.errors.map((error) => error.extensions.code)).toEqual(['BAD_REQUEST']);
      expect(response.headers['content-type']).toMatch(/^application\/(graphql-response\+)?json; charset=utf-8$/);
    });
  });
});

// The departure (docs/decisions/library-departures.md) guarded: Yoga alone. Once this answers 400,
// the mark is gone from Yoga and plugins/refusal-bodies.ts need not clear it.
describe('Yoga without the service', () => {
  it("answers a body that is not JSON 200 under application/json once production has removed the error's originalError", async () => {
    const withoutOriginalError: Plugin = {
      onResultProcess({ result }) {
        if (Symbol.asyncIterator in result || Array.isArray(result)) return;
        for (const error of result.errors ?? []) delete (error.extensions as Record<string, unknown>).originalError;
      },
    };
    const yoga = createYoga({ schema: createSchema({ typeDefs: 'type Query { a: Int }' }), plugins: [withoutOriginalError], logging: false });
    const answer = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"query":',
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors.map((error) => error.extensions.code)).toEqual(['BAD_REQUEST']);
  });
});
