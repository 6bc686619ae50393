// The circuit breaker of one upstream base, built to isolate: it opens on a failure ratio over a
// sampling window with a minimum volume (cockatiel's SamplingBreaker), and only when the failures
// in that window come from several distinct inventories and callers. One caller's broken
// inventory, or one broken credential, fails alone and never closes the partner to everyone else;
// and only a credential the partner has accepted counts as a caller of its own (partner/index.ts).
// A partner that cannot be reached at all (refused, reset, connect timeout, TLS) fails every
// caller alike, and no caller can make it so: such failures count from whoever called, so that a
// facade whose callers are all new (after a deploy, during an outage) still opens; and
// BREAKER_CONSECUTIVE_UNREACHABLE of them in a row open it whatever the window held before (a
// second cockatiel breaker, a ConsecutiveBreaker, wrapped inside the first), as Envoy ejects a host
// after consecutive gateway failures: a busy window's successes must not dilute an outage.
import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  IsolatedCircuitError,
  SamplingBreaker,
  circuitBreaker,
  handleWhen,
  wrap,
  type CircuitBreakerPolicy,
  type IBreaker,
  type IPolicy,
} from 'cockatiel';
import { UpstreamUnavailableError } from '../errors.js';
import { BREAKER_CONSECUTIVE_UNREACHABLE } from '../tunables.js';
import type { FaultDomains, UpstreamCall, UpstreamPolicy } from './call.js';
import { isOutage, isUnreachable } from './error-from-response.js';

/**
 * Who a call is made for, as the breaker and the connection slots count it: `fault` is the caller's
 * fault domain (worked out only when a call fails), `connection` what its connections count against.
 */
export interface CallerDomains {
  fault: string | (() => string | Promise<string>);
  connection: string;
}

export interface CircuitOptions {
  /** Share of the window's calls (0 to 1, exclusive) that must fail. */
  failureRatio: number;
  windowMs: number;
  /** Calls in the window below which the circuit never opens, however many fail. */
  minimumCalls: number;
  /** Distinct failing values each dimension needs (see FaultDomains). */
  minimumDistinct: number;
  /** How long the circuit stays open before one probe call is let through. */
  halfOpenAfterMs: number;
}

/** SamplingBreaker's decision, gated on the spread of the window's failures over fault domains. */
class SpreadSamplingBreaker implements IBreaker {
  private readonly sampling: SamplingBreaker;
  /** Per dimension: each failing value and when it last failed, oldest first. */
  private readonly failing = new Map<string, Map<string, number>>();
  /** When the latest failures to reach the partner at all happened, oldest first; at most `unreachableNeeded`. */
  private readonly unreachable: number[] = [];
  /** Unreachable failures in one window that open the circuit whoever called: the failures the minimum volume needs. */
  private readonly unreachableNeeded: number;

  constructor(private readonly options: CircuitOptions) {
    this.sampling = new SamplingBreaker({
      threshold: options.failureRatio,
      duration: options.windowMs,
      minimumRps: (options.minimumCalls * 1000) / options.windowMs,
    });
    this.unreachableNeeded = Math.max(1, Math.ceil(options.minimumCalls * options.failureRatio));
  }

  get state(): unknown {
    return this.sampling.state;
  }

  set state(value: unknown) {
    this.sampling.state = value;
  }

  /** Notes an unreachable partner: a failure of every caller, attributed to none. */
  noteUnreachable(): void {
    this.unreachable.push(Date.now());
    if (this.unreachable.length > this.unreachableNeeded) this.unreachable.shift();
  }

  async noteFailure(domains: FaultDomains): Promise<void> {
    const values: [string, string][] = [];
    for (const [dimension, given] of Object.entries(domains)) {
      const value = typeof given === 'function' ? given() : given;
      values.push([dimension, typeof value === 'string' ? value : await value]);
    }
    const now = Date.now();
    for (const [dimension, value] of values) {
      let values = this.failing.get(dimension);
      if (!values) this.failing.set(dimension, (values = new Map()));
      // Re-inserted so that the map stays ordered by the last failure.
      values.delete(value);
      values.set(value, now);
      // The values are the clients' (inventories, credentials): those out of the window go now,
      // not only when the circuit would open, or a closed circuit would keep every one for good.
      forgetBefore(values, now - this.options.windowMs);
    }
  }

  success(state: CircuitState): void {
    this.sampling.success(state);
    if (state === CircuitState.HalfOpen) {
      this.failing.clear();
      this.unreachable.length = 0;
    }
  }

  failure(state: CircuitState): boolean {
    const sampledOpen = this.sampling.failure(state);
    if (state !== CircuitState.Closed) return true;
    return sampledOpen && this.failuresAreSpread();
  }

  private failuresAreSpread(): boolean {
    const since = Date.now() - this.options.windowMs;
    if (this.unreachable.length === this.unreachableNeeded && this.unreachable[0]! >= since) return true;
    for (const values of this.failing.values()) {
      forgetBefore(values, since);
      if (values.size > 0 && values.size < this.options.minimumDistinct) return false;
    }
    return true;
  }

  /** How many failing values it holds, all dimensions together. */
  get failingValues(): number {
    let count = 0;
    for (const values of this.failing.values()) count += values.size;
    return count;
  }
}

/** Drops the values that last failed before `since`: the oldest come first in the map. */
function forgetBefore(values: Map<string, number>, since: number): void {
  for (const [value, at] of values) {
    if (at >= since) break;
    values.delete(value);
  }
}

