// The caller's credential: read from the Authorization header once per request, and digested into
// the one form that may outlive the request (rate-limit counters, response-cache keys, the circuit
// breaker's fault domains). The token itself never leaves the request's own partner calls.
import { hash } from 'node:crypto';
import { UnauthenticatedError } from './errors.js';

export interface Credentials {
  /** The caller's partner access token, from `Authorization: Bearer <token>`; null when absent. */
  accessToken: string | null;
}

// RFC 6750 b64token, bounded so that a huge header is refused rather than forwarded.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,4096}=*) *$/i;

export function parseCredentials(authorization: string | null): Credentials {
  if (authorization === null || authorization.trim() === '') return { accessToken: null };
  const match = BEARER.exec(authorization);
  if (!match) {
    // The header's value is never quoted back: it is a credential.
    throw new UnauthenticatedError("The Authorization header must have the form 'Bearer <token>'.");
  }
  return { accessToken: match[1]! };
}

/** The SHA-256 (hex) of an access token: the only form of a credential kept beyond its request. */
export function credentialDigest(accessToken: string): string {
  return hash('sha256', accessToken, 'hex');
}

/**
 * What a request's Authorization header says, read once: its credentials and their digest (worked
 * out on first use; null without a token), or their refusal.
 */
type Read = { credentials: Credentials; key?: string | null } | { refusal: UnauthenticatedError; key: null };

// One reading per HTTP request, shared by the context, the rate limit and the response cache.
const reads = new WeakMap<Request, Read>();

function readOf(request: Request): Read {
  let read = reads.get(request);
  if (read === undefined) {
    try {
      read = { credentials: parseCredentials(request.headers.get('authorization')) };
    } catch (error) {
      if (!(error instanceof UnauthenticatedError)) throw error;
      read = { refusal: error, key: null };
    }
    reads.set(request, read);
  }
  return read;
}

/**
 * The credential digest of an Authorization header read outside Yoga (the node:http server's own
 * refusals); null without a token or with a malformed header, as credentialKeyOf.
 */
export function credentialKeyOfHeader(authorization: string | undefined): string | null {
  try {
    const { accessToken } = parseCredentials(authorization ?? null);
    return accessToken === null ? null : credentialDigest(accessToken);
  } catch (error) {
    if (error instanceof UnauthenticatedError) return null;
    throw error;
  }
}

/** The request's credentials (parseCredentials of its Authorization header); throws its refusal. */
export function credentialsOf(request: Request): Credentials {
  const read = readOf(request);
  if ('refusal' in read) throw read.refusal;
  return read.credentials;
}

/**
 * The request's credential digest; null when the request has no token or a malformed
 * Authorization header (which the context refuses anyway).
 */
export function credentialKeyOf(request: Request): string | null {
  const read = readOf(request);
  if (read.key === undefined) {
    const token = read.credentials.accessToken;
    read.key = token === null ? null : credentialDigest(token);
  }
  return read.key;
}
