// The closed set of error codes this API answers with, each with every condition that raises it.
// The README's error table lists the same codes; keep the two in step. Each code is written here
// once: the rest of src/ names it through ErrorCode or YogaErrorCode (test/unit/error-code-home.test.ts).
import { GraphQLError } from 'graphql';

export const ErrorCode = {
  /**
   * The client's input, refused before anything was sent upstream: an argument, input field,
   * cursor, id or entity reference out of range or malformed (BadUserInputError), a variable
   * value that does not fit its declared type (graphql-js's refusal, coded in error-codes.ts), or
   * an operationName that picks no operation of its document (Yoga's OPERATION_RESOLUTION_FAILURE,
   * recoded in error-codes.ts).
   */
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  /**
   * Three conditions: the Authorization header is malformed; an inventory was read without a token
   * (nothing is sent upstream); or the partner API answered HTTP 401.
   */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** The partner API answered HTTP 403 (the token lacks a permission). */
  FORBIDDEN: 'FORBIDDEN',
  /**
   * A budget is spent; `retryAfter` says in how many seconds to try again. Two conditions, one
   * class each: the caller's own budget at this service (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_MS;
   * the whole operation is refused with HTTP 429 before anything runs) or the partner API answering
   * HTTP 429 (the field that called it fails; `retryAfter` is the partner's Retry-After, if sent).
   */
  RATE_LIMITED: 'RATE_LIMITED',
  /** The partner API's envelope reported a failure; `upstream` holds its error fields as sent. */
  UPSTREAM_ERROR: 'UPSTREAM_ERROR',
  /**
   * The partner API answered something this service cannot use: a body that is not JSON, too
   * large, or not a well-formed envelope; an HTTP status it does not document; data of the wrong
   * shape (fees that do not match the items sent, an asset answered twice); or a value that does
   * not fit its GraphQL field's type (graphql-js's refusal to serialize it, coded in error-codes.ts).
   */
  UPSTREAM_BAD_RESPONSE: 'UPSTREAM_BAD_RESPONSE',
  /**
   * Three conditions: the partner API could not be reached (refused, reset, HTTP 5xx); its circuit
   * is open, and `retryAfter` holds the whole seconds until the next probe; or the call failed in
   * the client itself (the calling request closed, or an unexpected failure).
   */
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  /** Two conditions: the partner API did not answer within UPSTREAM_TIMEOUT_MS, or the operation outlived OPERATION_TIMEOUT_MS. */
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  /**
   * The service is at capacity; `retryAfter` in seconds. Two conditions: MAX_OPERATIONS_IN_FLIGHT
   * operations are being worked on (the request is refused with HTTP 503), or no partner
   * connection came free within UPSTREAM_CONNECTION_WAIT_MS (the field that needed it fails).
   */
  OVERLOADED: 'OVERLOADED',
  /** A GET or a form/text POST came without a CSRF header; nothing was executed (HTTP 403). */
  CSRF_HEADER_REQUIRED: 'CSRF_HEADER_REQUIRED',
  /**
   * The request is over one of the limits that `extensions.limit` names, refused before execution:
   * the body (bodyBytes, HTTP 413), the query text (queryBytes), the variables' nesting
   * (variablesDepth), or the parsed operation's tokens, depth, aliases, directives or cost (HTTP 400).
   */
  OPERATION_LIMIT_EXCEEDED: 'OPERATION_LIMIT_EXCEEDED',
  /** A request named a trusted document (documentId or persistedQuery hash) that the manifest lacks. */
  PERSISTED_QUERY_NOT_FOUND: 'PERSISTED_QUERY_NOT_FOUND',
  /** A request sent a query's text where only trusted documents may run; nothing was executed. */
  PERSISTED_QUERY_ONLY: 'PERSISTED_QUERY_ONLY',
  /** An operation uses @defer/@stream but the client accepts neither multipart/mixed nor text/event-stream (HTTP 406). */
  INCREMENTAL_DELIVERY_NOT_ACCEPTED: 'INCREMENTAL_DELIVERY_NOT_ACCEPTED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * Codes that come from Yoga, not from this service, and that the service names: outside the closed
 * set (the README's table), but written here so that every code has one home.
 */
export const YogaErrorCode = {
  /** Yoga's code for a request that is no GraphQL request; the service gives its own refusals before GraphQL the same one. */
  BAD_REQUEST: 'BAD_REQUEST',
  /** Yoga's code for an operationName that picks no operation of its document; recoded BAD_USER_INPUT in error-codes.ts. */
  OPERATION_RESOLUTION_FAILURE: 'OPERATION_RESOLUTION_FAILURE',
} as const;

/** Base of every error this API raises on purpose: its message and extensions are safe to show. */
export abstract class TradegraphError extends GraphQLError {
  protected constructor(
    message: string,
    readonly code: ErrorCode,
    extensions: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { code, ...extensions } });
  }
}

