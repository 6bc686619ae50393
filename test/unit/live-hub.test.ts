// The live poller's schedule on a fake clock: one run per interval for every subscriber of a
// selection, jitter that only lengthens the wait, back-off while reads fail, and no timer once the
// last subscriber leaves; with a relay, a follower delivers what it hears and reads only what goes quiet.
import type { ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { LiveHub, type LiveClock } from '../../src/live/hub.js';

class FakeClock implements LiveClock {
  time = 0;
  readonly timers = new Map<number, { at: number; run: () => void }>();
  #next = 1;
  now = () => this.time;
  setTimeout = (run: () => void, ms: number) => {
    const id = this.#next++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  };
  clearTimeout = (timer: unknown) => void this.timers.delete(timer as number);
  /** The wait of the one pending timer. */
  get pendingWait(): number {
    const [timer] = [...this.timers.values()];
    return timer!.at - this.time;
  }
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
      await flush();
    }
    this.time = end;
  }
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

const INTERVAL = 1000;

function setup(answer: () => ExecutionResult, random = () => 0) {
  const clock = new FakeClock();
  let runs = 0;
  const hub = new LiveHub({ intervalMs: INTERVAL, clock, random });
  const spec = {
    key: 'page',
    run: async () => {
      runs += 1;
      return answer();
    },
  };
  return { clock, hub, spec, runs: () => runs };
}

async function collect(iterator: AsyncIterableIterator<ExecutionResult>, into: ExecutionResult[]) {
  for await (const event of iterator) into.push(event);
}

describe('LiveHub', () => {
  it('runs a selection once per interval for all its subscribers, and sends only changes', async () => {
    let total = 1;
    const { clock, hub, spec, runs } = setup(() => ({ data: { total } }));
    const seen: ExecutionResult[][] = [[], [], []];
    const iterators = seen.map((events) => {
      const iterator = hub.subscribe('group', spec);
      void collect(iterator, events);
      return iterator;
    });
    await flush();
    expect(runs()).toBe(1);
    expect(seen.map((events) => events.length)).toEqual([1, 1, 1]);
    await clock.advance(INTERVAL * 3);
    expect(runs()).toBe(4);
    expect(seen.map((events) => events.length)).toEqual([1, 1, 1]);
    total = 2;
    await clock.advance(INTERVAL);
    expect(seen.map((events) => events.at(-1)?.data)).toEqual([{ total: 2 }, { total: 2 }, { total: 2 }]);
    for (const iterator of iterators) await iterator.return!();
    await flush();
    expect(hub.groups).toBe(0);
    expect(clock.timers.size).toBe(0);
  });

  it('lengthens the wait by its jitter, never shortens it', async () => {
    const { clock, hub, spec } = setup(() => ({ data: {} }), () => 0.999);
    const iterator = hub.subscribe('group', spec);
    void collect(iterator, []);
    await flush();
    expect(clock.pendingWait).toBeGreaterThanOrEqual(INTERVAL);
    expect(clock.pendingWait).toBeLessThanOrEqual(INTERVAL * 1.1);
    await iterator.return!();
  });

  it('backs off while reads fail upstream, up to 8 intervals, and returns to the interval after a good read', async () => {
    let failing = true;
    const { clock, hub, spec } = setup(() =>
      failing ? { errors: [{ message: 'down', extensions: { code: 'UPSTREAM_UNAVAILABLE' } }] as never } : { data: { ok: true } },
    );
    const iterator = hub.subscribe('group', spec);
    void collect(iterator, []);
    await flush();
    // The first read failed: the interval stays until a poll fails.
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      waits.push(clock.pendingWait);
      await clock.advance(clock.pendingWait);
    }
    expect(waits).toEqual([INTERVAL, INTERVAL * 2, INTERVAL * 4, INTERVAL * 8, INTERVAL * 8]);
    failing = false;
    await clock.advance(clock.pendingWait);
    expect(clock.pendingWait).toBe(INTERVAL);
    await iterator.return!();
  });

  it('ends every subscription of a group whose token the partner refuses', async () => {
    const { hub, spec, clock } = setup(() => ({ errors: [{ message: 'no', extensions: { code: 'UNAUTHENTICATED' } }] as never }));
    const events: ExecutionResult[] = [];
    await Promise.all([collect(hub.subscribe('group', spec), events), collect(hub.subscribe('group', spec), events)]);
    expect(events).toHaveLength(2);
    expect(hub.subscribers).toBe(0);
    expect(clock.timers.size).toBe(0);
  });

  it('with a relay, a follower delivers what it hears instead of running, and runs a selection the holder stopped publishing', async () => {
    const clock = new FakeClock();
    let runs = 0;
    let hear: (results: [string, ExecutionResult][]) => void = () => undefined;
    // Another replica holds the lease.
    const relay = { lead: async () => false, release: () => undefined, publish: () => undefined, listen: (_group: string, heard: typeof hear) => void (hear = heard), unlisten: () => undefined, close: () => undefined };
    const hub = new LiveHub({ intervalMs: INTERVAL, clock, random: () => 0, relay });
    const events: ExecutionResult[] = [];
    void collect(hub.subscribe('group', { key: 'page', run: async () => ({ data: { total: ++runs } }) }), events);
    await flush();
    expect(runs).toBe(1);
    for (let total = 10; total < 13; total++) {
      hear([['page', { data: { total } }]]);
      await clock.advance(INTERVAL);
    }
    expect(runs).toBe(1);
    expect(events.map((event) => event.data)).toEqual([{ total: 1 }, { total: 10 }, { total: 11 }, { total: 12 }]);
    // The holder goes quiet: past two intervals without a result, the follower reads itself.
    await clock.advance(INTERVAL * 3);
    expect(runs).toBeGreaterThan(1);
    hub.close();
  });

  it('with a relay, the holder asks Redis for the lease once per poll, long enough to cover its read, publishes each poll, and gives the lease up when the last subscriber leaves', async () => {
    const clock = new FakeClock();
    const calls: string[] = [];
    const leaseTimes: number[] = [];
    const relay = {
      lead: async (_group: string, ttlMs: number) => (calls.push('lead'), leaseTimes.push(ttlMs), true),
      release: () => void calls.push('release'),
      publish: () => void calls.push('publish'),
      listen: () => undefined,
      unlisten: () => undefined,
      close: () => undefined,
    };
    const hub = new LiveHub({ intervalMs: INTERVAL, clock, random: () => 0, relay });
    let runs = 0;
    const events = hub.subscribe('group', { key: 'page', run: async () => ({ data: { total: ++runs } }) });
    const first = events.next();
    await flush();
    await first;
    await clock.advance(INTERVAL * 3);
    expect(runs).toBe(4);
    // The first read answers at once, without the lease; each later poll asked for it once, when scheduled.
    expect(calls.filter((call) => call === 'lead')).toHaveLength(4);
    expect(calls.filter((call) => call === 'publish')).toHaveLength(3);
    // Each lease outlasts the wait before its poll by a follower's quiet time: a slow read is still covered.
    expect(leaseTimes).toEqual(leaseTimes.map(() => INTERVAL + 2 * INTERVAL));
    await events.return?.();
    await flush();
    expect(calls.at(-1)).toBe('release');
  });
});