export class PartnerCircuit {
  private readonly breaker: SpreadSamplingBreaker;
  /** The outer circuit: outages over the window, spread over callers. */
  private readonly sampled: CircuitBreakerPolicy;
  /** The inner circuit: unreachable failures in a row, whoever called and whatever came before. */
  private readonly unreachableInARow: CircuitBreakerPolicy;
  /** Both, as cockatiel's `wrap` composes policies: a call passes the outer, then the inner. */
  private readonly policy: IPolicy;
  /** When each circuit last opened, for the seconds until its probe. */
  private readonly openedAt = new Map<CircuitBreakerPolicy, number>();

  constructor(private readonly options: CircuitOptions) {
    this.breaker = new SpreadSamplingBreaker(options);
    this.sampled = circuitBreaker(
      handleWhen((error) => isOutage(error)),
      { halfOpenAfter: options.halfOpenAfterMs, breaker: this.breaker },
    );
    // Only unreachable failures count here, and only a successful call resets the run: cockatiel
    // tells a breaker nothing of an error its policy does not handle, so any other failure (a 5xx,
    // a timeout, a 4xx) neither counts nor resets; the outages among them are the sampling breaker's.
    this.unreachableInARow = circuitBreaker(
      handleWhen((error) => isUnreachable(error)),
      { halfOpenAfter: options.halfOpenAfterMs, breaker: new ConsecutiveBreaker(BREAKER_CONSECUTIVE_UNREACHABLE) },
    );
    this.policy = wrap(this.sampled, this.unreachableInARow);
    for (const circuit of [this.sampled, this.unreachableInARow]) {
      circuit.onBreak(() => {
        this.openedAt.set(circuit, Date.now());
      });
    }
  }

  /** 'closed', 'open', 'halfOpen' or 'isolated': the state of the two circuits that refuses the most. */
  get state(): string {
    return STATE_NAMES[this.combinedState()] ?? 'unknown';
  }

  /**
   * Whole seconds until the next probe when a call would be refused right now (either circuit open,
   * or a probe already under way); undefined when a call may go. Callers are never made to wait on a probe.
   */
  refusal(): number | undefined {
    let refusal: number | undefined;
    for (const circuit of [this.sampled, this.unreachableInARow]) {
      const seconds = this.refusalOf(circuit);
      if (seconds !== undefined) refusal = Math.max(refusal ?? 0, seconds);
    }
    return refusal;
  }

  private refusalOf(circuit: CircuitBreakerPolicy): number | undefined {
    switch (circuit.state) {
      case CircuitState.Open: {
        const remaining = (this.openedAt.get(circuit) ?? 0) + this.options.halfOpenAfterMs - Date.now();
        return remaining > 0 ? Math.max(1, Math.ceil(remaining / 1000)) : undefined;
      }
      case CircuitState.HalfOpen:
        return 1;
      case CircuitState.Isolated:
        return Math.max(1, Math.ceil(this.options.halfOpenAfterMs / 1000));
      default:
        return undefined;
    }
  }

  private combinedState(): CircuitState {
    const states = [this.sampled.state, this.unreachableInARow.state];
    for (const state of [CircuitState.Isolated, CircuitState.Open, CircuitState.HalfOpen]) if (states.includes(state)) return state;
    return CircuitState.Closed;
  }

  /**
   * How many failing fault-domain values the breaker remembers: those of the window as of the
   * last failure (each failure forgets the older ones), so at most what one window's failures name.
   */
  get failingValues(): number {
    return this.breaker.failingValues;
  }

  /** Runs one logical call (its retries included): one outcome for the breaker, attributed to `domains`. */
  execute<T>(domains: FaultDomains, fn: () => Promise<T>): Promise<T> {
    return this.policy.execute(async (): Promise<T> => {
      try {
        return await fn();
      } catch (error) {
        if (isUnreachable(error)) this.breaker.noteUnreachable();
        else if (isOutage(error)) await this.breaker.noteFailure(domains);
        throw error;
      }
    });
  }
}

/**
 * The breaker as an upstream policy: a call that finds the circuit open (it may have opened while
 * the call waited for a connection) is refused at once; otherwise the call, its retries included,
 * is one outcome for the breaker, attributed to the call's fault domains.
 */
export function circuitBreakerPolicy<Call extends UpstreamCall>(circuit: PartnerCircuit): UpstreamPolicy<Call> {
  return {
    wrap: (next) => async (upstream) => {
      const refusedFor = circuit.refusal();
      if (refusedFor !== undefined) throw circuitOpen(upstream.call.operation, refusedFor);
      return circuit.execute(upstream.call.faultDomains ?? {}, () => next(upstream));
    },
  };
}

/** The refusal of a call while the circuit is open, with the seconds until its next probe. */
export function circuitOpen(operation: string, retryAfter: number): UpstreamUnavailableError {
  return new UpstreamUnavailableError(
    operation,
    `its circuit is open after failures across many callers; the next probe is in ${retryAfter} s`,
    retryAfter,
  );
}

export const isBrokenCircuit = (error: unknown): boolean =>
  error instanceof BrokenCircuitError || error instanceof IsolatedCircuitError;

// Indexed by cockatiel's CircuitState enum (Closed, Open, HalfOpen, Isolated).
const STATE_NAMES = ['closed', 'open', 'halfOpen', 'isolated'];
