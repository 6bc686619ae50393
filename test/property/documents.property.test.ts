// Property: whatever document a client sends (generated from the served schema), over HTTP to a real
// facade in development and in production mode, the answer is never a 5xx other than 503/504,
// every error carries a code of the closed set, an operation refused before execution makes no
// partner call, and the service stays up.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ANSWER_CODES, codesIn, propertyParameters } from '../support/properties.js';
import { useTestkit, type Testkit } from '../support/testkit.js';
import { documentArbitrary } from './documents.js';

const SCHEMA = buildSchema(readFileSync(new URL('../../src/generated/schema.graphql', import.meta.url), 'utf8'), { assumeValidSDL: true });
const ACCEPTS = [
  'application/graphql-response+json',
  'application/json',
  '*/*',
  'multipart/mixed, application/graphql-response+json',
  'text/event-stream',
];

describe.each([
  ['development', false],
  ['production', true],
])('generated documents, %s mode', (_mode, production) => {
  const kit: () => Testkit = useTestkit({ config: { production } });

  it('never answer 5xx, always with codes of the closed set, and cost the partner nothing when refused', async () => {
    await fc.assert(
      fc.asyncProperty(documentArbitrary(SCHEMA), fc.constantFrom(...ACCEPTS), async (request, accept) => {
        const before = kit().simulator.calls.length;
        const response = await kit().post(request, { headers: { accept } });
        const text = await response.text();
        const calls = kit().simulator.calls.length - before;
        expect(response.status < 500 || response.status === 503 || response.status === 504, `${response.status} ${text}`).toBe(true);
        for (const code of codesIn(text)) expect(ANSWER_CODES.has(code), `${code} in ${text}`).toBe(true);
        if (text.includes('"errors"')) expect(codesIn(text).length, text).toBeGreaterThan(0);
        // Refused before execution: no `data` at all (a parse, validation, limit or HTTP refusal).
        if (!/"data"/.test(text)) expect(calls, text).toBe(0);
      }),
      propertyParameters(production ? 150 : 200),
    );
    expect((await fetch(`${kit().url}/health`)).status).toBe(200);
  }, 60_000);
});
