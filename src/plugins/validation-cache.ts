// Validation once per parsed document: the validation plugins given here (limits, and what
// production hides) run on a document's first request only; later requests of that document take
// the stored result. One hook and one WeakMap lookup per request, where a hook per plugin and
// Yoga's own cache (keyed by every rule's name, joined again on each request) cost more.
import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** A plugin whose only part here is its onValidate hook. */
export type ValidationPlugin = Pick<Plugin, 'onValidate'>;

type OnValidate = NonNullable<Plugin['onValidate']>;
type ValidatePayload = Parameters<OnValidate>[0];
type AfterValidate = Extract<ReturnType<OnValidate>, (...args: never[]) => unknown>;
type AfterValidatePayload = Parameters<AfterValidate>[0];

/**
 * Replaces Yoga's validation cache, which the server turns off (`validationCache: false`). The
 * plugins' rules must not depend on the request, as Yoga's cache also assumes; so must the rules
 * of any other plugin's onValidate, which run on a document's first request and are cached with it.
 */
export function useValidationCache<TContext extends object>(plugins: readonly ValidationPlugin[]): Plugin<TContext> {
  const hooks = plugins.flatMap((plugin) => (plugin.onValidate ? [plugin.onValidate] : []));
  // Weakly keyed: a result lives as long as Yoga's parse cache keeps its document.
  const cache = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, readonly GraphQLError[]>>();
  const plugin: Plugin = {
    onValidate(payload: ValidatePayload) {
      const { schema, documentAST } = payload.params;
      let bySchema = cache.get(schema);
      if (!bySchema) cache.set(schema, (bySchema = new WeakMap()));
      const cached = bySchema.get(documentAST);
      if (cached) {
        payload.setResult(cached);
        return;
      }
      const after: AfterValidate[] = [];
      for (const hook of hooks) {
        const done = hook(payload);
        if (typeof done === 'function') after.push(done);
      }
      return (end: AfterValidatePayload) => {
        let result = end.result as readonly GraphQLError[];
        for (const done of after) {
          done({
            ...end,
            result,
            setResult: (errors) => {
              result = errors as readonly GraphQLError[];
              end.setResult(errors);
            },
          });
        }
        bySchema.set(documentAST, result);
      };
    },
  };
  return plugin as Plugin<TContext>;
}
