// GraphiQL's page (some megabytes: the whole GraphiQL bundle inlined, so that it works offline)
// carries an ETag and Cache-Control: no-cache, so that a browser keeps it and asks again with
// If-None-Match, and gets an empty 304 while the page is unchanged, rather than the whole page on
// every visit. The compression plugin after this one compresses the 200 as it does any HTML.
import { shouldRenderGraphiQL, type Plugin } from 'graphql-yoga';
import type { GraphiQLPage } from '../graphiql.js';

/** Kept by the browser, and asked again on every visit: the page holds this process's example headers. */
const CACHE_CONTROL = 'no-cache';
/** The page is the answer to GET /graphql with Accept: text/html; its compressed forms differ by Accept-Encoding. */
const VARY = 'Accept, Accept-Encoding';

/**
 * The entity tag of If-None-Match that names this page, as the client sent it, or null. Weak
 * comparison (RFC 9110 13.1.2): the compressed page goes out with the tag made weak.
 */
function matchingTag(ifNoneMatch: string | null, etag: string): string | null {
  if (!ifNoneMatch) return null;
  if (ifNoneMatch.trim() === '*') return etag;
  return ifNoneMatch.split(',').map((tag) => tag.trim()).find((tag) => tag.replace(/^W\//, '') === etag) ?? null;
}

export function useGraphiQLCaching<TContext extends object>({ page, graphqlPath }: { page: GraphiQLPage; graphqlPath: string }): Plugin<TContext> {
  return {
    onResponse({ request, response, setResponse, fetchAPI }) {
      // Yoga's own test for serving the page, then the page itself: a 200 of HTML at the endpoint.
      if (!shouldRenderGraphiQL(request) || response.status !== 200) return;
      if (!/^text\/html\b/i.test(response.headers.get('content-type') ?? '')) return;
      if (new URL(request.url).pathname.replace(/\/$/, '') !== graphqlPath) return;
      return page.etag().then((etag) => {
        const tag = matchingTag(request.headers.get('if-none-match'), etag);
        if (tag !== null) {
          // A 304 carries the fields a 200 would have for caches to update (RFC 9110 15.4.5), no body.
          setResponse(new fetchAPI.Response(null, { status: 304, headers: { etag: tag, 'cache-control': CACHE_CONTROL, vary: VARY } }));
          return;
        }
        response.headers.set('etag', etag);
        response.headers.set('cache-control', CACHE_CONTROL);
        response.headers.set('vary', VARY);
      });
    },
  };
}
