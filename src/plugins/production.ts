// What production hides from strangers: the schema (introspection, field suggestions) and the
// parser's internals in request errors.
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { TradegraphContext } from '../context.js';

/**
 * Production hides the schema from strangers: no introspection (`__typename` still works) and no
 * "Did you mean" suggestions, which would otherwise reveal field names one guess at a time; and
 * no parser internals in request errors.
 */
export function productionPlugins(): Plugin<TradegraphContext>[] {
  return [
    {
      onValidate({ addValidationRule }) {
        addValidationRule(NoSchemaIntrospectionCustomRule);
      },
    },
    blockFieldSuggestionsPlugin({ mask: '' }),
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
