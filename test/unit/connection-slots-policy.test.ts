// The connection slots as an upstream policy: a call goes on only once it holds a slot, gives it
// back when it settles (failed or not), and is refused OVERLOADED when none comes free in time; a
// call shared by several callers may take a slot under the share of any of them.
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

  it("admits a waiting call under a joined caller's share, and no longer once that caller took its share back", async () => {
    const { next, calls, settles } = pendingNext();
    const send = connectionSlotPolicy(new ConnectionSlots(4, 60_000, 1)).wrap(next);
    void send(upstreamCall({ connectionDomains: ['caller a'] }));
    const other = upstreamCall({ connectionDomains: ['caller c'] }, { key: 'fee 2' });
    const otherDone = send(other);
    await expect.poll(() => calls.length).toBe(2);
    const waiting = upstreamCall({ connectionDomains: ['caller a'] }, { key: 'fee 3' });
    void send(waiting);
    // A caller whose share is full joins, then leaves; its share frees only after it left.
    const withdraw = waiting.claims.add(['caller c']);
    withdraw();
    settles[1]!.resolve('fee 2');
    await otherDone;
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(2);
    // A caller with room joins: the call goes now, under that caller's share.
    waiting.claims.add(['caller b']);
    await expect.poll(() => calls.length).toBe(3);
    expect(calls[2]).toBe(waiting);
  });
});
