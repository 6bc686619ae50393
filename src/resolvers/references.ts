// Entity references resolve as items of `_entities`, a list the gateway reads by position.
import type { ReferenceResolver } from '../generated/resolvers-types.js';

/**
 * graphql-jit 0.8 puts the null of a list item whose promise rejects at the end of the list, not
 * at the item's index, so every later answer would shift onto the wrong reference. An item that
 * resolves to an Error value is placed at its own index by graphql-jit and graphql-js alike, with
 * the error at `_entities.<index>`; so a failed reference answers its error rather than throwing it.
 */
export function inPlace<TResult, TReference, TContext>(
  resolve: (reference: TReference, context: TContext) => Promise<TResult>,
): ReferenceResolver<TResult, TReference, TContext> {
  return (reference, context) =>
    resolve(reference, context).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))) as never);
}
