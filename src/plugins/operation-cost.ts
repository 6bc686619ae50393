// Refuses an operation whose price (cost/price.ts) is over the limit, or that asks a list for more
// than any list answers, before any resolver runs and before the rate limit charges it.
import type { Plugin } from 'graphql-yoga';
import { operationPrice, type OutOfRange } from '../cost/price.js';
import { MAX_SLICE } from '../cost/policy.js';
import { scopeOf } from '../request-scope.js';
import { ArgumentOutOfRangeError, OperationLimitError } from '../errors.js';

/**
 * Refuses an operation over `maxCost`, or naming more than `maxRepresentations` entity references,
 * or with an argument out of range, after validation and before any resolver runs. It hooks
 * execution rather than validation because Yoga caches validation per document, and the price
 * depends on the variables. Every refusal tells its price in extensions.cost (requestedQueryCost),
 * the figure its message names.
 */
export function useOperationCostLimit({ maxCost, maxRepresentations }: { maxCost: number; maxRepresentations: number }): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const price = operationPrice(args.schema, args.document, args.operationName, args.variableValues);
      if (price === null) return;
      const refuse = (error: Error) => {
        const { request } = args.contextValue as { request: Request };
        // Told here: the refusal ends the operation before the cost extension's own onExecute.
        scopeOf(request).cost.requested = price.cost;
        setResultAndStopExecution({ errors: [error as never] });
      };
      // First: an argument out of range is the client's input to fix, whatever the operation's size.
      if (price.outOfRange) {
        refuse(outOfRangeError(price.outOfRange));
      } else if (price.cost > maxCost) {
        refuse(
          new OperationLimitError(
            'cost',
            `The operation would cost ${price.cost} units of partner work; at most ${maxCost} are allowed. ` +
              'Ask for fewer items (first), fewer inventories or fewer listing fees per operation.',
            maxCost,
          ),
        );
      } else if (price.representations > maxRepresentations) {
        refuse(
          new OperationLimitError(
            'aliases',
            `The operation names ${price.representations} entity representations; at most ${maxRepresentations} are allowed, ` +
              'as many as the objects one operation may fetch by alias. Fetch the entities in several operations.',
            maxRepresentations,
          ),
        );
      }
    },
  };
}

function outOfRangeError({ field, argument, size, slicing }: OutOfRange): ArgumentOutOfRangeError {
  return new ArgumentOutOfRangeError(
    slicing
      ? `Argument '${argument}' of '${field}' must be from 0 to ${MAX_SLICE}; got ${size}.`
      : `Argument '${argument}' of '${field}' must hold at most ${MAX_SLICE} elements; got ${size}.`,
    argument,
  );
}
