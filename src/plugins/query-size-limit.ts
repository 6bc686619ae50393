// Prices a document before anything parses it: a query text over MAX_QUERY_BYTES is refused with
// OPERATION_LIMIT_EXCEEDED at the cost of reading its length, however cheap its tokens would be
// to count (a megabyte of whitespace or comments has few). Long inputs belong in variables. The
// refusal is thrown: after a result that is set, Yoga would still run every later onParams hook
// (the response cache would hash the text and look it up).
import type { Plugin } from 'graphql-yoga';
import { OperationLimitError } from '../errors.js';

export function useQuerySizeLimit<TContext extends object>(maxBytes: number): Plugin<TContext> {
  return {
    onParams({ params }) {
      const { query } = params;
      // UTF-8 takes at most 3 bytes per UTF-16 unit: only a text near the limit is measured exactly.
      if (typeof query !== 'string' || query.length * 3 <= maxBytes) return;
      if (query.length <= maxBytes && Buffer.byteLength(query, 'utf8') <= maxBytes) return;
      throw new OperationLimitError(
        'queryBytes',
        `The operation was refused before parsing: its text is larger than ${maxBytes} bytes, the most this service parses; pass long values as variables.`,
        maxBytes,
      );
    },
  };
}
