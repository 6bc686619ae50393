// Size limits on every operation (tokens, depth, aliases, directives, cost), checked before any
// resolver runs, so a refused operation costs the partner nothing.
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLArmorCallbackConfiguration } from '@escape.tech/graphql-armor-types';
import type { Plugin } from 'graphql-yoga';
import type { TradegraphContext } from '../context.js';
import { OperationLimitError, type OperationLimit } from '../errors.js';
import { OPERATION_LIMITS } from '../tunables.js';
import { useOperationCostLimit } from './operation-cost.js';

/**
 * graphql-armor's own errors are "Syntax Error: ..." without a code; each rejection is reported
 * again as an OperationLimitError so that the client gets a typed, documented code.
 */
function rejectAs(limit: OperationLimit, maximum: number): GraphQLArmorCallbackConfiguration {
  return {
    propagateOnRejection: false,
    onReject: [
      (validation, error) => {
        const refusal = new OperationLimitError(
          limit,
          `The operation was refused before execution: ${error.message.replace(/^Syntax Error: /, '')}`,
          maximum,
        );
        // Validation rules report through their context; the token counter runs in the parser.
        if (validation) validation.reportError(refusal);
        else throw refusal;
      },
    ],
  };
}

/**
 * The limits: tokens while parsing, depth, aliases and directives as validation rules (cached per
 * document by Yoga's validation cache), and the cost before execution.
 */
export function operationLimitPlugins(limits: typeof OPERATION_LIMITS = OPERATION_LIMITS): Plugin<TradegraphContext>[] {
  return [
    maxTokensPlugin({ n: limits.tokens, ...rejectAs('tokens', limits.tokens) }),
    maxDepthPlugin({ n: limits.depth, flattenFragments: true, ...rejectAs('depth', limits.depth) }),
    maxAliasesPlugin({ n: limits.aliases, ...rejectAs('aliases', limits.aliases) }),
    maxDirectivesPlugin({ n: limits.directives, ...rejectAs('directives', limits.directives) }),
    // An entity representation is an object fetched from the root, as an aliased `node(id:)` is.
    useOperationCostLimit({ maxCost: limits.cost, maxRepresentations: limits.aliases }),
  ] as Plugin<TradegraphContext>[];
}
