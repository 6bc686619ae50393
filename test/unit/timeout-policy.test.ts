// The timeout as an upstream policy: the call's clock starts when the policy lets it on (once it
// holds a connection), aborts a call that outlives it, and stops when the call settles.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { timeoutPolicy } from '../../src/partner/timeout.js';
import { pendingNext, upstreamCall } from '../support/upstream-call.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('timeoutPolicy', () => {
  it('starts the clock only when the call passes it, and aborts the call once the timeout has passed there', async () => {
    const upstream = upstreamCall({}, { timeoutMs: 1_000 });
    vi.advanceTimersByTime(5_000);
    expect(upstream.abort.reachedPartner).toBe(false);
    const { next, settles } = pendingNext();
    const answer = timeoutPolicy().wrap(next)(upstream);
    expect(upstream.abort.reachedPartner).toBe(true);
    vi.advanceTimersByTime(999);
    expect(upstream.abort.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(upstream.abort.signal.aborted).toBe(true);
    expect(upstream.abort.timedOut).toBe(true);
    settles[0]!.reject(new Error('aborted'));
    await expect(answer).rejects.toThrow('aborted');
  });

  it('stops the clock when the call settles', async () => {
    const upstream = upstreamCall({}, { timeoutMs: 1_000 });
    const { next, settles } = pendingNext();
    const answer = timeoutPolicy().wrap(next)(upstream);
    settles[0]!.resolve('page');
    expect(await answer).toBe('page');
    vi.advanceTimersByTime(10_000);
    expect(upstream.abort.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