/** Quotes client input in a message without letting a huge value through. */
export function quote(value: string, max = 64): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** A value of a client's JSON input (a gateway's representation) as quoted JSON text; `absent` when there is none. */
export function quoteJson(value: unknown, absent: string): string {
  return value === undefined ? absent : `'${quote(JSON.stringify(value) ?? String(value))}'`;
}

export class BadUserInputError extends TradegraphError {
  constructor(message: string, argumentName?: string) {
    super(message, ErrorCode.BAD_USER_INPUT, argumentName ? { argumentName } : {});
  }
}

/**
 * An argument refused as execution starts, before the operation is charged: a size no list answers
 * (`items(first: 101)`). A request error of GraphQL over HTTP, as a variable that does not coerce
 * is: HTTP 400 under application/graphql-response+json, 200 under application/json (`spec`).
 */
export class ArgumentOutOfRangeError extends TradegraphError {
  constructor(message: string, argumentName: string) {
    super(message, ErrorCode.BAD_USER_INPUT, { argumentName, http: { status: 400, spec: true } });
  }
}

export class UnauthenticatedError extends TradegraphError {
  constructor(message: string) {
    super(message, ErrorCode.UNAUTHENTICATED);
  }
}

export class ForbiddenError extends TradegraphError {
  constructor(message: string) {
    super(message, ErrorCode.FORBIDDEN);
  }
}

/** The partner API answered HTTP 429. */
export class RateLimitedError extends TradegraphError {
  constructor(
    message: string,
    readonly retryAfter: number | undefined,
  ) {
    super(message, ErrorCode.RATE_LIMITED, retryAfter === undefined ? {} : { retryAfter });
  }
}

/** A refusal of this service's budgets: `http` makes Yoga answer 429 with Retry-After (it strips `http` from what the client sees). */
const tooManyRequests = (retryAfterSeconds: number) => ({
  retryAfter: retryAfterSeconds,
  http: { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } },
});

/** The caller's credential has used its RATE_LIMIT_MAX operations of the current window at this service. */
export class OperationRateLimitedError extends TradegraphError {
  constructor(max: number, windowMs: number, retryAfterSeconds: number, cost: number) {
    const budget = `${max} units of partner work per ${windowMs / 1000} s`;
    super(
      cost > max
        ? `The operation would cost ${cost} units of partner work, more than the whole budget of ${budget}: ask for less per operation.`
        : `The operation would cost ${cost} units of partner work, more than is left of the budget of ${budget}; try again in ${retryAfterSeconds} s.`,
      ErrorCode.RATE_LIMITED,
      tooManyRequests(retryAfterSeconds),
    );
  }
}

/**
 * A listing-fee call for a caller the partner has not accepted, refused before it was sent: such
 * fees are made with the merchant's key and share one budget, of which each client (address,
 * token) may spend only its share.
 */
export class UnprovenFeeBudgetError extends TradegraphError {
  constructor(scope: 'client' | 'total', total: number, share: number, windowMs: number, retryAfterSeconds: number) {
    const spent =
      scope === 'client'
        ? `this client has asked its share of them (${share} items per ${windowMs / 1000} s)`
        : `they have all been asked (${total} items per ${windowMs / 1000} s)`;
    super(
      `Listing fees of callers the partner has not accepted share one budget, and ${spent}; try again in ${retryAfterSeconds} s, ` +
        'or read an inventory with the token first: its fees then spend its own budget.',
      ErrorCode.RATE_LIMITED,
      tooManyRequests(retryAfterSeconds),
    );
  }
}

/** The error fields of a failed partner envelope, exactly as the partner sent them. */
export interface UpstreamErrorFields {
  errorCode: unknown;
  errorCodeStr: unknown;
  errorMsg: unknown;
  errorData: unknown;
}

export class PartnerEnvelopeError extends TradegraphError {
  constructor(
    operation: string,
    readonly upstream: UpstreamErrorFields,
  ) {
    const detail = typeof upstream.errorMsg === 'string' && upstream.errorMsg ? `: ${upstream.errorMsg}` : '';
    super(
      `The partner API refused '${operation}' with error code ${String(upstream.errorCode)}${detail}.`,
      ErrorCode.UPSTREAM_ERROR,
      { upstream },
    );
  }
}

export class UpstreamBadResponseError extends TradegraphError {
  constructor(operation: string, reason: string) {
    super(`The partner API answered '${operation}' with a malformed response: ${reason}.`, ErrorCode.UPSTREAM_BAD_RESPONSE);
  }
}

export class UpstreamUnavailableError extends TradegraphError {
  constructor(
    operation: string,
    reason: string,
    readonly retryAfter?: number,
  ) {
    super(
      `The partner API is unavailable for '${operation}': ${reason}.`,
      ErrorCode.UPSTREAM_UNAVAILABLE,
      retryAfter === undefined ? {} : { retryAfter },
    );
  }
}

