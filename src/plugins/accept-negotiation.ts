// Reads the Accept header as RFC 9110 §12.5.1 does, weights included, before Yoga chooses the
// media type of the answer. Yoga's result processors read the entries in the order they are
// listed and ignore their `q`: `application/json;q=0` was answered in JSON, and `*/*;q=0` by
// anything. Negotiator (jshttp's, Express's own) orders the media types the service answers by the
// client's weights and drops those it refuses (q=0); Yoga then chooses among those alone, and
// answers 406 (its own refusal, given a body by refusal-bodies.ts) when none is left.
import Negotiator from 'negotiator';
import type { Plugin } from 'graphql-yoga';

/**
 * What Yoga answers in, in the order it prefers them when the client weighs them alike (`*\/*`:
 * JSON, as curl and fetch get it). GraphiQL's page is Yoga's own onRequest, which runs before this.
 */
const ANSWERED = ['application/json', 'application/graphql-response+json', 'multipart/mixed', 'text/event-stream'];

/** A weight in an Accept entry; without one, every entry weighs 1 and the listed order is Yoga's. */
const WEIGHED = /;\s*q\s*=/i;

export function useAcceptNegotiation<TContext extends object>(): Plugin<TContext> {
  return {
    onRequest({ request, setRequest, endResponse, fetchAPI }) {
      const accept = request.headers.get('accept');
      if (accept === null || !WEIGHED.test(accept)) return;
      const preferred = new Negotiator({ headers: { accept } }).mediaTypes(ANSWERED);
      if (preferred.length === 0) {
        // As Yoga refuses an Accept it cannot serve: no body here, the accept field listing what it could.
        endResponse(
          new fetchAPI.Response(null, { status: 406, statusText: 'Not Acceptable', headers: { accept: ANSWERED.map((type) => `${type}; charset=utf-8`).join(', ') } }),
        );
        return;
      }
      // Apollo Client's `application/graphql-response+json,application/json;q=0.9` on every request:
      // where Yoga's reading already answers in the type the weights prefer, the request goes on as it is.
      if (!/;\s*q\s*=\s*0(\.0*)?\s*(,|;|$)/i.test(accept) && preferred[0] === yogaChoiceOf(accept)) return;
      const headers = new fetchAPI.Headers(request.headers);
      headers.set('accept', preferred.join(', '));
      const again = (body: ArrayBuffer | null) => setRequest(new fetchAPI.Request(request.url, { method: request.method, headers, body, signal: request.signal }));
      if (request.method === 'GET' || request.method === 'HEAD') return again(null);
      // The body has been read whole already (http/request-body.ts): its bytes go over as they are.
      return request.arrayBuffer().then(again);
    },
  };
}

/**
 * The JSON type Yoga answers a single result in, reading the entries in their listed order and
 * ignoring weights: the first entry that matches one, graphql-response+json when named, else JSON.
 */
function yogaChoiceOf(accept: string): string | undefined {
  for (const entry of accept.toLowerCase().split(',')) {
    const type = entry.split(';')[0]!.trim();
    if (type === 'application/graphql-response+json') return type;
    if (type === 'application/json' || type === 'application/*' || type === '*/*') return 'application/json';
  }
  return undefined;
}
