// Retries as an upstream policy: an idempotent call is tried again after a transient failure, at
// most the number of retries given; a call that is not idempotent, or a failure that is an
// answer, is tried once.
import { describe, expect, it } from 'vitest';
import { ForbiddenError, UpstreamUnavailableError } from '../../src/errors.js';
import { RetryableFailure } from '../../src/partner/error-from-response.js';
import { retryPolicy } from '../../src/partner/retry.js';
import { upstreamCall } from '../support/upstream-call.js';

/** A `next` that fails with each error given in turn, then answers 'page'. */
function failingThen(...errors: Error[]) {
  const attempts = { count: 0 };
  const next = () => {
    const error = errors[attempts.count++];
    return error ? Promise.reject(error) : Promise.resolve('page');
  };
  return { next, attempts };
}

const transient = () => new RetryableFailure(new UpstreamUnavailableError('readInventory', 'it answered HTTP 503'));

describe('retryPolicy', () => {
  it('tries an idempotent call again after transient failures', async () => {
    const { next, attempts } = failingThen(transient(), transient());
    expect(await retryPolicy(2).wrap(next)(upstreamCall())).toBe('page');
    expect(attempts.count).toBe(3);
  });

  it('gives up after the retries given, with the last failure', async () => {
    const { next, attempts } = failingThen(transient(), transient(), transient());
    await expect(retryPolicy(1).wrap(next)(upstreamCall())).rejects.toBeInstanceOf(RetryableFailure);
    expect(attempts.count).toBe(2);
  });

  it('sends a call that is not idempotent once', async () => {
    const { next, attempts } = failingThen(transient());
    await expect(retryPolicy(2).wrap(next)(upstreamCall({ method: 'POST', idempotent: false }))).rejects.toBeInstanceOf(RetryableFailure);
    expect(attempts.count).toBe(1);
  });

  it('does not try again a failure that is an answer', async () => {
    const { next, attempts } = failingThen(new ForbiddenError('The access token lacks the permission.'));
    await expect(retryPolicy(2).wrap(next)(upstreamCall())).rejects.toBeInstanceOf(ForbiddenError);
    expect(attempts.count).toBe(1);
  });
});
