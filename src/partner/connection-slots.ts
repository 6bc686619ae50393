// The facade's own connections to one upstream base, handed out one per call with a bounded wait:
// when none frees up in time the call is refused at once as the facade's saturation (OVERLOADED),
// never left to queue inside the pool until it times out as if the partner had failed. cockatiel's
// bulkhead bounds its queue's length but not the time spent in it, which is what matters here.
import { OverloadedError } from '../errors.js';
import type { LightAbortSignal } from './abort-signal.js';

interface Waiter {
  grant: (release: () => void) => void;
  refuse: (error: Error) => void;
  done: boolean;
}

export class ConnectionSlots {
  private free: number;
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly size: number,
    private readonly waitMs: number,
  ) {
    this.free = size;
  }

  /** A slot's release function, or OverloadedError after `waitMs`; aborts with `signal`. */
  acquire(signal?: LightAbortSignal): Promise<() => void> {
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        done: false,
        grant: (release) => {
          settle();
          resolve(release);
        },
        refuse: (error) => {
          settle();
          reject(error);
        },
      };
      const onAbort = () => waiter.refuse(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
      const timer = setTimeout(
        () =>
          waiter.refuse(
            new OverloadedError(
              `All ${this.size} connections to the partner API stayed busy for ${this.waitMs} ms; retry shortly.`,
              1,
            ),
          ),
        this.waitMs,
      );
      const settle = () => {
        waiter.done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort);
      this.waiters.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Handed straight to the oldest caller still waiting; refused waiters are skipped.
      let next = this.waiters.shift();
      while (next?.done) next = this.waiters.shift();
      if (next) next.grant(this.releaser());
      else this.free += 1;
    };
  }
}
