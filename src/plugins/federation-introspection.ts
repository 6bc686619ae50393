// Introspection shows a front-end developer the API, not the subgraph's federation plumbing: the
// `_service` and `_entities` fields, the `_Any`, `_Entity`, `_Service`, `link__*` and
// `federation__*` types, and the type-system directives the federation `@link` brings (`@key`,
// `@cost`, ...). A gateway composes from `_service { sdl }`, which is not introspection and still
// answers everything; an introspection that asks (header `x-tradegraph-federation: 1`, or
// `?federation=1`) sees the whole subgraph schema.
import {
  DirectiveLocation,
  Kind,
  OperationTypeNode,
  buildASTSchema,
  execute,
  getOperationAST,
  parse,
  printSchema,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

export const FEDERATION_HEADER = 'x-tradegraph-federation';

const INTERNAL_TYPE = /^(?:_Any|_Entity|_Service|link__.*|federation__.*)$/;
const INTERNAL_QUERY_FIELDS = new Set(['_service', '_entities']);
const INTROSPECTION_FIELDS = new Set(['__schema', '__type', '__typename']);
/** Where a client may write a directive: one with none of these is the schema's own (type-system) directive. */
const EXECUTABLE_LOCATIONS = new Set<string>([
  DirectiveLocation.QUERY,
  DirectiveLocation.MUTATION,
  DirectiveLocation.SUBSCRIPTION,
  DirectiveLocation.FIELD,
  DirectiveLocation.FRAGMENT_DEFINITION,
  DirectiveLocation.FRAGMENT_SPREAD,
  DirectiveLocation.INLINE_FRAGMENT,
  DirectiveLocation.VARIABLE_DEFINITION,
]);

/**
 * The schema as introspection shows it by default. Introspection runs no resolver of the schema,
 * so the view is built from its printed SDL (which keeps descriptions and deprecations), minus the
 * federation definitions.
 */
function withoutFederation(schema: GraphQLSchema): GraphQLSchema {
  const queryName = schema.getQueryType()?.name;
  const definitions = parse(printSchema(schema)).definitions.flatMap((definition): DefinitionNode[] => {
    if (definition.kind === Kind.DIRECTIVE_DEFINITION) {
      return definition.locations.some((location) => EXECUTABLE_LOCATIONS.has(location.value)) ? [definition] : [];
    }
    if (!('name' in definition) || !definition.name) return [definition];
    if (INTERNAL_TYPE.test(definition.name.value)) return [];
    if (definition.kind === Kind.OBJECT_TYPE_DEFINITION && definition.name.value === queryName) {
      return [{ ...definition, fields: definition.fields?.filter((field) => !INTERNAL_QUERY_FIELDS.has(field.name.value)) }];
    }
    return [definition];
  });
  return buildASTSchema({ kind: Kind.DOCUMENT, definitions }, { assumeValidSDL: true });
}

/** Whether the operation selects nothing but introspection at its root: what GraphiQL and codegen send. */
function isIntrospectionOnly(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = getOperationAST(document, operationName);
  return (
    operation?.operation === OperationTypeNode.QUERY &&
    operation.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && INTROSPECTION_FIELDS.has(selection.name.value))
  );
}

function asksForFederation(request: Request | undefined): boolean {
  if (!request) return false;
  return request.headers.get(FEDERATION_HEADER) === '1' || new URL(request.url).searchParams.get('federation') === '1';
}

/**
 * Answers an introspection-only operation from the view without federation, unless the request
 * asks for the whole schema; every other operation runs as it would without this plugin.
 */
export function useFederationIntrospection<TContext extends object>(): Plugin<TContext> {
  // One view per schema (Yoga's defer-stream plugin hands execution a schema with @defer added).
  const views = new WeakMap<GraphQLSchema, GraphQLSchema>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (!isIntrospectionOnly(args.document, args.operationName)) return;
      if (asksForFederation((args.contextValue as { request?: Request }).request)) return;
      let view = views.get(args.schema);
      if (!view) views.set(args.schema, (view = withoutFederation(args.schema)));
      // Introspection resolves synchronously: graphql-js answers a result, not a promise.
      setResultAndStopExecution(execute({ ...args, schema: view }) as Awaited<ReturnType<typeof execute>>);
    },
  };
}
