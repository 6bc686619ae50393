// The one mapping from the partner's answers to this service's errors: the client's
// `errorFromResponse` hook (after Apollo's RESTDataSource), what a failed attempt means as a typed
// error and whether another attempt may help; and the common envelope of a 200 answer
// (partner-api.md part 7), which decides success or failure and hands out `data` only on success.
// What `data` must look like is each operation module's business.
import type { Dispatcher } from 'undici';
import {
  ForbiddenError,
  PartnerEnvelopeError,
  RateLimitedError,
  UnauthenticatedError,
  UpstreamBadResponseError,
  UpstreamTimeoutError,
  UpstreamUnavailableError,
  type TradegraphError,
} from '../errors.js';

/** A transient failure worth another attempt: no answer, or a gateway that may recover. */
export class RetryableFailure extends Error {
  /**
   * `unreachable`: the partner could not be reached at all (see isUnreachable), a failure that no
   * request's content can cause.
   */
  constructor(
    readonly failure: TradegraphError,
    readonly unreachable = false,
  ) {
    super(failure.message);
  }
}

/**
 * Connection failures that come before the partner reads a request, or from the way to it: no
 * caller can cause them with a token or an inventory of its choosing. A reset counts too: a peer
 * that resets connections is not answering anyone.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  // TLS: the handshake or the certificate failed.
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

const isUnreachableCode = (code: string | undefined): boolean =>
  code !== undefined && (UNREACHABLE_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_'));

/** Whether a failed call never reached the partner for a reason no caller controls (UNREACHABLE_CODES). */
export function isUnreachable(error: unknown): boolean {
  return error instanceof RetryableFailure && error.unreachable;
}

/** The client that asked for the call went away; not an outage of the partner API. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the request');
  }
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);

/** A status other than 200, as a typed error (wrapped in RetryableFailure when a retry may help). */
export function errorFromStatus(
  operation: string,
  status: number,
  headers: Dispatcher.ResponseData['headers'],
): Error {
  switch (status) {
    case 401:
      return new UnauthenticatedError(
        'The partner API refused the access token (HTTP 401); send a valid one as Authorization: Bearer <token>.',
      );
    case 403:
      return new ForbiddenError(`The access token lacks the permission '${operation}' needs (HTTP 403).`);
    case 429:
      return new RateLimitedError(
        `The partner API is rate limiting '${operation}' (HTTP 429).`,
        parseRetryAfter(headers['retry-after']),
      );
  }
  if (status >= 500) {
    const failure = new UpstreamUnavailableError(operation, `it answered HTTP ${status}`);
    return RETRYABLE_STATUS.has(status) ? new RetryableFailure(failure) : failure;
  }
  return new UpstreamBadResponseError(operation, `unexpected HTTP status ${status}`);
}

/** Why a call's abort signal fired, if it did. */
interface AbortCause {
  timedOut: boolean;
  deadlinePassed: boolean;
  clientGone: boolean;
}

/**
 * A failure to get an answer: our timeout, the operation's deadline, the client leaving, a body
 * over its size limit, or the connection.
 */
export function errorFromRequestFailure(
  operation: string,
  error: unknown,
  abort: AbortCause,
  limits: { timeoutMs: number; deadlineMs: number },
): Error {
  if (abort.deadlinePassed) return new UpstreamTimeoutError(operation, limits.deadlineMs, true);
  if (abort.timedOut) return new UpstreamTimeoutError(operation, limits.timeoutMs);
  if (abort.clientGone) return new ClientGoneError();
  if (error instanceof UpstreamBadResponseError) return error;
  const code = (error as { code?: string } | null)?.code ?? (error as { cause?: { code?: string } } | null)?.cause?.code;
  return new RetryableFailure(
    new UpstreamUnavailableError(operation, `the connection failed (${code ?? 'unknown error'})`),
    isUnreachableCode(code),
  );
}

/** Only outages of the partner count towards opening its circuit: a 4xx or an envelope error is an answer. */
export function isOutage(error: unknown): boolean {
  const failure = error instanceof RetryableFailure ? error.failure : error;
  return failure instanceof UpstreamUnavailableError || (failure instanceof UpstreamTimeoutError && !failure.deadline);
}

/** Retry-After is either delta-seconds or an HTTP date; answers whole seconds from now. */
function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

export interface PartnerEnvelope {
  success?: boolean | null;
  data?: unknown;
  errorCode?: number | null;
  errorMsg?: string | null;
  errorData?: unknown;
  errorCodeStr?: string | null;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Returns the envelope's `data` when the envelope reports success, and throws otherwise.
 * Failure is `success: false` or a non-zero `errorCode`; both fields may be null, so success is
 * `success` not false and `errorCode` null or 0.
 */
export function unwrapEnvelope(operation: string, body: unknown): unknown {
  if (!isRecord(body)) {
    throw new UpstreamBadResponseError(operation, 'the body is not a JSON object');
  }
  const { success, errorCode } = body as PartnerEnvelope;
  if (success !== undefined && success !== null && typeof success !== 'boolean') {
    throw new UpstreamBadResponseError(operation, "the envelope's 'success' is not a boolean");
  }
  if (errorCode !== undefined && errorCode !== null && typeof errorCode !== 'number') {
    throw new UpstreamBadResponseError(operation, "the envelope's 'errorCode' is not a number");
  }
  if (success === false || (errorCode !== undefined && errorCode !== null && errorCode !== 0)) {
    throw new PartnerEnvelopeError(operation, {
      errorCode: body.errorCode ?? null,
      errorCodeStr: body.errorCodeStr ?? null,
      errorMsg: body.errorMsg ?? null,
      errorData: body.errorData ?? null,
    });
  }
  if (success === undefined && errorCode === undefined) {
    throw new UpstreamBadResponseError(operation, "the body has neither 'success' nor 'errorCode'");
  }
  return body.data;
}

