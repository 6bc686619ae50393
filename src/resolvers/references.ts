// Entity references resolve as items of `_entities`, a list the gateway reads by position.
import { entitiesResolver } from '@apollo/subgraph';
import { isUnionType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { BadUserInputError, quoteJson } from '../errors.js';
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

/**
 * `Query._entities`, as @apollo/subgraph resolves it, with each representation checked first. The
 * representations are JSON relayed by a gateway (`_Any`): one that is not an object, or does not
 * name an entity type of this subgraph in `__typename`, is BAD_USER_INPUT at its own index (the
 * library would throw for the whole list, or hand a non-entity such as `Query` on to execution);
 * the others resolve.
 */
export const entities: GraphQLFieldResolver<unknown, unknown, { representations: unknown[] }> = (
  _source,
  { representations },
  context,
  info,
) => {
  const entityTypes = entityTypesOf(info.schema);
  const answers: unknown[] = new Array(representations.length);
  const good: Record<string, unknown>[] = [];
  const goodIndexes: number[] = [];
  representations.forEach((representation, index) => {
    const refusal = refusalOf(representation, index, entityTypes);
    if (refusal) {
      answers[index] = refusal;
    } else {
      good.push(representation as Record<string, unknown>);
      goodIndexes.push(index);
    }
  });
  const resolved = good.length > 0 ? (entitiesResolver({ representations: good, context, info }) as unknown[]) : [];
  resolved.forEach((answer, at) => (answers[goodIndexes[at]!] = answer));
  return answers;
};

/** The entity types (those with `@key`): the members of the `_Entity` union the library adds. */
const entityTypesBySchema = new WeakMap<GraphQLSchema, ReadonlySet<string>>();

function entityTypesOf(schema: GraphQLSchema): ReadonlySet<string> {
  let names = entityTypesBySchema.get(schema);
  if (!names) {
    const union = schema.getType('_Entity');
    names = new Set(isUnionType(union) ? union.getTypes().map((type) => type.name) : []);
    entityTypesBySchema.set(schema, names);
  }
  return names;
}

function refusalOf(representation: unknown, index: number, entityTypes: ReadonlySet<string>): BadUserInputError | null {
  // Worded only for a refusal: a good representation, the usual case, needs no message.
  const refuse = (got: string) =>
    new BadUserInputError(
      `Representation ${index} must be an object whose '__typename' is an entity type of this subgraph (${[...entityTypes].join(', ')}); ${got}.`,
      'representations',
    );
  if (typeof representation !== 'object' || representation === null || Array.isArray(representation)) {
    return refuse(`got ${quoteJson(representation, 'missing')}`);
  }
  const typename = (representation as Record<string, unknown>).__typename;
  if (typeof typename !== 'string' || !entityTypes.has(typename)) {
    return refuse(`its '__typename' is ${quoteJson(typename, 'missing')}`);
  }
  return null;
}
