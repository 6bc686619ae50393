// Edges of the HTTP interface: every error answer carries a code of the closed set (Yoga's
// OPERATION_RESOLUTION_FAILURE included, answered as BAD_USER_INPUT), and a body over
// MAX_BODY_BYTES gets its 413 read by the client every time, never a reset while it still sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { useTestkit } from '../support/testkit.js';

const CLOSED_SET = new Set<string>(Object.values(ErrorCode));

describe('a request whose operationName picks no operation of its document', () => {
  const kit = useTestkit();

  it.each([
    ['several operations, no operationName', { query: 'query A { __typename } query B { __typename }' }],
    ['an operationName the document lacks', { query: 'query A { __typename }', operationName: 'B' }],
  ])('%s: HTTP 400 and BAD_USER_INPUT naming operationName', async (_case, body) => {
    const response = await kit().post(body);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { errors: { message: string; extensions: { code: string; argumentName?: string } }[] };
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors[0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', argumentName: 'operationName' });
    expect(CLOSED_SET.has(answer.errors[0]!.extensions.code)).toBe(true);
    expect(answer.errors[0]!.message).toMatch(/operationName/);
  });
});

// In a process of its own, as in production: in the test's own process the client's and the
// service's sockets share one event loop, which hides the race a reset comes from.
describe('a body over MAX_BODY_BYTES', () => {
  let service: ServiceProcess;
  beforeAll(async () => {
    service = await startServiceProcess({ NODE_ENV: 'production', PARTNER_SIMULATOR: 'embedded' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('gets its 413 and JSON error read by the client, 10 times of 10', async () => {
    const body = JSON.stringify({ query: '{ __typename }', variables: { padding: 'x'.repeat(5 * 1024 * 1024) } });
    const outcomes: unknown[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        const response = await fetch(`${service.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        const answer = (await response.json()) as { errors?: { extensions?: { code?: string; limit?: string } }[] };
        outcomes.push({ status: response.status, code: answer.errors?.[0]?.extensions?.code, limit: answer.errors?.[0]?.extensions?.limit });
      } catch (error) {
        outcomes.push({ failed: String((error as { cause?: unknown }).cause ?? error) });
      }
    }
    expect(outcomes).toEqual(Array.from({ length: 10 }, () => ({ status: 413, code: 'OPERATION_LIMIT_EXCEEDED', limit: 'bodyBytes' })));
    // The service is still there for the next client.
    const next = await fetch(`${service.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    expect(next.status).toBe(200);
  });
});
