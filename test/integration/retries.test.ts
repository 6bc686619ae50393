// Retries and the circuit breaker over real HTTP, counted in the simulator's call records: GETs
// retried on gateway errors and resets only, a bounded number of times within the timeout; the fee
// POST never; a breaker that opens after repeated outages and closes after a successful probe.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CalculateListingFeeDocument, InventoryTotalDocument } from '../generated/graphql.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, useTestkit, type Testkit } from '../support/testkit.js';
import { DEMO_APP_ID, DEMO_PLATFORM_ID, platformIdWithSize } from '../../src/simulator/data.js';
import { startSimulator, type FaultKind, type PartnerSimulator } from '../../src/simulator/server.js';

const APP_ID = DEMO_APP_ID;
const PLATFORM_ID = DEMO_PLATFORM_ID;
const MAX_RETRIES = 2;

const readTotal = (kit: Testkit) => kit.execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID });
const calculateFee = (kit: Testkit) => kit.execute(CalculateListingFeeDocument, { input: { items: [{ price: 500 }] } });

describe('retries', () => {
  const kit = useTestkit({
    config: { upstreamMaxRetries: MAX_RETRIES, upstreamTimeoutMs: 5000 },
  });
  const inventoryCalls = () => kit().simulator.callsOf('readInventory');

  it.each(['http-502', 'http-503', 'http-504', 'reset'] as const)(
    'retries a GET after %s and answers from the retry',
    async (kind) => {
      kit().simulator.injectFault({ operation: 'readInventory', kind, times: MAX_RETRIES });
      const result = await readTotal(kit());
      expectNoGraphQLErrors(result);
      expect(result.data.inventory!.totalCount).toBe(240);
      expect(inventoryCalls().map((call) => call.fault ?? 'ok')).toEqual([kind, kind, 'ok']);
    },
  );

  it('gives up after UPSTREAM_MAX_RETRIES retries', async () => {
    kit().simulator.injectFault({ operation: 'readInventory', kind: 'http-503' });
    const result = await readTotal(kit());
    expect(errorCodes(result)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(inventoryCalls()).toHaveLength(1 + MAX_RETRIES);
  });

  it.each(['http-500', 'http-401', 'http-403', 'http-429', 'non-json', 'envelope-error'] as const)(
    'does not retry a GET after %s',
    async (kind: FaultKind) => {
      kit().simulator.injectFault({ operation: 'readInventory', kind, times: 1 });
      const result = await readTotal(kit());
      expect(result.errors).toHaveLength(1);
      expect(inventoryCalls()).toHaveLength(1);
    },
  );

  it.each(['http-502', 'http-503', 'http-504', 'reset'] as const)(
    'never retries the listing-fee POST, even after %s',
    async (kind) => {
      kit().simulator.injectFault({ operation: 'calculateListingFee', kind, times: 1 });
      const result = await calculateFee(kit());
      expect(errorCodes(result)).toEqual(['UPSTREAM_UNAVAILABLE']);
      expect(kit().simulator.callsOf('calculateListingFee')).toHaveLength(1);
    },
  );
});

describe('retries within the overall timeout', () => {
  // Ten retries with backoff cannot fit in 1200 ms: their backoff delays alone (decorrelated
  // jitter from 50 ms, at most 400 ms each) add up to 1.48 s at the very least, so the timeout ends
  // them; and 1200 ms leave a loaded machine ample time for the first retry.
  const kit = useTestkit({ config: { upstreamMaxRetries: 10, upstreamTimeoutMs: 1200 } });

  it('stops retrying when UPSTREAM_TIMEOUT_MS is spent, and says so', async () => {
    kit().simulator.injectFault({ operation: 'readInventory', kind: 'http-503' });
    const result = await readTotal(kit());
    expect(errorCodes(result)).toEqual(['UPSTREAM_TIMEOUT']);
    const calls = kit().simulator.callsOf('readInventory').length;
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThan(11);
  });

  it('never retries the listing-fee POST after a timeout', async () => {
    kit().simulator.reset({ faults: [{ operation: 'calculateListingFee', kind: 'slow', delayMs: 5000, times: 1 }] });
    expect(errorCodes(await calculateFee(kit()))).toEqual(['UPSTREAM_TIMEOUT']);
    expect(kit().simulator.callsOf('calculateListingFee')).toHaveLength(1);
  });
});

describe('circuit breaker', () => {
  const MIN_CALLS = 3;
  // The half-open wait runs on Date's clock (the breaker's and cockatiel's): the test holds that
  // clock still while the circuit is open and moves it past the wait instead of sleeping.
  const HALF_OPEN_MS = 30_000;
  let kit: Testkit;
  let feeSimulator: PartnerSimulator;
  beforeAll(async () => {
    // Listing fees come from a second base (a second simulator), which has a circuit of its own.
    feeSimulator = await startSimulator();
    kit = await startTestkit({
      config: {
        upstreamMaxRetries: 0,
        upstreamBreakerMinCalls: MIN_CALLS,
        upstreamBreakerMinDistinct: MIN_CALLS,
        upstreamBreakerHalfOpenMs: HALF_OPEN_MS,
        partnerOpenApiUrl: feeSimulator.url,
      },
    });
  });
  afterAll(async () => {
    await kit.close();
  });
  afterAll(async () => {
    await feeSimulator.close();
  });

  /** Reads the total of the n-th caller's own inventory: a distinct inventory and token each. */
  const readOwnTotal = (n: number) =>
    kit.execute(InventoryTotalDocument, { platformId: platformIdWithSize(10 + n), appId: APP_ID }, { token: `caller-${n}-token` });

  it('opens after outages across several callers, answers at once with retryAfter, and closes after a probe', async () => {
    // Each caller is one the partner has accepted: made-up tokens are one unproven caller
    // (partner-evidence.test.ts). One outage more than the successes passes the ratio of one half.
    for (let n = 0; n < MIN_CALLS; n++) expectNoGraphQLErrors(await readOwnTotal(n));
    kit.simulator.reset({ faults: [{ operation: 'readInventory', kind: 'http-503' }] });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const opening = Date.now();
      for (let n = 0; n <= MIN_CALLS; n++) {
        expect(errorCodes(await readOwnTotal(n % MIN_CALLS))).toEqual(['UPSTREAM_UNAVAILABLE']);
      }
      expect(kit.simulator.callsOf('readInventory')).toHaveLength(MIN_CALLS + 1);

      // Open: answered without a partner call, so a failing partner is not hammered.
      const whileOpen = await readTotal(kit);
      expect(errorCodes(whileOpen)).toEqual(['UPSTREAM_UNAVAILABLE']);
      expect(whileOpen.errors![0]!.message).toContain('circuit is open');
      // retryAfter: the whole seconds left of the half-open time, all of it while the clock stands still.
      expect(whileOpen.errors![0]!.extensions).toMatchObject({ retryAfter: HALF_OPEN_MS / 1000 });
      expect(kit.simulator.callsOf('readInventory')).toHaveLength(MIN_CALLS + 1);

      // The circuit belongs to the inventory base: listing fees, on the other base, still flow.
      expectNoGraphQLErrors(await calculateFee(kit));
      expect(feeSimulator.callsOf('calculateListingFee')).toHaveLength(1);

      // The partner recovers. Until the half-open time has passed the circuit stays open, the
      // partner uncalled; then one probe goes through and closes it.
      kit.simulator.reset();
      vi.setSystemTime(opening + HALF_OPEN_MS - 1);
      const lastOpen = await readTotal(kit);
      expect(errorCodes(lastOpen)).toEqual(['UPSTREAM_UNAVAILABLE']);
      expect(lastOpen.errors![0]!.extensions).toMatchObject({ retryAfter: 1 });
      expect(kit.simulator.callsOf('readInventory')).toHaveLength(0);
      vi.setSystemTime(opening + HALF_OPEN_MS);
      expectNoGraphQLErrors(await readTotal(kit));
      expectNoGraphQLErrors(await readTotal(kit));
      expect(kit.simulator.callsOf('readInventory')).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts only outages: 4xx answers and envelope errors never open it', async () => {
    kit.simulator.reset();
    await vi.waitFor(async () => expectNoGraphQLErrors(await readTotal(kit)), { timeout: HALF_OPEN_MS + 5000, interval: 100 });
    kit.simulator.reset({ faults: [{ operation: 'readInventory', kind: 'http-429', times: MIN_CALLS }] });
    kit.simulator.injectFault({ operation: 'readInventory', kind: 'envelope-error', times: MIN_CALLS });
    for (let n = 0; n < 2 * MIN_CALLS; n++) {
      expect(errorCodes(await readOwnTotal(n))).not.toContain('UPSTREAM_UNAVAILABLE');
    }
    expectNoGraphQLErrors(await readTotal(kit));
    expect(kit.simulator.callsOf('readInventory')).toHaveLength(2 * MIN_CALLS + 1);
  });
});
