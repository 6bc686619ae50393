// Conditional GET of cached answers: a cached GET read carries an ETag and Cache-Control, and an
// If-None-Match that names the ETag of the answer this request gets, under its own credential,
// gets 304 (RFC 9110 13.1.2, 15.4.5).
import type { Plugin } from 'graphql-yoga';
import { cacheStateOf } from '../../request-scope.js';

/**
 * Whether an If-None-Match list names this ETag, compared weakly (RFC 9110 13.1.2); If-Modified-Since
 * is not consulted, as a request with If-None-Match must not (RFC 9110 13.1.3).
 */
function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * If-None-Match is taken off each request before Yoga's cache plugin sees it: the plugin answers
 * 304 to any request whose If-None-Match names an entry it holds, whoever sends it. Here a 304 is
 * given only when the answer this request gets came from the cache with that ETag
 * (`servedFromCache`, set by response-cache.ts). `ttlMs` is the cache's TTL, for max-age.
 */
export function useConditionalGet<Context extends object>(ttlMs: number): Plugin<Context> {
  return {
    onRequest({ request }) {
      const given = request.headers.get('if-none-match');
      if (given === null) return;
      request.headers.delete('if-none-match');
      if (request.method === 'GET') cacheStateOf(request).ifNoneMatch = given;
    },
    onResponse({ request, response, setResponse, fetchAPI }) {
      // The ETag is set on answers that were cached or came from the cache (and on 304s).
      if (request.method !== 'GET' || !response.headers.has('etag')) return;
      const { ifNoneMatch, servedFromCache } = cacheStateOf(request);
      if (servedFromCache && ifNoneMatch !== undefined && response.status === 200 && etagMatches(ifNoneMatch, response.headers.get('etag')!)) {
        const headers = new fetchAPI.Headers(response.headers);
        headers.delete('content-type');
        headers.delete('content-length');
        response = new fetchAPI.Response(null, { status: 304, headers });
        setResponse(response);
      }
      const cachedAt = Date.parse(response.headers.get('last-modified') ?? '');
      const ageSeconds = Number.isNaN(cachedAt) ? 0 : Math.max(0, (Date.now() - cachedAt) / 1000);
      const maxAge = Math.max(0, Math.floor(ttlMs / 1000 - ageSeconds));
      response.headers.set('cache-control', `private, max-age=${maxAge}`);
      // The answer belongs to the credential: a browser must not reuse it for another one.
      response.headers.append('vary', 'Authorization');
    },
  };
}
