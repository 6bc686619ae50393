// What a partner call is: as an operation (inventory.ts, listing-fee.ts) asks for it, and as it
// travels through the client's upstream policies. Each policy (coalescing, connection slots,
// timeout, breaker, retries) is a small module whose `wrap(next)` runs around the rest of the
// call, as Hive Gateway's useUpstreamRetry and useUpstreamTimeout do; client.ts composes them in
// one listed order.
import type { CallAbort } from './call-abort.js';
import type { ConnectionClaims } from './connection-claims.js';
import type { PartnerCallInfo } from './observer.js';

/**
 * What a call's outcome is attributed to, by dimension: `{ inventory: '730/7656…', caller: '…' }`.
 * A dimension seen failing in the window must show `minimumDistinct` values before the circuit opens
 * (breaker.ts).
 * A value may be given as a function, called only when a failure is noted: a digest that only a
 * failure needs is then not worked out for every successful call.
 */
export type FaultDomains = Readonly<Record<string, string | (() => string | Promise<string>)>>;

/** The whole operation's deadline, shared by every partner call it makes. */
export interface OperationDeadline {
  /** When it passes, on `performance.now()`'s clock. */
  at: number;
  /** Its length, for the error message. */
  ms: number;
}

export interface PartnerCall {
  /** A short name for logs, metrics and error messages, e.g. 'readInventory'. */
  operation: string;
  method: 'GET' | 'POST';
  /** Path segments below the base; each is percent-encoded when the URL is built. */
  segments: readonly (string | number)[];
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  body?: unknown;
  /** Idempotent calls are retried on connection errors and 502/503/504. */
  idempotent: boolean;
  /**
   * Whether an identical call in flight (the same method, URL, headers and body) is joined rather
   * than sent again (coalesce.ts), declared by each operation as RESTDataSource's
   * `requestDeduplicationPolicyFor` declares it: only for a call whose answer is the same for
   * every caller that sends it, and that changes nothing at the partner.
   */
  shareInFlight: boolean;
  /** Values that must never reach a log or an error (tokens, keys); scrubbed from upstream errors. */
  secrets?: readonly string[];
  /** What an outage of this call is attributed to (see breaker.ts). */
  faultDomains?: FaultDomains;
  /**
   * What this call's connection counts against, e.g. `['inventory 730/7656…', 'caller …']`: each
   * may hold at most `connectionsPerDomain` of the connections (connection-slots.ts).
   */
  connectionDomains?: readonly string[];
  /** The most bytes this call's answer can honestly need. */
  maxResponseBytes: number;
  /**
   * Fires when the client that asked for the call goes away: it stops waiting, and the call is
   * aborted once no other caller waits for it either (coalesce.ts).
   */
  signal?: AbortSignal;
  /** The same for the operation's deadline. */
  deadline?: OperationDeadline;
  /** Sent as x-request-id: a call shared by several operations carries the first one's. */
  requestId?: string;
  /**
   * Told when this call joined an identical one in flight instead of being made (coalesce.ts):
   * the partner does the work once, for the call's first caller, and this caller's cost counts none of it.
   */
  onJoined?: () => void;
}

/** A call on its way through the upstream policies: what each of them may read. */
export interface UpstreamCall {
  readonly call: PartnerCall;
  /** The call as observers see it (no secret: its path carries no query string). */
  readonly info: PartnerCallInfo;
  /** What identifies the call's answer (a digest), for a call its operation shares in flight (`shareInFlight`); none otherwise. */
  readonly key: string | undefined;
  /** Its timeout at the partner, and its abandonment once nobody waits for it (call-abort.ts). */
  readonly abort: CallAbort;
  /**
   * Whose shares of the connections it may be admitted under: its own `connectionDomains`, and
   * those of each caller that joins it while it waits (coalesce.ts, connection-slots.ts).
   */
  readonly claims: ConnectionClaims;
}

/** The rest of a call, from one policy inwards: it settles as the call does. */
export type SendUpstream<Call extends UpstreamCall = UpstreamCall> = (upstream: Call) => Promise<unknown>;

export interface UpstreamPolicy<Call extends UpstreamCall = UpstreamCall> {
  /** `next` with this policy around it. */
  wrap(next: SendUpstream<Call>): SendUpstream<Call>;
}

/** `send` inside every policy, the first listed outermost: the order a call passes through them. */
export function composeUpstream<Call extends UpstreamCall>(
  policies: readonly UpstreamPolicy<Call>[],
  send: SendUpstream<Call>,
): SendUpstream<Call> {
  return policies.reduceRight<SendUpstream<Call>>((next, policy) => policy.wrap(next), send);
}
