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
import { GraphQLError, Kind, getNamedType, isLeafType, isObjectType, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { maskError, type Plugin } from 'graphql-yoga';
import { ErrorCode, YogaErrorCode } from '../errors.js';
import type { Logger } from 'pino';

export interface ErrorCodesOptions {
  /** Yoga's `maskedErrors.isDev` (maskedErrorsOf): what a masked error keeps of its original. */
  isDev?: boolean;
  /** Where a masked error's cause is logged, as Yoga logs the ones it masks. */
  logger?: Logger;
}

/** Yoga's `maskedErrors`, and this plugin's masking of the streams' parts: never a message in production. */
export const maskedErrorsOf = (production: boolean): { isDev?: boolean } => (production ? { isDev: false } : {});

export function useErrorCodes<TContext extends object>({ isDev, logger }: ErrorCodesOptions = {}): Plugin<TContext> {
  const masked = (error: GraphQLError): GraphQLError => {
    logger?.error({ err: error }, error.message);
    return maskError(error, 'Unexpected error.', isDev) as GraphQLError;
  };
  // The same hooks object for every operation: nothing here depends on the request.
  const codeErrors = {
    onExecuteDone({ args, result, setResult }: ExecuteDone) {
      const { schema } = args;
      if (Symbol.asyncIterator in result) {
        return {
          onNext({ result: payload, setResult: setPayload }: { result: StreamPayload; setResult: (payload: StreamPayload) => void }) {
            const parts = payload.incremental ?? [];
            if (!payload.errors?.some(isUncoded) && !parts.some((part) => part.errors?.some(isUncoded))) return;
            // The first payload's own errors go on to Yoga's masking; the parts' would not.
            const coded = (error: GraphQLError) => codedFieldError(error, schema) ?? masked(error);
            setPayload({
              ...payload,
              ...(payload.errors ? { errors: payload.errors.map((error) => codedFieldError(error, schema) ?? error) } : {}),
              ...(payload.incremental ? { incremental: parts.map((part) => (part.errors ? { ...part, errors: part.errors.map(coded) } : part)) } : {}),
            });
          },
        };
      }
      if (!result.errors?.some(isUncoded)) return undefined;
      // Only a result refused before execution has errors and no `data` at all.
      if (!('data' in result)) setResult({ ...result, errors: result.errors.map(withInputCode) });
      else setResult({ ...result, errors: result.errors.map((error) => codedFieldError(error, schema) ?? error) });
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

interface ExecuteDone {
  args: { schema: GraphQLSchema };
  result: ExecutionResult | AsyncIterable<unknown>;
  setResult: (result: ExecutionResult) => void;
}

/** A payload of a stream: its own errors (the first payload), and the parts it delivers, each with its own. */
interface StreamPayload extends ExecutionResult {
  incremental?: readonly (ExecutionResult & { path?: readonly (string | number)[] })[];
}

const isUncoded = (error: GraphQLError) => error.extensions?.code === undefined;

const YOGA_OPERATION_RESOLUTION_FAILURE = YogaErrorCode.OPERATION_RESOLUTION_FAILURE;

function withoutOperationResolutionFailure(error: GraphQLError): GraphQLError {
  if (error.extensions?.code !== YOGA_OPERATION_RESOLUTION_FAILURE) return error;
  return new GraphQLError(
    "The document's operation to run is not known: name one of its operations in 'operationName' (a document of several operations needs one).",
    { extensions: { ...error.extensions, code: ErrorCode.BAD_USER_INPUT, argumentName: 'operationName' } },
  );
}

const withInputCode = (error: GraphQLError): GraphQLError =>
  isUncoded(error) ? recoded(error, ErrorCode.BAD_USER_INPUT, error.message, error.originalError ?? undefined) : error;

/**
 * A field error without a code, as the partner's value that its field's type refused: `null` when
 * it is not one (a resolver's own bug, for Yoga to mask). Told apart by type, never by graphql-js's
 * wording:
 * - a scalar's refusal is a GraphQLError (graphql-js's and graphql-scalars'), or has no original
 *   error at all when graphql-jit compiled the operation;
 * - Yoga's executor (@graphql-tools/executor, which runs what graphql-jit does not: variable
 *   defaults, @defer) rethrows that GraphQLError as a plain Error of the same message
 *   (completeLeafValue). A plain Error counts only on a leaf field without a resolver of its own,
 *   where nothing but serialising the partner's value can fail.
 */
function codedFieldError(error: GraphQLError, schema: GraphQLSchema): GraphQLError | null {
  if (!isUncoded(error)) return error;
  if (error.path === undefined || error.path.length === 0) return null;
  const original = error.originalError;
  if (original === undefined || original === null || original instanceof GraphQLError) return unfitValueError(error);
  const [node, ...others] = error.nodes ?? [];
  const name = node?.kind === Kind.FIELD && others.length === 0 ? node.name.value : undefined;
  return original.constructor === Error && name !== undefined && leavesOf(schema).has(name) ? unfitValueError(error) : null;
}

/** Names of the schema's leaf fields whose every definition has no resolver of its own; worked out once per schema. */
const leafFields = new WeakMap<GraphQLSchema, ReadonlySet<string>>();
function leavesOf(schema: GraphQLSchema): ReadonlySet<string> {
  let leaves = leafFields.get(schema);
  if (leaves) return leaves;
  const plain = new Set<string>();
  const resolved = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isLeafType(getNamedType(field.type))) continue;
      (field.resolve ? resolved : plain).add(field.name);
    }
  }
  leaves = new Set([...plain].filter((name) => !resolved.has(name)));
  leafFields.set(schema, leaves);
  return leaves;
}

/** The partner's value did not fit the field's type: named by the field's path, never quoted. */
function unfitValueError(error: GraphQLError): GraphQLError {
  const field = error.path!.filter((segment) => typeof segment === 'string').join('.');
  return recoded(error, ErrorCode.UPSTREAM_BAD_RESPONSE, `The partner API answered a value for '${field}' that does not fit the field's type.`);
}

/**
 * The error again, at the same place in the document and the result, with `code`. Without an
 * original error unless one is given: Yoga masks an error whose original is not a GraphQLError.
 */
function recoded(error: GraphQLError, code: ErrorCode, message: string, originalError?: Error): GraphQLError {
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError,
    extensions: { ...error.extensions, code },
  });
}
