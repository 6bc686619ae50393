// Refuses an operation whose price (cost/price.ts) is over the limit, before any resolver runs.
import type { Plugin } from 'graphql-yoga';
import { operationPrice } from '../cost/price.js';
import { OperationLimitError } from '../errors.js';

/** Default most units one operation may cost: a few full pages with fees, not dozens. */
export const DEFAULT_MAX_OPERATION_COST = 1000;

/**
 * Refuses an operation over `maxCost`, or naming more than `maxRepresentations` entity references,
 * after validation and before any resolver runs. It hooks execution rather than validation because
 * Yoga caches validation per document, and the price depends on the variables.
 */
export function useOperationCostLimit({ maxCost, maxRepresentations }: { maxCost: number; maxRepresentations: number }): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const price = operationPrice(args.schema, args.document, args.operationName, args.variableValues);
      if (price !== null && price.cost > maxCost) {
        setResultAndStopExecution({
          errors: [
            new OperationLimitError(
              'cost',
              `The operation would cost ${price.cost} units of partner work; at most ${maxCost} are allowed. ` +
                'Ask for fewer items (first), fewer inventories or fewer listing fees per operation.',
              maxCost,
            ),
          ],
        });
      } else if (price !== null && price.representations > maxRepresentations) {
        setResultAndStopExecution({
          errors: [
            new OperationLimitError(
              'aliases',
              `The operation names ${price.representations} entity representations; at most ${maxRepresentations} are allowed, ` +
                'as many as the objects one operation may fetch by alias. Fetch the entities in several operations.',
              maxRepresentations,
            ),
          ],
        });
      }
    },
  };
}
