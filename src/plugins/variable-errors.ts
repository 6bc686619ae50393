// graphql-js refuses variable values that do not fit their declared types before execution, with
// errors that carry no code. This gives them BAD_USER_INPUT, like every other refused input.
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../errors.js';

export function useVariableErrorCodes<TContext extends object>(): Plugin<TContext> {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          // Only a result refused before execution has errors and no `data` at all.
          if (Symbol.asyncIterator in result || 'data' in result || !result.errors?.length) return;
          setResult({ ...result, errors: result.errors.map(withInputCode) } satisfies ExecutionResult);
        },
      };
    },
  };
}

function withInputCode(error: GraphQLError): GraphQLError {
  if (error.extensions.code !== undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: ErrorCode.BAD_USER_INPUT },
  });
}
