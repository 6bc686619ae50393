// What the response cache keeps of one request between its hooks, behind one accessor: the one
// place to move it into a request scope.

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

const states = new WeakMap<Request, CacheRequestState>();

/** The response cache's state of this request, made on first use. */
export function cacheStateOf(request: Request): CacheRequestState {
  let state = states.get(request);
  if (state === undefined) {
    state = {};
    states.set(request, state);
  }
  return state;
}
