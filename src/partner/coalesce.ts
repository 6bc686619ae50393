// Concurrent identical partner calls share one: a burst of the same read (the same page for the
// same token, whatever fields each operation selects) costs the partner one call, not one per
// operation. A keyed map of the calls in flight, each with its waiters: a waiter that leaves (its
// client gone, its operation's deadline passed) stops waiting alone, and the call goes on for the
// others; only when every waiter has left is the call abandoned, so that nobody's connection is
// held for an answer nobody will read. A call is made for every waiter: one that joins while the
// call waits for a connection lends it its own share of the connections (connection-slots.ts), so
// that no waiter is refused for the share of the caller that happened to start the call. Keys hold
// credentials as a digest only (client.ts).
import type { UpstreamCall, UpstreamPolicy } from './call.js';

/** Why a waiter stopped waiting: its client went away, or its operation's deadline passed. */
export type Departure = 'clientGone' | 'deadline';

/** What a waiter gets when it leaves before the shared call settles. */
export class WaiterLeft extends Error {
  /** `atPartner`: whether the call had reached the partner when the waiter left, or still waited for a connection. */
  constructor(
    readonly departure: Departure,
    readonly atPartner: boolean,
  ) {
    super(departure === 'deadline' ? 'the operation deadline passed' : 'the client closed the request');
  }
}

/** A call started for the first waiter: its result, and how to give it up when every waiter left. */
export interface StartedCall<T> {
  result: Promise<T>;
  /** Called once, when the last waiter leaves before `result` settles. */
  abandon(departure: Departure): void;
  /** Whether the call holds a connection and is at the partner (rather than waiting for one). */
  atPartner(): boolean;
  /** Lets the call take a connection under a joined waiter's share too; answers how to take that back. */
  admit?(domains: readonly string[]): () => void;
}

export interface Waiter {
  /** Fires when the waiter's client goes away. */
  signal?: AbortSignal;
  /** When the waiter's operation runs out of time, on `performance.now()`'s clock. */
  deadlineAt?: number;
  /** What the waiter's own connections count against: a call it joins may be admitted under them. */
  domains?: readonly string[];
}

/**
 * A call in flight, as its waiters share it. The map of calls lives as long as the process, and a
 * map's backing tables, once replaced, keep pointing at the entries they held until the next full
 * collection; so an entry lets go of the call (its answer, the first caller's request) as soon as
 * it settles, or every answer would be promoted with it (docs/decisions/request-lifetimes.md).
 */
class InFlight<T> {
  waiting = 0;
  private started: StartedCall<T> | undefined;
  private reachedPartner = false;

  constructor(started: StartedCall<T>) {
    this.started = started;
  }

  /** The call's answer; only an entry still in the map, so unsettled, is asked for it. */
  get result(): Promise<T> {
    if (this.started === undefined) throw new Error('a settled call has no waiters to give its answer to');
    return this.started.result;
  }

  atPartner(): boolean {
    return this.started?.atPartner() ?? this.reachedPartner;
  }

  abandon(departure: Departure): void {
    this.started?.abandon(departure);
  }

  /** A joined waiter's share, lent to the call while it waits for a connection. */
  admit(domains: readonly string[] | undefined): (() => void) | undefined {
    return domains === undefined ? undefined : this.started?.admit?.(domains);
  }

  settled(): void {
    this.reachedPartner = this.atPartner();
    this.started = undefined;
  }
}

export class InFlightCalls {
  private readonly calls = new Map<string, InFlight<unknown>>();

  /** Calls in flight now. */
  get size(): number {
    return this.calls.size;
  }

  /**
   * Waits for the call in flight under `key`, joining it (`joined` is told), or starts it with
   * `start`. Rejects with WaiterLeft when the waiter leaves first; otherwise settles as the call.
   */
  run<T>(key: string, waiter: Waiter, start: () => StartedCall<T>, joined?: () => void): Promise<T> {
    let call = this.calls.get(key) as InFlight<T> | undefined;
    let withdraw: (() => void) | undefined;
    if (call === undefined) {
      const started = start();
      const entry = new InFlight(started);
      call = entry;
      this.calls.set(key, entry);
      const forget = () => {
        if (this.calls.get(key) === entry) this.calls.delete(key);
        entry.settled();
      };
      started.result.then(forget, forget);
    } else {
      joined?.();
      withdraw = call.admit(waiter.domains);
    }
    return this.wait(key, call, waiter, withdraw);
  }

  /** `withdraw` takes back the waiter's share lent to the call, should it leave first. */
  private wait<T>(key: string, call: InFlight<T>, { signal, deadlineAt }: Waiter, withdraw?: () => void): Promise<T> {
    const untilDeadline = deadlineAt === undefined ? Number.POSITIVE_INFINITY : deadlineAt - performance.now();
    if (signal === undefined && untilDeadline === Number.POSITIVE_INFINITY) {
      call.waiting += 1;
      return call.result;
    }
    return new Promise<T>((resolve, reject) => {
      let done = false;
      let timer: NodeJS.Timeout | undefined;
      const settle = () => {
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onClientGone);
      };
      const leave = (departure: Departure) => {
        if (done) return;
        settle();
        const atPartner = call.atPartner();
        withdraw?.();
        call.waiting -= 1;
        if (call.waiting === 0 && this.calls.get(key) === call) {
          // Nobody reads its answer any more: a new waiter starts a call of its own.
          this.calls.delete(key);
          call.abandon(departure);
        }
        reject(new WaiterLeft(departure, atPartner));
      };
      const onClientGone = () => leave('clientGone');
      call.waiting += 1;
      if (signal?.aborted) return onClientGone();
      if (untilDeadline <= 0) return leave('deadline');
      signal?.addEventListener('abort', onClientGone);
      if (untilDeadline !== Number.POSITIVE_INFINITY) timer = setTimeout(() => leave('deadline'), untilDeadline);
      call.result.then(
        (value: T) => {
          if (done) return;
          settle();
          resolve(value);
        },
        (error: unknown) => {
          if (done) return;
          settle();
          reject(error);
        },
      );
    });
  }
}

/**
 * Coalescing as an upstream policy, the outermost: a call its operation shares in flight (it has a
 * key) and whose key is in flight waits for that call's answer (`joined` is told) instead of going on, and lends it its connection domains; the
 * first goes on for all of them, and its abort is abandoned once every one has left.
 */
export function coalescingPolicy<Call extends UpstreamCall>(joined?: (upstream: Call) => void): UpstreamPolicy<Call> {
  const inFlight = new InFlightCalls();
  return {
    wrap: (next) => (upstream) => {
      if (upstream.key === undefined) return next(upstream);
      const { call } = upstream;
      return inFlight.run(
        upstream.key,
        { signal: call.signal, deadlineAt: call.deadline?.at, domains: call.connectionDomains ?? [] },
        () => ({
          result: next(upstream),
          abandon: (departure) => upstream.abort.abandon(departure),
          atPartner: () => upstream.abort.reachedPartner,
          admit: (domains) => upstream.claims.add(domains),
        }),
        joined && (() => joined(upstream)),
      );
    },
  };
}
