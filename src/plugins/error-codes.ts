// Every error gets a code. graphql-js leaves two kinds without one, and this gives them theirs:
// - a variable value that does not fit its declared type, refused before execution: the client's
//   input, so BAD_USER_INPUT, like every other refused input;
// - a field error without a code: graphql-js refusing to serialize a value the partner sent (an
//   Int field holding "x", a Boolean holding "yes"): the partner's fault, so UPSTREAM_BAD_RESPONSE,
//   naming the field by its path and never quoting the value, which might be a secret the
//   partner echoed;
// and Yoga's one code outside the closed set, OPERATION_RESOLUTION_FAILURE (a document of several
// operations and no operationName, or an operationName that names none of them), becomes
// BAD_USER_INPUT: the request's own parameter is wrong, nothing ran, and the answer stays HTTP 400.
//
// The parts of a stream (@defer) carry their errors in `incremental[].errors`, which Yoga's error
// masking does not reach (it masks a payload's own `errors` only): here they get their codes, and
// an unexpected error there is masked as Yoga masks one anywhere else.
import { GraphQLError, type ExecutionResult } from 'graphql';
import { maskError, type Plugin } from 'graphql-yoga';
import { ErrorCode } from '../errors.js';

export interface ErrorCodesOptions {
  /** Yoga's `maskedErrors.isDev`: what a masked error keeps of its original; Yoga's default when absent. */
  isDev?: boolean;
}

export function useErrorCodes<TContext extends object>({ isDev }: ErrorCodesOptions = {}): Plugin<TContext> {
  const streamCodes = {
    onNext({ result, setResult }: { result: StreamPayload; setResult: (result: StreamPayload) => void }) {
      if (!result.incremental?.some((part) => part.errors?.some((error) => error.extensions?.code === undefined))) return;
      const coded = (error: GraphQLError): GraphQLError => {
        if (error.extensions?.code !== undefined) return error;
        if (!isUnexpected(error)) return withUpstreamCode(error);
        return isUnfitLeafOfStream(error) ? unfitValueError(error) : (maskError(error, 'Unexpected error.', isDev) as GraphQLError);
      };
      setResult({ ...result, incremental: result.incremental.map((part) => (part.errors ? { ...part, errors: part.errors.map(coded) } : part)) });
    },
  };
  // The same hooks object for every operation: nothing here depends on the request.
  const codeErrors = {
    onExecuteDone({ result, setResult }: { result: ExecutionResult | AsyncIterable<unknown>; setResult: (result: ExecutionResult) => void }) {
      if (Symbol.asyncIterator in result) return streamCodes;
      if (!result.errors?.length) return undefined;
      // Only a result refused before execution has errors and no `data` at all.
      if (!('data' in result)) setResult({ ...result, errors: result.errors.map(withInputCode) });
      else if (result.errors.some(isUncodedFieldError)) setResult({ ...result, errors: result.errors.map(withUpstreamCode) });
      return undefined;
    },
  };
  return {
    onExecute: () => codeErrors,
    onResultProcess({ result, setResult }) {
      if (Symbol.asyncIterator in result || Array.isArray(result)) return;
      const single = result as ExecutionResult;
      if (!single.errors?.some((error) => error.extensions?.code === YOGA_OPERATION_RESOLUTION_FAILURE)) return;
      setResult({ ...single, errors: single.errors.map(withoutOperationResolutionFailure) });
    },
  };
}

/** Yoga's code for a request whose operationName picks no operation of its document. */
const YOGA_OPERATION_RESOLUTION_FAILURE = 'OPERATION_RESOLUTION_FAILURE';

function withoutOperationResolutionFailure(error: GraphQLError): GraphQLError {
  if (error.extensions?.code !== YOGA_OPERATION_RESOLUTION_FAILURE) return error;
  return new GraphQLError(
    "The document's operation to run is not known: name one of its operations in 'operationName' (a document of several operations needs one).",
    { extensions: { ...error.extensions, code: ErrorCode.BAD_USER_INPUT, argumentName: 'operationName' } },
  );
}


/** A payload of a stream after the first: the parts it delivers, each with its own errors. */
interface StreamPayload extends ExecutionResult {
  incremental?: readonly (ExecutionResult & { path?: readonly (string | number)[] })[];
}

/**
 * A leaf's value the scalar refused, as the incremental executor reports it: it rethrows the
 * scalar's GraphQLError as a plain Error of the same message (@graphql-tools/executor's
 * completeLeafValue). A field with no selection is a leaf; a resolver's own failure is rarely a
 * plain Error, and is masked as unexpected.
 */
const isUnfitLeafOfStream = (error: GraphQLError) =>
  error.originalError?.constructor === Error && error.nodes?.length === 1 && !('selectionSet' in error.nodes[0]! && error.nodes[0].selectionSet);

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

const isUncodedFieldError = (error: GraphQLError) =>
  error.extensions?.code === undefined && error.path !== undefined && error.path.length > 0 && !isUnexpected(error);

/**
 * A resolver's own bug is Yoga's to mask: its original error is not a GraphQLError. Told apart by
 * type alone: a scalar's refusal to serialize (graphql-js's and graphql-scalars') is a GraphQLError
 * or, compiled by graphql-jit, has no original error at all, whatever its message says.
 */
const isUnexpected = (error: GraphQLError) =>
  error.originalError !== undefined && error.originalError !== null && !(error.originalError instanceof GraphQLError);

const withUpstreamCode = (error: GraphQLError): GraphQLError => (isUncodedFieldError(error) ? unfitValueError(error) : error);

/** The partner's value did not fit the field's type: named by the field's path, never quoted. */
function unfitValueError(error: GraphQLError): GraphQLError {
  const field = error.path!.filter((segment) => typeof segment === 'string').join('.');
  return new GraphQLError(`The partner API answered a value for '${field}' that does not fit the field's type.`, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...error.extensions, code: ErrorCode.UPSTREAM_BAD_RESPONSE },
  });
}
