// Everything one HTTP request carries between the plugins, the context and the loaders, typed in
// this one place: one record per Request, made on first use and gone with the request. A module
// that keeps something per request adds a field here (the types of the fields live here too, so
// that this module imports nothing of the modules that fill it).
import type { Span } from '@opentelemetry/api';
import type { UnauthenticatedError } from './errors.js';

/** What the request's Authorization header says, read once (credentials.ts). */
export interface CallerRead {
  /** The partner access token of a well-formed `Bearer` header; null without one. */
  readonly accessToken: string | null;
  /** Whatever follows the header's scheme, well formed or not: never sent, only searched for in client-chosen values. */
  readonly secret: string | null;
  /** A malformed header's refusal, made once and thrown wherever the credential is needed. */
  readonly refusal: UnauthenticatedError | null;
  /** The token's digest, worked out on first use (undefined until then; null without a token). */
  key: string | null | undefined;
}

/** The front end that sent the request, bounded (observability/client-identity.ts). */
export interface ClientIdentity {
  name: string;
  version: string;
}

/** The caller's own bucket after this operation, as Shopify's `throttleStatus` reports one. */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  /** Units per second: the budget divided by its window (the whole budget returns as the window ends). */
  restoreRate: number;
  /** Milliseconds until the caller's window ends and its budget is whole again. */
  msBeforeRestore: number;
}

/**
 * What the request's operation costs, in the units of the cost plan (cost/price.ts): written by
 * the plugins and the request's loaders, read back into the answer's extensions.cost.
 */
export interface RequestCost {
  /** The operation's price (null while unknown: a variable that does not coerce; cost/request-cost.ts's CACHE_HIT_PRICE for an answer from the response cache). */
  requested: number | null;
  /** Units of partner work done (cost/request-cost.ts's callWork of each call this request made; a call it joined in flight is the work of the request that made it). */
  actual: number;
  /** Set by the rate limit, when one is on. */
  throttle?: ThrottleStatus;
}

/** The operation as its log line and metrics tell it (plugins/operation-observability.ts). */
export interface OperationState {
  started: number;
  name: string | null;
  type: string | null;
  outcome: 'ok' | 'partial' | 'error';
  errorCodes: string[];
  /** Answered by the response cache: `hit` (nothing was parsed or executed), or `stale` (the last good answer in place of a partner outage). */
  responseCache?: 'hit' | 'stale';
  /** For a streamed answer: settles when its last payload has been sent (or the client left). */
  streamEnded?: Promise<void>;
}

/** The operation's SERVER span (plugins/operation-spans.ts). */
export interface OperationSpan {
  span: Span;
  /** A streamed answer (@defer): the span ends with its last payload, not with the operation's first answer. */
  streaming: boolean;
}

/** What the response cache keeps of a request between its hooks (plugins/response-cache/). */
export interface CacheRequestState {
  /** The request's If-None-Match, taken off before the plugin sees it (GET only; conditional-get.ts). */
  ifNoneMatch?: string;
  /** Its cache key, as the plugin worked it out (key.ts), for the stale answer of an outage. */
  key?: string;
  /** It had no document text (an id not resolved to one): never cached. */
  withoutText?: boolean;
  /** Its answer came from the cache. */
  servedFromCache?: boolean;
  /** A cacheable query that ran: a lookup that found no fresh answer. */
  ranQuery?: boolean;
}

/**
 * A class, every field set in its constructor: one object shape for every request. Batching is
 * off, so one request is one operation.
 */
export class RequestScope {
  /** The request id (context.ts requestIdOf): the caller's x-request-id when sane, else a fresh one. */
  id: string | undefined = undefined;
  caller: CallerRead | undefined = undefined;
  client: ClientIdentity | undefined = undefined;
  readonly cost: RequestCost = { requested: null, actual: 0 };
  /** Set from the request's parse to its response. */
  operation: OperationState | undefined = undefined;
  /** Set while the operation's span is open. */
  span: OperationSpan | undefined = undefined;
  /** Made by the response cache's first hook that needs it; none without a response cache. */
  cache: CacheRequestState | undefined = undefined;
}

// Keyed by the Fetch Request Yoga passes to every hook; the scope goes with the request.
const scopes = new WeakMap<Request, RequestScope>();

/** The request's scope, made on first use. */
export function scopeOf(request: Request): RequestScope {
  let scope = scopes.get(request);
  if (scope === undefined) scopes.set(request, (scope = new RequestScope()));
  return scope;
}

/** The response cache's state of this request, made on first use. */
export function cacheStateOf(request: Request): CacheRequestState {
  return (scopeOf(request).cache ??= {});
}
