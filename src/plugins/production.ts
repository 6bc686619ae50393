// What production hides from strangers: the schema (introspection, the subgraph SDL, field
// suggestions) and the parser's internals in request errors.
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { GraphQLError, NoSchemaIntrospectionCustomRule, type ASTVisitor, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { TradegraphContext } from '../context.js';

/**
 * The federation field `_service { sdl }` prints the whole schema, as introspection would. A
 * gateway serving a composed supergraph never asks for it, and `npm run supergraph` reads schema/.
 */
function NoSubgraphSdlRule(context: ValidationContext): ASTVisitor {
  return {
    Field(node) {
      if (node.name.value === '_service' && context.getParentType() === context.getSchema().getQueryType()) {
        context.reportError(
          new GraphQLError('GraphQL introspection has been disabled, and with it the subgraph SDL field "_service".', { nodes: node }),
        );
      }
    },
  };
}

/**
 * Production hides the schema from strangers: no introspection or subgraph SDL (`__typename` still
 * works) and no "Did you mean" suggestions, which would otherwise reveal field names one guess at
 * a time. Yoga's validation cache runs them once per document.
 */
export function productionPlugins(): Plugin<TradegraphContext>[] {
  return [
    {
      onValidate({ addValidationRule }) {
        addValidationRule(NoSchemaIntrospectionCustomRule);
        addValidationRule(NoSubgraphSdlRule);
      },
    },
    blockFieldSuggestionsPlugin({ mask: '' }),
    {
      // Yoga copies the JSON parser's message about a malformed body into `originalError`: the
      // runtime's wording around the client's own bytes, which production has no need to show.
      // Its 400 for every Accept is kept by refusal-bodies.ts, which unmarks the parser's error.
      onResultProcess({ result }) {
        if (Symbol.asyncIterator in result) return;
        for (const single of Array.isArray(result) ? result : [result]) {
          for (const error of single.errors ?? []) {
            const extensions = error.extensions as { originalError?: unknown } | undefined;
            if (extensions?.originalError !== undefined) delete extensions.originalError;
          }
        }
      },
    },
  ] as Plugin<TradegraphContext>[];
}