export class UpstreamTimeoutError extends TradegraphError {
  /** `deadline`: the whole operation ran out of time (OPERATION_TIMEOUT_MS), not this one call. */
  constructor(
    operation: string,
    timeoutMs: number,
    readonly deadline = false,
  ) {
    super(
      deadline
        ? `The operation did not finish within ${timeoutMs} ms; '${operation}' was still waiting for the partner API.`
        : `The partner API did not answer '${operation}' within ${timeoutMs} ms.`,
      ErrorCode.UPSTREAM_TIMEOUT,
    );
  }
}

/**
 * The service's own saturation, never the partner's: refused at once so that the caller can retry
 * elsewhere or later, instead of queueing into a timeout. HTTP 503 when it refuses a whole request.
 */
export class OverloadedError extends TradegraphError {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(message, ErrorCode.OVERLOADED, { retryAfter });
  }
}

export class CsrfHeaderRequiredError extends TradegraphError {
  constructor(headerName: string) {
    // HTTP 403: the request is refused before GraphQL parses it, whatever the client accepts.
    super(
      `A GET request, or a POST whose content-type a browser sends without a CORS preflight, must carry the '${headerName}' header.`,
      ErrorCode.CSRF_HEADER_REQUIRED,
      { http: { status: 403 } },
    );
  }
}

/** Which limit an operation broke; see docs/operation-limits.md. */
export type OperationLimit = 'depth' | 'aliases' | 'directives' | 'tokens' | 'cost' | 'bodyBytes' | 'queryBytes' | 'variablesDepth' | 'liveSubscriptions';

/** The limits of the parsed operation; the others (body, query text, variables' nesting) refuse the request. */
const OPERATION_LIMITS_OF_THE_DOCUMENT: ReadonlySet<OperationLimit> = new Set(['depth', 'aliases', 'directives', 'tokens', 'cost']);

/**
 * An operation refused before execution because it is too large for the service to run on the
 * partner's behalf. Not BAD_USER_INPUT: no argument is wrong, and the client must split or trim the
 * operation rather than fix a value.
 */
export class OperationLimitError extends TradegraphError {
  constructor(
    readonly limit: OperationLimit,
    message: string,
    maximum: number,
  ) {
    // `http.status` makes Yoga answer 400 (it strips `http` from what the client sees). A limit of
    // the parsed operation is a validation error to GraphQL over HTTP, whose status follows the
    // media type (`spec`: 200 for application/json), whether it is checked while validating or,
    // for the cost that depends on the variables, just before execution.
    super(message, ErrorCode.OPERATION_LIMIT_EXCEEDED, {
      limit,
      maximum,
      http: { status: 400, ...(OPERATION_LIMITS_OF_THE_DOCUMENT.has(limit) ? { spec: true } : {}) },
    });
  }
}

/**
 * The id a request named is not in the trusted-documents manifest. Apollo's persisted-queries link
 * knows this code: where the service also runs query text, it sends the query again in full.
 */
export class PersistedQueryNotFoundError extends TradegraphError {
  constructor(documentId: string) {
    super(`'${quote(documentId, 80)}' is not the id of a trusted document of this service.`, ErrorCode.PERSISTED_QUERY_NOT_FOUND);
  }
}

export class PersistedQueryOnlyError extends TradegraphError {
  constructor() {
    super(
      "This service runs only trusted documents: send the 'documentId' (sha256) of a document of its manifest instead of a 'query'.",
      ErrorCode.PERSISTED_QUERY_ONLY,
    );
  }
}

export class IncrementalDeliveryNotAcceptedError extends TradegraphError {
  constructor() {
    // Refused before execution: answering a deferred operation in one JSON payload would hide that
    // the client asked for the page before its fees.
    super(
      "The operation uses @defer or @stream, whose answer comes in several payloads: send 'Accept: multipart/mixed' or 'Accept: text/event-stream'.",
      ErrorCode.INCREMENTAL_DELIVERY_NOT_ACCEPTED,
      { http: { status: 406 } },
    );
  }
}

/**
 * The error without its `http` extension, for a stream's event or a WebSocket message: there the
 * status would make Yoga answer the stream's request 4xx (a streaming client sees a network
 * failure, not the error), or reach the client as a field Yoga strips everywhere else.
 */
export function withoutHttpStatus(error: GraphQLError): GraphQLError {
  if (error.extensions.http === undefined) return error;
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, { nodes: error.nodes, path: error.path, extensions });
}

/**
 * The one printer of an error answer made outside GraphQL execution (a refusal of the HTTP layer,
 * the shedding and answer budgets), as Yoga prints its own: message and extensions, without the
 * `http` extension that only tells Yoga the status.
 */
export function errorAnswerBody({ message, extensions }: { message: string; extensions: Readonly<Record<string, unknown>> }): string {
  const { http: _http, ...printed } = extensions;
  return JSON.stringify({ errors: [{ message, extensions: printed }] });
}

/** A refusal made before GraphQL runs (405, a bad body, what Node's parser refuses), coded as Yoga codes its own. */
export function refusalBody(message: string): string {
  return errorAnswerBody({ message, extensions: { code: YogaErrorCode.BAD_REQUEST } });
}
