// CSRF protection: a request a browser would send cross-site without a CORS preflight (a GET, or a
// POST of a form or text/plain) must carry a custom header, which no other site can add unasked.
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import type { Plugin } from 'graphql-yoga';
import { CsrfHeaderRequiredError } from '../errors.js';

/** The header clients are told to send (any value, e.g. `1`). */
export const CSRF_HEADER = 'x-graphql-csrf';

/**
 * Every header that satisfies the check. Any custom header forces a preflight, so accepting those
 * that common clients already send costs nothing: Yoga's own default, and Apollo Server's pair
 * (Apollo iOS and Kotlin send `x-apollo-operation-name` on their GETs).
 */
const CSRF_ACCEPTED_HEADERS = [CSRF_HEADER, 'x-graphql-yoga-csrf', 'apollo-require-preflight', 'x-apollo-operation-name'];

const CORS_SAFELISTED_METHODS = new Set(['GET', 'HEAD', 'POST']);

export function useCsrfPrevention<TContext extends object>(): Plugin<TContext> {
  // Yoga's plugin decides (it lets through a content-type outside the three CORS-safelisted ones,
  // or any of the headers); only its refusal is replaced, to carry a code of this API's closed set.
  const { onRequestParse } = useCSRFPrevention({ requestHeaders: CSRF_ACCEPTED_HEADERS });
  return {
    onRequestParse(payload) {
      // Only the CORS-safelisted methods (GET, HEAD, POST) reach a server cross-site without a
      // preflight; any other always asks first, and goes on to Yoga's 405 with Allow.
      if (!CORS_SAFELISTED_METHODS.has(payload.request.method)) return;
      try {
        return onRequestParse?.(payload as never);
      } catch {
        throw new CsrfHeaderRequiredError(CSRF_HEADER);
      }
    },
  };
}
