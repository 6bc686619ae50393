// Partner failures become typed GraphQL errors on the field that needed the data, with partial
// data for the fields that did not. One case per error code.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InventoryTotalDocument } from '../generated/graphql.js';
import { errorCodes, startTestkit, type Testkit } from '../support/testkit.js';
import type { Fault } from '../../src/simulator/server.js';

const inventory = { platformId: '76561198000000012', appId: 730 };

// A service per test: outage faults count towards the circuit breaker, which would otherwise
// carry one test's failures into the next.
let kit: Testkit;
beforeEach(async () => {
  kit = await startTestkit({ config: { upstreamTimeoutMs: 300 } });
});
afterEach(async () => {
  await kit.close();
});

describe.each<[string, Omit<Fault, 'operation'>]>([
  ['UPSTREAM_ERROR', { kind: 'envelope-error' }],
  ['UPSTREAM_BAD_RESPONSE', { kind: 'non-json' }],
  ['UPSTREAM_BAD_RESPONSE', { kind: 'html' }],
  ['UPSTREAM_BAD_RESPONSE', { kind: 'truncated-json' }],
  ['UPSTREAM_BAD_RESPONSE', { kind: 'bad-shape' }],
  ['UPSTREAM_UNAVAILABLE', { kind: 'http-500' }],
  ['UPSTREAM_UNAVAILABLE', { kind: 'reset' }],
  ['UPSTREAM_TIMEOUT', { kind: 'slow', delayMs: 2_000 }],
  ['UNAUTHENTICATED', { kind: 'http-401' }],
  ['FORBIDDEN', { kind: 'http-403' }],
  ['RATE_LIMITED', { kind: 'http-429', retryAfter: 12 }],
])('%s from %o', (code, fault) => {
  it('lands on the field, typed', async () => {
    kit.simulator.injectFault({ ...fault, operation: 'readInventory' });
    const result = await kit.execute(InventoryTotalDocument, inventory);
    expect(errorCodes(result)).toEqual([code]);
    expect(result.errors![0]!.path).toEqual(['inventory', 'totalCount']);
    // The sibling `id` needs no partner call and keeps its data.
    expect(result.data).toEqual({ inventory: { id: expect.any(String), totalCount: null } });
  });
});

describe('error details', () => {
  it('carries the envelope’s error fields as sent', async () => {
    kit.simulator.injectFault({ kind: 'envelope-error', operation: 'readInventory' });
    const result = await kit.execute(InventoryTotalDocument, inventory);
    expect(result.errors![0]!.extensions).toEqual({
      code: 'UPSTREAM_ERROR',
      upstream: {
        errorCode: 10_086,
        errorCodeStr: 'INVENTORY_READ_FAILED',
        errorMsg: '用户库存读取失败 (simulated)',
        errorData: { hint: 'simulated envelope error' },
      },
    });
    expect(result.errors![0]!.message).toBe(
      "The partner API refused 'readInventory' with error code 10086: 用户库存读取失败 (simulated).",
    );
  });

  it('carries Retry-After as retryAfter seconds', async () => {
    kit.simulator.injectFault({ kind: 'http-429', retryAfter: 12, operation: 'readInventory' });
    const result = await kit.execute(InventoryTotalDocument, inventory);
    expect(result.errors![0]!.extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: 12 });
  });

  it('answers UPSTREAM_UNAVAILABLE when nothing listens at the partner URL', async () => {
    const closed = await startTestkit();
    const deadUrl = closed.simulator.url;
    await closed.close();
    const orphan = await startTestkit({ config: { partnerApiUrl: deadUrl, partnerOpenApiUrl: deadUrl } });
    try {
      const result = await orphan.execute(InventoryTotalDocument, inventory);
      expect(errorCodes(result)).toEqual(['UPSTREAM_UNAVAILABLE']);
    } finally {
      await orphan.close();
    }
  });

  it('keeps sibling fields’ data when one inventory fails', async () => {
    kit.simulator.injectFault({ kind: 'http-403', operation: 'readInventory', times: 1 });
    const response = await kit.post({
      query: `{
        a: inventory(platformId: "76561198000000012", appId: 730) { totalCount }
        b: inventory(platformId: "76561198000000034", appId: 730) { totalCount }
      }`,
    });
    const result = (await response.json()) as { data: Record<string, { totalCount: number | null }>; errors: unknown[] };
    expect(result.errors).toHaveLength(1);
    // Which of the two concurrent calls meets the fault is up to the network; one fails, one does not.
    const totals = [result.data.a!.totalCount, result.data.b!.totalCount];
    expect(totals.filter((total) => total === null)).toHaveLength(1);
    expect(totals.filter((total) => total !== null)[0]).toBeOneOf([12, 34]);
  });
});
