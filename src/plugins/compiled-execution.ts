// Compiled execution: operations run as code that graphql-jit generates once per executed document
// (Yoga's parse cache hands back the same DocumentNode for the same text), not field by field.
// What graphql-jit would run differently from graphql-js stays on graphql-js: variable defaults,
// and @defer/@stream, which graphql-jit would answer in one payload as if they were not there. So
// do mutations of several root fields: graphql-jit's serial execution keeps each run whole past its
// end (below); a mutation of one root field is compiled as a query of the mutation type.
import {
  GraphQLError,
  GraphQLSchema,
  Kind,
  OperationTypeNode,
  getOperationAST,
  type DocumentNode,
  type ExecutionResult,
  type OperationDefinitionNode,
  type Source,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { usesIncrementalDelivery } from './defer-stream.js';

/**
 * graphql-jit 0.8 ignores the default of a non-null variable (`$id: String! = "x"` sent without
 * `id` is refused as "not provided") and inlines defaults as JSON text, which a custom scalar's
 * default does not survive. Operations that declare a variable default run on graphql-js.
 */
function declaresVariableDefault(document: DocumentNode): boolean {
  return document.definitions.some(
    (definition) =>
      definition.kind === Kind.OPERATION_DEFINITION &&
      (definition.variableDefinitions ?? []).some((variable) => variable.defaultValue !== undefined),
  );
}

/**
 * graphql-jit 0.8 runs a mutation's fields one after another with functions its generated code
 * assigns to the run's execution context; V8 makes a function literal assigned to a property in the
 * old generation, and these reach the whole run (its context, variables, result): every mutation
 * run stayed in the heap until a full collection (docs/decisions/compiled-execution.md). A mutation
 * of one root field runs the same in order or not, so graphql-jit compiles it as a query of a
 * schema whose query root is the mutation type (`mutationRootView`), code without those functions.
 * A mutation of several root fields, which must run in order, runs on graphql-js.
 */
function asOneFieldQuery(document: DocumentNode, operation: OperationDefinitionNode): DocumentNode | null {
  const [only, ...others] = operation.selectionSet.selections;
  if (!only || only.kind !== Kind.FIELD || others.length > 0) return null;
  const query: OperationDefinitionNode = { ...operation, operation: OperationTypeNode.QUERY };
  return { ...document, definitions: document.definitions.map((definition) => (definition === operation ? query : definition)) };
}

/** The schema's types and directives with the mutation type as the query root; made once per schema. */
const mutationRootViews = new WeakMap<GraphQLSchema, GraphQLSchema | null>();
function mutationRootView(schema: GraphQLSchema): GraphQLSchema | null {
  let view = mutationRootViews.get(schema);
  if (view === undefined) {
    const mutationType = schema.getMutationType();
    view = mutationType
      ? new GraphQLSchema({ query: mutationType, types: Object.values(schema.getTypeMap()), directives: schema.getDirectives() })
      : null;
    mutationRootViews.set(schema, view);
  }
  return view;
}

/** What graphql-jit compiles for an operation: itself, a one-field mutation as a query, or nothing. */
function compilable(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): { schema: GraphQLSchema; document: DocumentNode } | null {
  if (declaresVariableDefault(document) || usesIncrementalDelivery(document)) return null;
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== OperationTypeNode.MUTATION) return { schema, document };
  const asQuery = asOneFieldQuery(document, operation);
  if (!asQuery) return null;
  const view = mutationRootView(schema);
  return view ? { schema: view, document: asQuery } : null;
}

/** The execute function of Yoga's engine (graphql-js's `execute`, as envelop wraps it). */
type ExecuteFn = Parameters<Parameters<NonNullable<Plugin['onExecute']>>[0]['setExecuteFn']>[0];

export interface CompiledExecutionOptions {
  /** Told once per document that graphql-jit cannot compile (that document runs on graphql-js). */
  onCompileFailure?: (operationName: string | null, errors: readonly Error[]) => void;
}

export function useCompiledExecution<TContext extends object>(
  options: CompiledExecutionOptions = {},
): Plugin<TContext> {
  // Per document, per operation name: the compiled query, or null for "run on graphql-js".
  // Keyed weakly by the parsed document, so it lives exactly as long as Yoga's parse cache keeps it.
  const cache = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();
  const compiledFor = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined) => {
    let byName = cache.get(document);
    if (!byName) cache.set(document, (byName = new Map()));
    const name = operationName ?? '';
    let compiled = byName.get(name);
    if (compiled === undefined) {
      compiled = null;
      const target = compilable(schema, document, operationName);
      if (target) {
        const result = compileQuery(target.schema, target.document, operationName ?? undefined);
        if (isCompiledQuery(result)) compiled = result;
        else options.onCompileFailure?.(operationName ?? null, result.errors ?? []);
      }
      byName.set(name, compiled);
    }
    return compiled;
  };
  /** The execute function that runs compiled, falling back to `executeFn`; made once per `executeFn`. */
  const compiledExecute = (executeFn: ExecuteFn): ExecuteFn => (execution) => {
    const compiled = compiledFor(execution.schema, execution.document, execution.operationName);
    if (!compiled) return executeFn(execution);
    const source = execution.document.loc?.source;
    const result = compiled.query(execution.rootValue, execution.contextValue, execution.variableValues);
    if (result instanceof Promise) return result.then((done) => locateErrors(done, source));
    // No `data` at all: the variables were refused before anything ran. graphql-js words
    // those errors differently, so it answers them itself; nothing has run, nothing runs twice.
    if (!('data' in result)) return executeFn(execution);
    return locateErrors(result, source);
  };
  // The engine hands every operation the same execute function: its wrapper is kept, not made anew.
  let wrapped: { executeFn: ExecuteFn; compiled: ExecuteFn } | undefined;
  return {
    onExecute({ executeFn, setExecuteFn }) {
      // The document is the one handed to the execute function, not the one onExecute saw: a plugin
      // listed later (the response cache) calls this function with a rewritten document, one that
      // also selects each object's __typename and id. Its rewrite is memoized per document, so the
      // compiled query is still made once per document.
      if (wrapped?.executeFn !== executeFn) wrapped = { executeFn, compiled: compiledExecute(executeFn) };
      setExecuteFn(wrapped.compiled);
    },
  };
}

/**
 * graphql-jit's errors carry `locations` but not the AST nodes behind them, and Yoga rebuilds
 * every error of a result from its nodes (or source and positions) before sending it, so the
 * locations would be lost. Each such error is rebuilt here as graphql-js builds it: same message,
 * path, original error and extensions, located by source and positions. Only failed results pay.
 */
function locateErrors(result: ExecutionResult, source: Source | undefined): ExecutionResult {
  if (!result.errors?.length || !source) return result;
  return { ...result, errors: result.errors.map((error) => locateError(error, source)) };
}

function locateError(error: GraphQLError, source: Source): GraphQLError {
  if (error.nodes || !error.locations?.length) return error;
  const lineStarts = [0];
  for (const match of source.body.matchAll(/\r\n|[\n\r]/g)) lineStarts.push(match.index + match[0].length);
  return new GraphQLError(error.message, {
    source,
    positions: error.locations.map(({ line, column }) => (lineStarts[line - 1] ?? 0) + column - 1),
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: error.extensions,
  });
}
