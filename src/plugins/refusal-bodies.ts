// Every refusal the service answers carries a JSON body with a code, as GraphQL's own errors do: a
// client that logs `errors[0].extensions.code` learns why, whichever layer refused it. Yoga would
// answer with an empty body 406 for an Accept it cannot serve and 415 for a content-type it cannot
// read (this service's router and Node's parser are answered in http/); and a body Yoga cannot read
// is a 400 whatever the client accepts.
import { STATUS_CODES } from 'node:http';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { refusalBody } from '../errors.js';

/** What Yoga means by the empty answers it gives, said to the client. */
function yogaRefusalMessage(status: number, request: Request, acceptable: string | null): string {
  if (status === 415) {
    const type = request.headers.get('content-type');
    return `The content-type ${type ? `'${type.slice(0, 100)}'` : '(none)'} is not one this service reads: POST 'application/json', or GET with the operation in the query string.`;
  }
  if (status === 406) {
    const accept = request.headers.get('accept') ?? '';
    return `None of the media types this request accepts ('${accept.slice(0, 200)}') is one this service answers in${acceptable ? `: accept one of ${acceptable}` : ''}.`;
  }
  return `The request was refused with HTTP ${status} (${STATUS_CODES[status] ?? 'unknown status'}).`;
}

/**
 * A body that is not JSON (or none at all) is not a GraphQL request, and the GraphQL over HTTP
 * spec answers it 400 for `application/json` as for `application/graphql-response+json`. Yoga
 * marks its parser's error as one the spec answers 200 under `application/json` (`http.spec`), and
 * honours the mark only once production has removed the error's `originalError`: development
 * answered 400 and production 200. Unmarked, the error keeps its 400 for every Accept.
 */
function unreadableBodyIs400(error: unknown): never {
  const http = error instanceof GraphQLError ? (error.extensions.http as { spec?: boolean; status?: number } | undefined) : undefined;
  if (http?.spec && http.status === 400) http.spec = false;
  throw error;
}

type RequestParser = NonNullable<Parameters<NonNullable<Plugin['onRequestParse']>>[0]['requestParser']>;

/** Yoga hands over a few parsers of its own: each is wrapped once, not for each request. */
const unmarkedParsers = new WeakMap<RequestParser, RequestParser>();

function unmarkedParserOf(requestParser: RequestParser): RequestParser {
  let unmarked = unmarkedParsers.get(requestParser);
  if (!unmarked) {
    unmarked = (request) => {
      try {
        const parsed = requestParser(request);
        // Yoga's parsers answer a promise, or a thenable of their own, when they read the body.
        return 'then' in parsed ? parsed.then(undefined, unreadableBodyIs400) : parsed;
      } catch (error) {
        return unreadableBodyIs400(error);
      }
    };
    unmarkedParsers.set(requestParser, unmarked);
  }
  return unmarked;
}

/**
 * Gives Yoga's bodiless refusals (406, 415) a JSON body with the code, keeping status and headers;
 * and keeps a body Yoga cannot parse at 400 whatever the Accept.
 */
export function useRefusalBodies<TContext extends object>(): Plugin<TContext> {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      if (requestParser) setRequestParser(unmarkedParserOf(requestParser));
    },
    onResponse({ request, response, setResponse, fetchAPI }) {
      if (response.status < 400 || response.body !== null || response.headers.has('content-type')) return;
      const headers = new fetchAPI.Headers(response.headers);
      // Yoga's 406 lists what it could answer in its own `accept` header.
      const acceptable = headers.get('accept')?.replace(/; charset=utf-8/g, '') ?? null;
      headers.set('content-type', 'application/json; charset=utf-8');
      setResponse(
        new fetchAPI.Response(refusalBody(yogaRefusalMessage(response.status, request, acceptable)), {
          status: response.status,
          statusText: response.statusText,
          headers,
        }),
      );
    },
  };
}
