// The common response envelope (partner-api.md part 7): decides success or failure and hands out
// `data` only on success. What `data` must look like is each operation module's business.
import { PartnerEnvelopeError, UpstreamBadResponseError } from '../errors.js';

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

