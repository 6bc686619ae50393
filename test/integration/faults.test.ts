// Partner faults over real HTTP: each fault of the simulator becomes its typed error, and a client
// that goes away aborts the partner call it caused. Time is never asserted (the machine is shared):
// a slow partner is told apart by its code, UPSTREAM_TIMEOUT, and a hang by the test's timeout.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CalculateListingFeeDocument, InventoryTotalDocument } from '../generated/graphql.js';
import { errorCodes, startTestkit, useTestkit, type GraphQLResponse, type Testkit } from '../support/testkit.js';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import type { Fault } from '../../src/simulator/server.js';
import { closedPort } from '../support/ports.js';

const APP_ID = DEMO_APP_ID;
const PLATFORM_ID = DEMO_PLATFORM_ID;
const UPSTREAM_TIMEOUT_MS = 1000;

/**
 * One error, of `code`, on the field that needed the partner's data; on an inventory read the
 * sibling `id`, which needs no partner call, keeps its data.
 */
function expectTypedError(
  result: GraphQLResponse<unknown>,
  code: string,
  path: string[] = ['inventory', 'totalCount'],
) {
  expect(errorCodes(result)).toEqual([code]);
  expect(result.errors![0]!.path).toEqual(path);
  if (path[0] === 'inventory') expect(result.data).toEqual({ inventory: { id: expect.any(String), totalCount: null } });
}

describe('partner faults become typed errors within the timeout', () => {
  // One caller, one inventory: the breaker never opens on these (see resilience.test.ts).
  const kit = useTestkit({ config: { upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS } });

  const readTotal = () => kit().execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID });
  const withFault = (fault: Fault) => {
    kit().simulator.injectFault({ operation: 'readInventory', ...fault });
    return readTotal();
  };

  it('UPSTREAM_TIMEOUT when the partner does not answer within UPSTREAM_TIMEOUT_MS', async () => {
    const answer = await withFault({ kind: 'slow', delayMs: 10_000 });
    expectTypedError(answer, 'UPSTREAM_TIMEOUT');
    expect(answer.errors![0]!.message).toContain(`within ${UPSTREAM_TIMEOUT_MS} ms`);
  });

  it.each(['http-500', 'http-502', 'http-503', 'http-504'] as const)(
    'UPSTREAM_UNAVAILABLE when the partner answers %s',
    async (kind) => {
      expectTypedError(await withFault({ kind }), 'UPSTREAM_UNAVAILABLE');
    },
  );

  it('UPSTREAM_UNAVAILABLE when the partner resets the connection', async () => {
    expectTypedError(await withFault({ kind: 'reset' }), 'UPSTREAM_UNAVAILABLE');
  });

  it.each([
    ['non-JSON', { kind: 'non-json' }, /not JSON/],
    ['HTML', { kind: 'html' }, /not JSON/],
    ['truncated JSON', { kind: 'truncated-json' }, /not JSON/],
    ['a list that is not an array', { kind: 'bad-shape', data: { total: 3, list: 'three items' } }, /'list' is not an array/],
    ['a total that is not a number', { kind: 'bad-shape', data: { total: 'many', list: [] } }, /'total' is not an integer/],
  ] as Array<[string, Fault, RegExp]>)('UPSTREAM_BAD_RESPONSE when the partner answers %s', async (_name, fault, reason) => {
    const answer = await withFault(fault);
    expectTypedError(answer, 'UPSTREAM_BAD_RESPONSE');
    expect(answer.errors![0]!.message).toMatch(reason);
  });

  it('UNAUTHENTICATED when the partner answers 401', async () => {
    expectTypedError(await withFault({ kind: 'http-401' }), 'UNAUTHENTICATED');
  });

  it('FORBIDDEN when the partner answers 403', async () => {
    expectTypedError(await withFault({ kind: 'http-403' }), 'FORBIDDEN');
  });

  it('RATE_LIMITED with retryAfter when the partner answers 429', async () => {
    const answer = await withFault({ kind: 'http-429', retryAfter: 42 });
    expectTypedError(answer, 'RATE_LIMITED');
    expect(answer.errors![0]!.extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: 42 });
  });

  it("UPSTREAM_ERROR when the envelope reports a failure, with the envelope's error fields as sent", async () => {
    const answer = await withFault({ kind: 'envelope-error' });
    expectTypedError(answer, 'UPSTREAM_ERROR');
    const [error] = answer.errors!;
    expect(error!.extensions).toEqual({
      code: 'UPSTREAM_ERROR',
      upstream: {
        errorCode: 10_086,
        errorCodeStr: 'INVENTORY_READ_FAILED',
        errorMsg: '用户库存读取失败 (simulated)',
        errorData: { hint: 'simulated envelope error' },
      },
    });
    expect(error!.message).toBe("The partner API refused 'readInventory' with error code 10086: 用户库存读取失败 (simulated).");
  });

  it('keeps sibling data when one field fails', async () => {
    kit().simulator.injectFault({ operation: 'readInventory', kind: 'http-503' });
    const response = await kit().post({
      query: `{ inventory(platformId: "${PLATFORM_ID}", appId: ${APP_ID}) { platformId appId totalCount } }`,
    });
    const result = (await response.json()) as GraphQLResponse<{ inventory: Record<string, unknown> }>;
    expect(result.data?.inventory).toEqual({ platformId: PLATFORM_ID, appId: APP_ID, totalCount: null });
    expect(errorCodes(result)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(result.errors![0]!.path).toEqual(['inventory', 'totalCount']);
  });

  it.each([
    ['http-503', 'UPSTREAM_UNAVAILABLE'],
    ['slow', 'UPSTREAM_TIMEOUT'],
    ['truncated-json', 'UPSTREAM_BAD_RESPONSE'],
  ] as const)('the listing-fee POST turns %s into %s too', async (kind, code) => {
    kit().simulator.injectFault({ operation: 'calculateListingFee', kind, delayMs: 10_000 });
    const answer = await kit().execute(CalculateListingFeeDocument, { input: { items: [{ price: 500 }] } });
    expectTypedError(answer, code, ['calculateListingFee']);
  });
});

