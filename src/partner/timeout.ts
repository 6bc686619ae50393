// The timeout of a partner call as an upstream policy: the call's clock (call-abort.ts) starts once
// it holds one of the facade's connections, so that it counts the time at the partner only, and
// stops when the call settles. Inside the connection slots, outside the breaker and the retries:
// one clock for every attempt of the call.
import type { UpstreamCall, UpstreamPolicy } from './call.js';

export function timeoutPolicy<Call extends UpstreamCall>(): UpstreamPolicy<Call> {
  return {
    wrap: (next) => async (upstream) => {
      upstream.abort.atPartner();
      try {
        return await next(upstream);
      } finally {
        upstream.abort.dispose();
      }
    },
  };
}
