// Deprecated fields still asked for, by client: what the service's owners watch before they remove
// a field (docs/schema-evolution.md). The deprecated coordinates an operation uses are worked out
// once per parsed document (Yoga's parse cache hands back the same DocumentNode for the same text);
// each request only increments counters.
import { getOperationAST, isEnumType, isInputObjectType, isInterfaceType, isObjectType, Kind, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { TradegraphContext } from '../context.js';
import type { ClientIdentities } from '../observability/client-identity.js';
import { coordinatesUsedBy, fragmentsSpreadBy } from '../observability/field-usage.js';
import type { TradegraphMetrics } from '../observability/metrics.js';

const NONE: readonly string[] = Object.freeze([]);

const byDocument = new WeakMap<DocumentNode, Map<string, readonly string[]>>();

/**
 * The deprecated schema coordinates (fields, arguments, input fields, enum values) the operation
 * uses, with the fragments it spreads. The same list for the same document and operation: it is
 * computed on the first call only.
 */
export function deprecatedCoordinatesOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): readonly string[] {
  if (!hasDeprecations(schema)) return NONE;
  let byOperation = byDocument.get(document);
  if (!byOperation) byDocument.set(document, (byOperation = new Map()));
  const key = operationName ?? '';
  let found = byOperation.get(key);
  if (found === undefined) {
    const operation = getOperationAST(document, operationName);
    if (!operation) {
      found = NONE;
    } else {
      const fragments = new Map(
        document.definitions.flatMap((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [])),
      );
      const used = coordinatesUsedBy(schema, { kind: Kind.DOCUMENT, definitions: [operation, ...fragmentsSpreadBy(operation, fragments)] });
      const deprecated = used.filter((use) => use.deprecationReason !== null).map((use) => use.coordinate);
      found = deprecated.length === 0 ? NONE : Object.freeze(deprecated);
    }
    byOperation.set(key, found);
  }
  return found;
}

const deprecationsBySchema = new WeakMap<GraphQLSchema, boolean>();

/** Whether anything in the schema is deprecated: without a deprecation no document needs walking. */
function hasDeprecations(schema: GraphQLSchema): boolean {
  let found = deprecationsBySchema.get(schema);
  if (found === undefined) {
    found = Object.values(schema.getTypeMap()).some((type) => {
      if (isEnumType(type)) return type.getValues().some((value) => value.deprecationReason != null);
      if (isInputObjectType(type)) return Object.values(type.getFields()).some((field) => field.deprecationReason != null);
      if (!isObjectType(type) && !isInterfaceType(type)) return false;
      return Object.values(type.getFields()).some(
        (field) => field.deprecationReason != null || field.args.some((argument) => argument.deprecationReason != null),
      );
    });
    deprecationsBySchema.set(schema, found);
  }
  return found;
}

export interface DeprecatedUsageOptions {
  metrics: TradegraphMetrics;
  clients: ClientIdentities;
}

/** Counts each executed operation's use of deprecated coordinates, by client name. */
export function useDeprecatedUsage({ metrics, clients }: DeprecatedUsageOptions): Plugin<TradegraphContext> {
  return {
    onExecute({ args }) {
      const used = deprecatedCoordinatesOf(args.schema, args.document, args.operationName);
      if (used.length === 0) return;
      const { name } = clients.of(args.contextValue.request);
      for (const coordinate of used) metrics.countDeprecatedUse(coordinate, name);
    },
  };
}
