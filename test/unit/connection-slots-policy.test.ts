// The connection slots as an upstream policy: a call goes on only once it holds a slot, gives it
// back when it settles (failed or not), and is refused OVERLOADED when none comes free in time.
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors.js';
import { ConnectionSlots, connectionSlotPolicy } from '../../src/partner/connection-slots.js';
import { pendingNext, upstreamCall } from '../support/upstream-call.js';

describe('connectionSlotPolicy', () => {
  it('lets a call on only while it holds a slot, and frees the slot when the call fails', async () => {
    const { next, calls, settles } = pendingNext();
    const send = connectionSlotPolicy(new ConnectionSlots(1, 60_000, 1)).wrap(next);
    const first = send(upstreamCall()).catch((error: unknown) => error);
    const second = send(upstreamCall({}, { key: 'read 2' }));
    await expect.poll(() => calls.length).toBe(1);
    settles[0]!.reject(new Error('the partner failed'));
    expect(await first).toMatchObject({ message: 'the partner failed' });
    await expect.poll(() => calls.length).toBe(2);
    settles[1]!.resolve('page 2');
    expect(await second).toBe('page 2');
  });

  it('refuses a call OVERLOADED when no slot of its domain comes free in time, and never sends it', async () => {
    const { next, calls } = pendingNext();
    const send = connectionSlotPolicy(new ConnectionSlots(4, 50, 1)).wrap(next);
    void send(upstreamCall({ connectionDomains: ['inventory 1'] }));
    const refused = send(upstreamCall({ connectionDomains: ['inventory 1'] }, { key: 'read 2' }));
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.OVERLOADED });
    expect(calls).toHaveLength(1);
  });
});
