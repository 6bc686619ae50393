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

// One key per HTTP request, shared by the rate limit and the response cache.
const credentialKeys = new WeakMap<Request, string | null>();

/**
 * The request's credential digest; null when the request has no token or a malformed
 * Authorization header (which the context refuses anyway).
 */
export function credentialKeyOf(request: Request): string | null {
  let key = credentialKeys.get(request);
  if (key === undefined) {
    let token: string | null;
    try {
      token = parseCredentials(request.headers.get('authorization')).accessToken;
    } catch {
      token = null;
    }
    key = token === null ? null : credentialDigest(token);
    credentialKeys.set(request, key);
  }
  return key;
}
