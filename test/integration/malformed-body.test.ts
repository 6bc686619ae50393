// A POST whose body is not JSON, or is empty, is not a GraphQL request: 400 BAD_REQUEST whatever
// the client accepts (the GraphQL over HTTP spec's "JSON parsing failure"), in production as in
// development. Sent with undici's request(), which adds no Accept header of its own: fetch would
// send `*/*` where the case is "none".
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
