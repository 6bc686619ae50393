// The client's departure as partner calls hear it (context.ts): only a response that closes before
// its answer was written is a departure; listeners added after it or removed before it behave as an
// AbortSignal's would.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { clientGoneSignal } from '../../src/context.js';

/** What clientGoneSignal reads of a node response: its `close` event, `closed` and `writableFinished`. */
class FakeResponse extends EventEmitter {
  closed = false;
  writableFinished = false;

  close({ finished }: { finished: boolean }): void {
    this.writableFinished = finished;
    this.closed = true;
    this.emit('close');
  }
}

const signalOf = (res: FakeResponse) => clientGoneSignal(res as unknown as ServerResponse);

describe('clientGoneSignal', () => {
  it('tells every listening call when the response closes before its answer was written', () => {
    const res = new FakeResponse();
    const signal = signalOf(res);
    const [first, second, removed] = [vi.fn(), vi.fn(), vi.fn()];
    signal.addEventListener('abort', first);
    signal.addEventListener('abort', removed);
    signal.addEventListener('abort', second);
    signal.removeEventListener('abort', removed);
    expect(signal.aborted).toBe(false);

    res.close({ finished: false });
    expect(signal.aborted).toBe(true);
    expect(first).toHaveBeenCalledOnce();
    expect(second).toHaveBeenCalledOnce();
    expect(removed).not.toHaveBeenCalled();
  });

  it('tells no one when the response closes after its answer was written', () => {
    const res = new FakeResponse();
    const signal = signalOf(res);
    const listener = vi.fn();
    signal.addEventListener('abort', listener);
    res.close({ finished: true });
    expect(signal.aborted).toBe(false);
    expect(listener).not.toHaveBeenCalled();
  });

  it('is aborted from the start when the response had already closed unanswered', () => {
    const res = new FakeResponse();
    res.close({ finished: false });
    expect(signalOf(res).aborted).toBe(true);
  });

  it('lets a listener remove itself while the departure is told', () => {
    const res = new FakeResponse();
    const signal = signalOf(res);
    const later = vi.fn();
    const selfRemoving = vi.fn(() => signal.removeEventListener('abort', selfRemoving));
    signal.addEventListener('abort', selfRemoving);
    signal.addEventListener('abort', later);
    res.close({ finished: false });
    expect(selfRemoving).toHaveBeenCalledOnce();
    expect(later).toHaveBeenCalledOnce();
  });
});
