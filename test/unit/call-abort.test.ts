// One partner call's abort signal: whichever limit comes first (the call's timeout, the operation's
// deadline, the client leaving) aborts it, and the signal says which; a deadline already passed
// aborts the call before it is sent; the timeout's clock starts once the call is at the partner.
import { describe, expect, it } from 'vitest';
import { CallAbort } from '../../src/partner/call-abort.js';

const aborted = (abort: CallAbort) =>
  new Promise<void>((resolve) => {
    if (abort.signal.aborted) resolve();
    else abort.signal.addEventListener('abort', () => resolve());
  });

describe('CallAbort', () => {
  it('aborts at the deadline when it comes before the call timeout', async () => {
    const abort = new CallAbort(60_000, undefined, performance.now() + 20);
    abort.atPartner();
    await aborted(abort);
    expect({ deadlinePassed: abort.deadlinePassed, timedOut: abort.timedOut, clientGone: abort.clientGone }).toEqual({
      deadlinePassed: true,
      timedOut: false,
      clientGone: false,
    });
    abort.dispose();
  });

  it('aborts at the call timeout when it comes before the deadline', async () => {
    const abort = new CallAbort(20, undefined, performance.now() + 60_000);
    abort.atPartner();
    await aborted(abort);
    expect({ deadlinePassed: abort.deadlinePassed, timedOut: abort.timedOut }).toEqual({ deadlinePassed: false, timedOut: true });
    abort.dispose();
  });

  it('starts the call timeout only once the call is at the partner: the wait for a connection is not timed here', async () => {
    const abort = new CallAbort(1, undefined, performance.now() + 60_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(abort.signal.aborted).toBe(false);
    abort.atPartner();
    await aborted(abort);
    expect(abort.timedOut).toBe(true);
    abort.dispose();
  });

  it('is aborted from the start when the deadline has already passed', () => {
    const abort = new CallAbort(60_000, undefined, performance.now() - 1);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.deadlinePassed).toBe(true);
    abort.dispose();
  });

  it('fires each listener once, with an AbortError as its reason, and forgets removed ones', () => {
    const client = new AbortController();
    const abort = new CallAbort(60_000, client.signal, performance.now() + 60_000);
    const heard: string[] = [];
    abort.signal.addEventListener('abort', () => heard.push('kept'));
    const removed = () => heard.push('removed');
    abort.signal.addEventListener('abort', removed);
    abort.signal.removeEventListener('abort', removed);
    client.abort();
    // The client's signal telling of its abort again is no second abort of the call.
    client.signal.dispatchEvent(new Event('abort'));
    expect(heard).toEqual(['kept']);
    expect(abort.signal.reason).toBeInstanceOf(DOMException);
    expect(abort.signal.reason?.name).toBe('AbortError');
    abort.dispose();
  });

  it('aborts when the client goes away, and not after it is disposed', async () => {
    const client = new AbortController();
    const abort = new CallAbort(60_000, client.signal, performance.now() + 60_000);
    expect(abort.signal.aborted).toBe(false);
    client.abort();
    expect({ aborted: abort.signal.aborted, clientGone: abort.clientGone, deadlinePassed: abort.deadlinePassed }).toEqual({
      aborted: true,
      clientGone: true,
      deadlinePassed: false,
    });
    abort.dispose();

    const other = new AbortController();
    const settled = new CallAbort(60_000, other.signal);
    settled.dispose();
    other.abort();
    expect(settled.signal.aborted).toBe(false);
  });
});
