// Every error gets a code. A field error without one is graphql-js refusing to serialize a value
// the partner sent (an Int field holding "x", a Boolean holding "yes"): the partner's fault, so
// UPSTREAM_BAD_RESPONSE, naming the field by its path and never quoting the value, which might
// be a secret the partner echoed.
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../errors.js';

export function useFieldErrorCodes<TContext extends object>(): Plugin<TContext> {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || !result.errors?.some(isUncodedFieldError)) return;
          setResult({ ...result, errors: result.errors.map(withUpstreamCode) } satisfies ExecutionResult);
        },
      };
    },
  };
}

const isUncodedFieldError = (error: GraphQLError) =>
  error.extensions?.code === undefined && error.path !== undefined && error.path.length > 0 && !isUnexpected(error);

/** A resolver's own bug (not a GraphQLError) is Yoga's to mask; only serialization failures are ours. */
const isUnexpected = (error: GraphQLError) =>
  error.originalError !== undefined && error.originalError !== null && !(error.originalError instanceof GraphQLError) &&
  !/cannot represent/i.test(error.message);

function withUpstreamCode(error: GraphQLError): GraphQLError {
  if (!isUncodedFieldError(error)) return error;
  const field = error.path!.filter((segment) => typeof segment === 'string').join('.');
  return new GraphQLError(`The partner API answered a value for '${field}' that does not fit the field's type.`, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...error.extensions, code: ErrorCode.UPSTREAM_BAD_RESPONSE },
  });
}
