// Stale-if-error (RFC 5861): while the partner cannot answer, a query's last good answer stands in
// for RESPONSE_CACHE_STALE_IF_ERROR_MS past its TTL, for the same credential, marked stale.
import type { ExecutionResult } from 'graphql';
import { ErrorCode } from '../../errors.js';
import { isAsyncIterable } from '../../observability/operation-results.js';
import type { ResponseStore, StaleAnswer } from './store-contract.js';

/** The mark of an answer served stale in place of an outage: it is never cached again as fresh. */
const SERVED_STALE = Symbol('servedStale');

/**
 * The codes of a partner that failed (RFC 5861's stale-if-error covers the origin's failures): an
 * error status, a connection refused or reset, no answer in time, or its circuit open, which is the
 * record of such failures. OVERLOADED is not one: it is this service refusing to ask (no connection
 * came free, the operation shed), and a stale answer then would stand in for an answer the partner
 * was never asked for, such as the 401 of a token revoked since it was cached.
 */
const OUTAGE_CODES: ReadonlySet<unknown> = new Set([ErrorCode.UPSTREAM_UNAVAILABLE, ErrorCode.UPSTREAM_TIMEOUT]);

/** Whether this answer is a stale one served in place of an outage. */
export function servedStale(result: unknown): boolean {
  return typeof result === 'object' && result !== null && SERVED_STALE in result;
}

/**
 * The answer to give in place of `result`: the last good answer under `key` when every error of
 * `result` is an outage and the store still holds one within the window; otherwise undefined, and
 * `result` stands. A stream (@defer) has sent its first part before a later one can fail: it is
 * never replaced.
 */
export function staleInPlaceOf(
  store: ResponseStore,
  key: string | undefined,
  result: unknown,
): Promise<ExecutionResult | undefined> | undefined {
  // Answered at once when no stale answer may stand in: most answers pass here, and a promise would cost them a turn.
  if (isAsyncIterable(result) || key === undefined || !onlyOutages(result as ExecutionResult)) return undefined;
  return Promise.resolve(store.staleIfError(key)).then((stale) => stale && staleAnswer(stale));
}

/**
 * Whether every error of an answer says the partner failed: a stale answer may stand in for it,
 * partial or not. An answer with any other error keeps it: a token the partner refused or a bad
 * argument (the partner has answered, and its refusal is the answer), or this service's own
 * refusal (OVERLOADED: the partner was not asked, so nothing says it failed).
 */
function onlyOutages(result: ExecutionResult): boolean {
  const errors = result.errors ?? [];
  return errors.length > 0 && errors.every((error) => OUTAGE_CODES.has(error.extensions?.code));
}

/** The answer of an outage: the last good one, marked stale with its age (RFC 5861's stale-if-error, RFC 9111's Age). */
function staleAnswer({ data, ageMs }: StaleAnswer): ExecutionResult & { [SERVED_STALE]: true } {
  const ageSeconds = Math.max(0, Math.floor(ageMs / 1000));
  return { data, extensions: { stale: { ageSeconds }, http: { headers: { Age: String(ageSeconds) } } }, [SERVED_STALE]: true };
}
