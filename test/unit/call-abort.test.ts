// One partner call's abort signal: its timeout, whose clock starts once the call is at the partner,
// or its abandonment once every caller waiting for it has gone (as a client's departure or as an
// operation's deadline) aborts it, once, and the signal says which.
import { describe, expect, it } from 'vitest';
import { CallAbort } from '../../src/partner/call-abort.js';

const aborted = (abort: CallAbort) =>
  new Promise<void>((resolve) => {
    if (abort.signal.aborted) resolve();
    else abort.signal.addEventListener('abort', () => resolve());
  });

const reasons = (abort: CallAbort) => ({ timedOut: abort.timedOut, deadlinePassed: abort.deadlinePassed, clientGone: abort.clientGone });

describe('CallAbort', () => {
  it('starts the call timeout only once the call is at the partner: the wait for a connection is not timed here', async () => {
    const abort = new CallAbort(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(abort.signal.aborted).toBe(false);
    expect(abort.reachedPartner).toBe(false);
    abort.atPartner();
    expect(abort.reachedPartner).toBe(true);
    await aborted(abort);
    expect(reasons(abort)).toEqual({ timedOut: true, deadlinePassed: false, clientGone: false });
    abort.dispose();
  });

  it('says which departure gave the call up: the deadline or the client', () => {
    const byDeadline = new CallAbort(60_000);
    byDeadline.abandon('deadline');
    expect({ aborted: byDeadline.signal.aborted, ...reasons(byDeadline) }).toEqual({ aborted: true, timedOut: false, deadlinePassed: true, clientGone: false });
    const byClient = new CallAbort(60_000);
    byClient.atPartner();
    byClient.abandon('clientGone');
    expect({ aborted: byClient.signal.aborted, ...reasons(byClient) }).toEqual({ aborted: true, timedOut: false, deadlinePassed: false, clientGone: true });
    byClient.dispose();
  });

  it('fires each listener once, with an AbortError as its reason, and forgets removed ones', () => {
    const abort = new CallAbort(60_000);
    const heard: string[] = [];
    abort.signal.addEventListener('abort', () => heard.push('kept'));
    const removed = () => heard.push('removed');
    abort.signal.addEventListener('abort', removed);
    abort.signal.removeEventListener('abort', removed);
    abort.abandon('clientGone');
    // A later departure is no second abort, and does not change what the first said.
    abort.abandon('deadline');
    expect(heard).toEqual(['kept']);
    expect(reasons(abort)).toEqual({ timedOut: false, deadlinePassed: false, clientGone: true });
    expect(abort.signal.reason).toBeInstanceOf(DOMException);
    expect(abort.signal.reason?.name).toBe('AbortError');
  });

  it('does not time out once disposed', async () => {
    const abort = new CallAbort(5);
    abort.atPartner();
    abort.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(abort.signal.aborted).toBe(false);
  });
});
