// What the response cache keeps of one request between its hooks lives in the request's scope.
import { scopeOf, type CacheRequestState } from '../../request-scope.js';

export type { CacheRequestState };

/** The response cache's state of this request, made on first use. */
export function cacheStateOf(request: Request): CacheRequestState {
  const scope = scopeOf(request);
  return (scope.cache ??= {});
}
