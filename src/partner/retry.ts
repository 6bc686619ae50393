// Retries of idempotent partner calls as an upstream policy (cockatiel's retry): a transient
// failure (no answer, or a gateway that may recover: RetryableFailure) is tried again with an
// exponential backoff, until the call's abort fires; a call that is not idempotent (the fee POST)
// is sent once. Inside the breaker, which counts the call and its retries as one outcome.
import { ExponentialBackoff, handleWhen, retry } from 'cockatiel';
import type { UpstreamCall, UpstreamPolicy } from './call.js';
import { RetryableFailure } from './error-from-response.js';
import { UPSTREAM_RETRY_FIRST_DELAY_MS, UPSTREAM_RETRY_MAX_DELAY_MS } from '../tunables.js';

/** `maxRetries`: attempts after the first. */
export function retryPolicy<Call extends UpstreamCall>(maxRetries: number): UpstreamPolicy<Call> {
  const policy = retry(
    handleWhen((error) => error instanceof RetryableFailure),
    {
      maxAttempts: maxRetries,
      backoff: new ExponentialBackoff({ initialDelay: UPSTREAM_RETRY_FIRST_DELAY_MS, maxDelay: UPSTREAM_RETRY_MAX_DELAY_MS }),
    },
  );
  return {
    wrap: (next) => (upstream) => (upstream.call.idempotent ? policy.execute(() => next(upstream), upstream.abort.signal) : next(upstream)),
  };
}
