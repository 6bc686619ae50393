// Coalescing as an upstream policy: an identical call in flight is joined rather than sent, the
// joiner is told of it, and the shared call's abort is abandoned only when its last caller leaves.
import { describe, expect, it } from 'vitest';
import { coalescingPolicy, WaiterLeft } from '../../src/partner/coalesce.js';
import type { UpstreamCall } from '../../src/partner/call.js';
import { pendingNext, upstreamCall } from '../support/upstream-call.js';

describe('coalescingPolicy', () => {
  it('sends one call per key, answers every caller with it and tells of each that joined', async () => {
    const joined: UpstreamCall[] = [];
    const { next, calls, settles } = pendingNext();
    const send = coalescingPolicy((upstream) => void joined.push(upstream)).wrap(next);
    const [first, second, other] = [upstreamCall(), upstreamCall(), upstreamCall({}, { key: 'read 2' })];
    const answers = [send(first), send(second), send(other)];
    expect(calls).toEqual([first, other]);
    expect(joined).toEqual([second]);
    settles[0]!.resolve('page 1');
    settles[1]!.resolve('page 2');
    expect(await Promise.all(answers)).toEqual(['page 1', 'page 1', 'page 2']);
    // Once settled, the same key is sent again.
    void send(upstreamCall());
    expect(calls).toHaveLength(3);
  });

  it("abandons the shared call's abort only when its last caller has left", async () => {
    const { next, calls } = pendingNext();
    const send = coalescingPolicy().wrap(next);
    const [leaving, staying] = [new AbortController(), new AbortController()];
    const first = upstreamCall({ signal: leaving.signal });
    const answers = [send(first), send(upstreamCall({ signal: staying.signal }))].map((answer) => answer.catch((error: unknown) => error));
    leaving.abort();
    expect(await answers[0]).toBeInstanceOf(WaiterLeft);
    expect(calls[0]!.abort.signal.aborted).toBe(false);
    staying.abort();
    expect(await answers[1]).toMatchObject({ departure: 'clientGone', atPartner: false });
    expect(first.abort.signal.aborted).toBe(true);
    expect(first.abort.clientGone).toBe(true);
  });
});
