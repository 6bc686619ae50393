// The breaker as an upstream policy: an open circuit refuses a call without sending it; a closed
// one sends it and counts its outage against the call's fault domains.
import { describe, expect, it } from 'vitest';
import { ErrorCode, UpstreamUnavailableError } from '../../src/errors.js';
import { PartnerCircuit, circuitBreakerPolicy } from '../../src/partner/breaker.js';
import { upstreamCall } from '../support/upstream-call.js';

const OPTIONS = { failureRatio: 0.5, windowMs: 60_000, minimumCalls: 4, minimumDistinct: 2, halfOpenAfterMs: 60_000 };

describe('circuitBreakerPolicy', () => {
  it('sends calls while closed, counts their outages by fault domain, and refuses without sending once open', async () => {
    const circuit = new PartnerCircuit(OPTIONS);
    let sent = 0;
    const send = circuitBreakerPolicy(circuit).wrap(() => {
      sent += 1;
      return Promise.reject(new UpstreamUnavailableError('readInventory', 'it answered HTTP 503'));
    });
    for (let n = 0; n < 4; n++) {
      await send(upstreamCall({ faultDomains: { inventory: `inventory ${n}` } })).catch(() => undefined);
    }
    expect(sent).toBe(4);
    expect(circuit.state).toBe('open');
    const refused = send(upstreamCall({ faultDomains: { inventory: 'inventory 9' } }));
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.UPSTREAM_UNAVAILABLE, message: expect.stringContaining('circuit is open') });
    expect(sent).toBe(4);
  });

  it('passes an answer through and keeps the circuit closed', async () => {
    const circuit = new PartnerCircuit(OPTIONS);
    const send = circuitBreakerPolicy(circuit).wrap(() => Promise.resolve('page'));
    expect(await send(upstreamCall())).toBe('page');
    expect(circuit.state).toBe('closed');
  });
});
