// The envelop plugins that guard execution: size limits on every operation, checked before any
// resolver runs (so a refused operation costs the partner nothing), and what production hides.
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLArmorCallbackConfiguration } from '@escape.tech/graphql-armor-types';
import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { TradegraphContext } from '../context.js';
import { OperationLimitError, type OperationLimit } from '../errors.js';
import { useValidationCache } from '../plugins/validation-cache.js';
import { DEFAULT_MAX_OPERATION_COST, useOperationCostLimit } from './operation-cost.js';

/**
 * The limits. The schema has no cycles, so no honest operation is deeper than 6 fields; depth
 * guards the recursive introspection types. Aliases and tokens bound the work of parsing and
 * validating; cost bounds the partner work (see operation-cost.ts).
 */
export const OPERATION_LIMITS = {
  depth: 10,
  aliases: 30,
  directives: 50,
  tokens: 2000,
  cost: DEFAULT_MAX_OPERATION_COST,
} as const;

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
 * The limits, and in production what production hides from strangers: no introspection
 * (`__typename` still works) and no "Did you mean" suggestions, which would otherwise reveal field
 * names one guess at a time. Their validation runs once per document (see validation-cache.ts).
 */
export function operationLimitPlugins(
  { production }: { production: boolean },
  limits: typeof OPERATION_LIMITS = OPERATION_LIMITS,
): Plugin<TradegraphContext>[] {
  const validation: Pick<Plugin, 'onValidate'>[] = [
    maxDepthPlugin({ n: limits.depth, flattenFragments: true, ...rejectAs('depth', limits.depth) }),
    maxAliasesPlugin({ n: limits.aliases, ...rejectAs('aliases', limits.aliases) }),
    maxDirectivesPlugin({ n: limits.directives, ...rejectAs('directives', limits.directives) }),
  ];
  if (production) {
    validation.push(
      {
        onValidate({ addValidationRule }) {
          addValidationRule(NoSchemaIntrospectionCustomRule);
        },
      },
      blockFieldSuggestionsPlugin({ mask: '' }),
    );
  }
  return [
    maxTokensPlugin({ n: limits.tokens, ...rejectAs('tokens', limits.tokens) }),
    useValidationCache(validation),
    useOperationCostLimit({ maxCost: limits.cost }),
  ] as Plugin<TradegraphContext>[];
}

/** Production shows no parser internals in request errors. */
export function productionPlugins(): Plugin<TradegraphContext>[] {
  return [
    {
      // Yoga copies the JSON parser's message about a malformed body into `originalError`: the
      // runtime's wording around the client's own bytes, which production has no need to show.
      onResultProcess({ result }) {
        if (Symbol.asyncIterator in result) return;
        for (const single of Array.isArray(result) ? result : [result]) {
          for (const error of single.errors ?? []) delete (error.extensions as Record<string, unknown>)?.originalError;
        }
      },
    },
  ] as Plugin<TradegraphContext>[];
}
