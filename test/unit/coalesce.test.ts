// The keyed map of partner calls in flight: identical calls share one, a waiter that leaves stops
// waiting alone, and the call is abandoned only when its last waiter has left.
import { describe, expect, it } from 'vitest';
import { InFlightCalls, WaiterLeft, type Departure } from '../../src/partner/coalesce.js';

/** A call whose answer the test gives, and which records its abandonment. */
function pendingCall() {
  let answer!: (value: string) => void;
  const result = new Promise<string>((resolve) => (answer = resolve));
  const abandoned: Departure[] = [];
  const start = () => ({ result, abandon: (departure: Departure) => void abandoned.push(departure), atPartner: () => true });
  return { start, answer, abandoned };
}

describe('InFlightCalls', () => {
  it('starts one call per key and answers every waiter with it', async () => {
    const calls = new InFlightCalls();
    const first = pendingCall();
    let joined = 0;
    const waiting = [1, 2, 3].map(() => calls.run('k', {}, first.start, () => (joined += 1)));
    const other = pendingCall();
    const elsewhere = calls.run('other', {}, other.start);
    expect(joined).toBe(2);
    expect(calls.size).toBe(2);
    first.answer('a');
    other.answer('b');
    expect(await Promise.all(waiting)).toEqual(['a', 'a', 'a']);
    expect(await elsewhere).toBe('b');
    expect(calls.size).toBe(0);
  });

  it('lets a waiter leave alone, and abandons the call when the last one leaves', async () => {
    const calls = new InFlightCalls();
    const call = pendingCall();
    const leaving = [new AbortController(), new AbortController()];
    const [a, b] = leaving.map((controller) => calls.run('k', { signal: controller.signal }, call.start).catch((error: unknown) => error));
    leaving[0]!.abort();
    expect(await a).toBeInstanceOf(WaiterLeft);
    expect(call.abandoned).toEqual([]);
    leaving[1]!.abort();
    expect(await b).toMatchObject({ departure: 'clientGone' });
    expect(call.abandoned).toEqual(['clientGone']);
    // Abandoned: the next identical call starts afresh rather than joining it.
    const next = pendingCall();
    const fresh = calls.run('k', {}, next.start);
    next.answer('fresh');
    expect(await fresh).toBe('fresh');
  });

  it('treats a passed deadline as a departure of its own', async () => {
    const calls = new InFlightCalls();
    const call = pendingCall();
    const late = calls.run('k', { deadlineAt: performance.now() + 20 }, call.start).catch((error: unknown) => error);
    expect(await late).toMatchObject({ departure: 'deadline' });
    expect(call.abandoned).toEqual(['deadline']);
  });
});
