// The facade's own connections to one upstream base, handed out one per call with a bounded wait:
// when none frees up in time the call is refused at once as the facade's saturation (OVERLOADED),
// never left to queue inside the pool until it times out as if the partner had failed. cockatiel's
// bulkhead bounds its queue's length but not the time spent in it, which is what matters here.
// Each call names its fault domains (its inventory, its caller), and one domain holds at most a
// share of the connections: one inventory's hung calls cannot take every connection from the rest.
// A call shared by several callers (coalesce.ts) is made for each of them, and takes a connection
// under the share of any of them that has room: no caller is refused for another caller's share.
import { OverloadedError } from '../errors.js';
import type { UpstreamCall, UpstreamPolicy } from './call.js';
import { ConnectionClaims } from './connection-claims.js';

interface Waiter {
  claims: ConnectionClaims;
  grant: (release: () => void) => void;
  refuse: (error: Error) => void;
  done: boolean;
}

export class ConnectionSlots {
  private free: number;
  private readonly waiters: Waiter[] = [];
  /** Slots held, per domain that holds any. */
  private readonly held = new Map<string, number>();

  /**
   * `size` connections; a call waits at most `waitMs` for one; one domain holds at most `perDomain`.
   */
  constructor(
    readonly size: number,
    private readonly waitMs: number,
    readonly perDomain: number,
  ) {
    this.free = size;
  }

  /**
   * A slot's release function, or OverloadedError once `waitMs` (or the time left before
   * `deadlineAt`, on performance.now()'s clock) has passed without one; aborts with `signal`. The
   * slot counts against the first of `claims` whose domains have room (a plain list: one claim).
   */
  acquire(signal?: AbortSignal, claims: ConnectionClaims | readonly string[] = [], deadlineAt?: number): Promise<() => void> {
    if (!(claims instanceof ConnectionClaims)) claims = new ConnectionClaims(claims);
    const domains = this.waiters.length === 0 ? this.admitting(claims) : undefined;
    if (domains !== undefined) return Promise.resolve(this.take(domains));
    const waitMs = Math.max(0, Math.min(this.waitMs, deadlineAt === undefined ? Infinity : deadlineAt - performance.now()));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        claims,
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
              `No connection to the partner API came free for this call within ${Math.round(waitMs)} ms ` +
                `(${this.size} in all, at most ${this.perDomain} for one inventory or caller); retry shortly.`,
              1,
            ),
          ),
        waitMs,
      );
      const settle = () => {
        waiter.done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        waiter.claims.watch(undefined);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort);
      // A caller joining the call while it waits may have room in its own share.
      claims.watch(() => this.grantWaiters());
      this.waiters.push(waiter);
      // Earlier waiters may all be held back by their domains' shares while this one is not.
      this.grantWaiters();
    });
  }

  /** The first claimed set of domains all under their share, when a slot is free; undefined otherwise. */
  private admitting(claims: ConnectionClaims): readonly string[] | undefined {
    if (this.free === 0) return undefined;
    for (const domains of claims) if (domains.every((domain) => (this.held.get(domain) ?? 0) < this.perDomain)) return domains;
    return undefined;
  }

  private take(domains: readonly string[]): () => void {
    this.free -= 1;
    for (const domain of domains) this.held.set(domain, (this.held.get(domain) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.free += 1;
      for (const domain of domains) {
        const count = this.held.get(domain)! - 1;
        if (count === 0) this.held.delete(domain);
        else this.held.set(domain, count);
      }
      this.grantWaiters();
    };
  }

  /** Hands free slots to the oldest waiters whose domains are under their share; drops settled ones. */
  private grantWaiters(): void {
    let kept = 0;
    for (let index = 0; index < this.waiters.length; index++) {
      const waiter = this.waiters[index]!;
      if (waiter.done) continue;
      const domains = this.admitting(waiter.claims);
      if (domains !== undefined) waiter.grant(this.take(domains));
      else this.waiters[kept++] = waiter;
    }
    this.waiters.length = kept;
  }
}

/**
 * The connection slots as an upstream policy: a call holds one of `slots` from before it reaches
 * the pool until it settles, against the connection domains of one of its callers (its claims).
 * The wait is the facade's own saturation, so this policy goes outside the timeout and the
 * breaker: it neither runs the clock at the partner nor counts toward the circuit.
 */
export function connectionSlotPolicy<Call extends UpstreamCall>(slots: ConnectionSlots): UpstreamPolicy<Call> {
  return {
    wrap: (next) => async (upstream) => {
      const release = await slots.acquire(upstream.abort.signal, upstream.claims);
      try {
        return await next(upstream);
      } finally {
        release();
      }
    },
  };
}
