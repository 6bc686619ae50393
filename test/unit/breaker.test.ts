// The breaker remembers which inventories and callers failed, to tell one broken inventory from an
// outage. Those values are the clients' to choose: it must forget them as the window passes, also
// while the circuit stays closed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UpstreamUnavailableError } from '../../src/errors.js';
import { PartnerCircuit } from '../../src/partner/breaker.js';

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
});
