// The budget of answers in flight (ANSWER_BYTES_IN_FLIGHT): each answer's body is counted from the
// moment it is made until its response closes (sent, cut, or its client gone), and an answer the
// budget has no room for is dropped and answered 503 OVERLOADED with Retry-After, as the budget of
// request bodies answers (http/shedding.ts). A thousand clients of one large answer hold the budget, not
// a thousand copies of the answer.
import type { ServerResponse } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { errorAnswerBody, OverloadedError } from '../errors.js';

export interface AnswerBudget {
  /** Counts `bytes` until `res` closes; false, counting nothing, when they do not fit. */
  reserve(bytes: number, res: ServerResponse): boolean;
  /** The bytes of answers counted now. */
  readonly bytes: number;
}

/** One answer alone always fits, whatever its size: the budget refuses only answers beside others. */
export function createAnswerBudget(maxBytes: number): AnswerBudget {
  let bytes = 0;
  return {
    reserve(size, res) {
      if (bytes > 0 && bytes + size > maxBytes) return false;
      bytes += size;
      res.once('close', () => (bytes -= size));
      return true;
    },
    get bytes() {
      return bytes;
    },
  };
}

/** The fields that describe the dropped answer's body, not the refusal's. */
const BODY_FIELDS = ['content-length', 'content-encoding', 'etag', 'last-modified', 'cache-control', 'age'];

/**
 * Counts each answer Yoga writes whose length is known (streams, whose parts come one at a time,
 * are not); `onRefusal` is told of each answer dropped for want of room. Last in the plugin list:
 * the body it counts is the one that goes out, compressed or not.
 */
export function useAnswerBudget<TContext extends object>(budget: AnswerBudget, onRefusal: () => void = () => {}): Plugin<TContext> {
  const error = new OverloadedError('The service is sending as many answers as it holds at once; retry in 1 s.', 1);
  const refusal = errorAnswerBody(error);
  return {
    onResponse({ response, serverContext, setResponse, fetchAPI }) {
      const res = (serverContext as { res?: ServerResponse }).res;
      const length = Number(response.headers.get('content-length') ?? Number.NaN);
      // Answers made without a node:http response (yoga.fetch) have no connection to hold.
      if (!res || !(length > 0) || budget.reserve(length, res)) return;
      onRefusal();
      // The answer's other fields (x-request-id, CORS, the budget's RateLimit) stay; those of its body go.
      const headers = new fetchAPI.Headers(response.headers);
      for (const name of BODY_FIELDS) headers.delete(name);
      headers.set('content-type', 'application/json; charset=utf-8');
      headers.set('retry-after', String(error.retryAfter));
      setResponse(new fetchAPI.Response(refusal, { status: 503, headers }));
    },
  };
}
