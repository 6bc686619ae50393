// The breaker remembers which inventories and callers failed, to tell one broken inventory from an
// outage. Those values are the clients' to choose: it must forget them as the window passes, also
// while the circuit stays closed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UpstreamUnavailableError } from '../../src/errors.js';
import { PartnerCircuit } from '../../src/partner/breaker.js';
import { RetryableFailure } from '../../src/partner/error-from-response.js';

const WINDOW_MS = 10_000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** One call for `inventory` that fails as an outage, or succeeds. */
const call = (circuit: PartnerCircuit, inventory: string, fails: boolean) =>
  circuit
    .execute({ inventory, caller: `caller of ${inventory}` }, async () => {
      if (fails) throw new UpstreamUnavailableError('readInventory', 'HTTP 503');
      return 'ok';
    })
    .catch(() => 'failed');

describe('the circuit breaker', () => {
  it('forgets failing inventories and callers once they leave the window, while the circuit stays closed', async () => {
    const circuit = new PartnerCircuit({ failureRatio: 0.5, windowMs: WINDOW_MS, minimumCalls: 20, minimumDistinct: 3, halfOpenAfterMs: 1_000 });
    // Half an hour of one failure in ten, each on an inventory never seen before: the circuit stays closed.
    for (let second = 0; second < 2_000; second++) {
      for (let call_ = 0; call_ < 9; call_++) await call(circuit, 'healthy', false);
      await call(circuit, `broken-${second}`, true);
      vi.advanceTimersByTime(1_000);
    }
    expect(circuit.state).toBe('closed');
    // What failed in the last window only: ten seconds, one failure a second, two dimensions.
    expect(circuit.failingValues).toBeLessThanOrEqual(2 * (WINDOW_MS / 1_000 + 1));
    expect(circuit.failingValues).toBeGreaterThan(0);
  });

  it("counts an unreachable partner from every caller, and one caller's answered failures only as its own", async () => {
    const options = { failureRatio: 0.5, windowMs: WINDOW_MS, minimumCalls: 10, minimumDistinct: 3, halfOpenAfterMs: 1_000 };
    const fail = (circuit: PartnerCircuit, error: Error) =>
      circuit.execute({ inventory: 'one', caller: 'unproven' }, () => Promise.reject(error)).catch(() => 'failed');
    // HTTP 500 for one inventory of one caller: answered, and that caller's alone.
    const answered = new PartnerCircuit(options);
    for (let n = 0; n < 30; n++) await fail(answered, new RetryableFailure(new UpstreamUnavailableError('readInventory', 'HTTP 500')));
    expect(answered.state).toBe('closed');
    // Refused connections: the same single caller opens it, as a fleet of new callers would.
    const refused = new PartnerCircuit(options);
    for (let n = 0; n < 30; n++) await fail(refused, new RetryableFailure(new UpstreamUnavailableError('readInventory', 'refused'), true));
    expect(refused.state).toBe('open');
    // Mixed: one caller's answered failures do not hold the circuit closed once enough are unreachable.
    const mixed = new PartnerCircuit(options);
    for (let n = 0; n < 10; n++) await fail(mixed, new RetryableFailure(new UpstreamUnavailableError('readInventory', 'HTTP 500')));
    expect(mixed.state).toBe('closed');
    for (let n = 0; n < 5; n++) await fail(mixed, new RetryableFailure(new UpstreamUnavailableError('readInventory', 'refused'), true));
    expect(mixed.state).toBe('open');
  });
});