describe('an unreachable partner', () => {
  let kit: Testkit;
  beforeAll(async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    kit = await startTestkit({
      config: { upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS, partnerApiUrl: url, partnerOpenApiUrl: url },
    });
  });
  afterAll(async () => {
    await kit.close();
  });

  it('answers UPSTREAM_UNAVAILABLE when the connection is refused', async () => {
    const answer = await kit.execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID });
    expectTypedError(answer, 'UPSTREAM_UNAVAILABLE');
    expect(answer.errors![0]!.message).toContain('ECONNREFUSED');
  });
});

describe('a client that goes away', () => {
  const kit = useTestkit({ config: { upstreamTimeoutMs: 60_000 } });

  it('aborts the partner call it caused', async () => {
    kit().simulator.injectFault({ operation: 'readInventory', kind: 'slow', delayMs: 30_000 });
    const client = new AbortController();
    const request = fetch(kit().graphqlUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${DEMO_ACCESS_TOKEN}`,
        'x-request-id': 'client-that-leaves',
      },
      body: JSON.stringify({ query: `{ inventory(platformId: "${PLATFORM_ID}", appId: ${APP_ID}) { totalCount } }` }),
      signal: client.signal,
    }).then(
      () => 'answered',
      () => 'aborted',
    );
    await vi.waitFor(() => expect(kit().simulator.callsOf('readInventory')).toHaveLength(1), { timeout: 10_000 });
    client.abort();
    expect(await request).toBe('aborted');
    // The partner call ends now, not when the partner would have answered in 30 s or at the
    // 60 s timeout: the context's signal aborts when the client's connection closes.
    await vi.waitFor(
      () => {
        const ended = kit().logs
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find((line) => line.requestId === 'client-that-leaves' && line.outcome !== undefined);
        // Logged as the caller's doing (debug), not as a partner failure (warn) that would alert.
        expect(ended).toMatchObject({ operation: 'readInventory', attempts: 1, outcome: 'cancelled', level: 20 });
      },
      { timeout: 5000 },
    );
  });
});
