// A partner call as the upstream policies see it (src/partner/call.ts), for their unit tests, and
// a `next` whose answers the test gives one by one.
import { CallAbort } from '../../src/partner/call-abort.js';
import type { PartnerCall, UpstreamCall } from '../../src/partner/call.js';
import { ConnectionClaims } from '../../src/partner/connection-claims.js';

/** An idempotent read shared in flight unless `call` says otherwise; `key` identifies its answer; `timeoutMs` its timeout at the partner. */
export function upstreamCall(call: Partial<PartnerCall> = {}, { key = 'read 1', timeoutMs = 60_000 } = {}): UpstreamCall {
  const whole: PartnerCall = { operation: 'readInventory', method: 'GET', segments: ['inventory'], idempotent: true, shareInFlight: true, maxResponseBytes: 1_000, ...call };
  return {
    call: whole,
    info: { operation: whole.operation, method: whole.method, origin: 'http://127.0.0.1:1', path: '/inventory' },
    key,
    abort: new CallAbort(timeoutMs),
    claims: new ConnectionClaims(whole.connectionDomains),
  };
}

/** A `next` that records each call it is given and answers it when the test says. */
export function pendingNext() {
  const calls: UpstreamCall[] = [];
  const settles: { resolve: (value: unknown) => void; reject: (error: unknown) => void }[] = [];
  const next = (upstream: UpstreamCall) => {
    calls.push(upstream);
    return new Promise<unknown>((resolve, reject) => settles.push({ resolve, reject }));
  };
  return { next, calls, settles };
}
