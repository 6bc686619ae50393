// Who the caller is, in the one place every part of the service names one: the Authorization
// header read once per request (the only parser of it), the credential's digest (the one form that
// may outlive the request: rate-limit counters, response-cache keys, the circuit breaker's fault
// domains), whether the partner has accepted it, the anonymous caller, and the client's address.
// The token itself never leaves the request's own partner calls.
import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { UnauthenticatedError } from './errors.js';
import { scopeOf, type CallerRead } from './request-scope.js';

export interface Credentials {
  /** The caller's partner access token, from `Authorization: Bearer <token>`; null when absent. */
  accessToken: string | null;
}

/**
 * Requests without a credential (or with a malformed one, which the context then refuses), as one
 * caller: behind a load balancer the client address would be the balancer's, and a credential is
 * what the partner itself limits by.
 */
export const ANONYMOUS = 'anonymous';

/**
 * Every caller the partner has not accepted, as one: a made-up token proves nothing, so it is no
 * one in particular.
 */
export const UNPROVEN = 'unproven';

/** What the service asks to know whether the partner has accepted a credential (partner/accepted-credentials.ts). */
export interface CredentialEvidence {
  knows(credential: string): boolean | Promise<boolean>;
}

// RFC 6750 b64token, bounded so that a huge header is refused rather than forwarded.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,4096}=*) *$/i;
const SCHEME = /^\s*\S+\s+/;
const MALFORMED = "The Authorization header must have the form 'Bearer <token>'.";

/** An Authorization header read: its token when well formed, whatever follows its scheme, and its refusal when malformed. */
export function readAuthorization(authorization: string | null): CallerRead {
  if (authorization === null || authorization.trim() === '') return { accessToken: null, secret: null, refusal: null, key: null };
  const match = BEARER.exec(authorization);
  // Whatever follows the scheme, well formed or not: a malformed header may still hold a token.
  const secret = match ? match[1]! : authorization.replace(SCHEME, '').trim() || null;
  // The header's value is never quoted back: it is a credential.
  return { accessToken: match ? match[1]! : null, secret, refusal: match ? null : new UnauthenticatedError(MALFORMED), key: undefined };
}

export function parseCredentials(authorization: string | null): Credentials {
  const read = readAuthorization(authorization);
  if (read.refusal) throw read.refusal;
  return { accessToken: read.accessToken };
}

/** The SHA-256 (hex) of an access token: the only form of a credential kept beyond its request. */
export function credentialDigest(accessToken: string): string {
  return hash('sha256', accessToken, 'hex');
}

/** The request's Authorization header, read once per request (its scope keeps the reading). */
export function callerOf(request: Request): CallerRead {
  const scope = scopeOf(request);
  return (scope.caller ??= readAuthorization(request.headers.get('authorization')));
}

/**
 * The credential digest of an Authorization header read outside Yoga (the node:http server's own
 * refusals); null without a token or with a malformed header, as credentialKeyOf.
 */
export function credentialKeyOfHeader(authorization: string | undefined): string | null {
  const { accessToken } = readAuthorization(authorization ?? null);
  return accessToken === null ? null : credentialDigest(accessToken);
}

/** The request's credentials (parseCredentials of its Authorization header); throws its refusal. */
export function credentialsOf(request: Request): Credentials {
  const read = callerOf(request);
  if (read.refusal) throw read.refusal;
  return { accessToken: read.accessToken };
}

/**
 * The request's credential digest; null when the request has no token or a malformed
 * Authorization header (which the context refuses anyway).
 */
export function credentialKeyOf(request: Request): string | null {
  const read = callerOf(request);
  if (read.key === undefined) read.key = read.accessToken === null ? null : credentialDigest(read.accessToken);
  return read.key;
}

/** A credential as budgets and fault domains count it: itself (null: ANONYMOUS). */
export const callerKeyOf = (credential: string | null): string => credential ?? ANONYMOUS;

/**
 * A credential once the partner has accepted it (on any replica of the fleet), else UNPROVEN: how
 * the breaker counts a caller's faults.
 */
export function provenCallerOf(credential: string | null, evidence: CredentialEvidence): string | Promise<string> {
  if (credential === null) return UNPROVEN;
  const known = evidence.knows(credential);
  const callerIf = (proven: boolean) => (proven ? credential : UNPROVEN);
  return typeof known === 'boolean' ? callerIf(known) : known.then(callerIf);
}

/** Whether the partner has accepted the request's credential (false without one). */
export async function isProven(credential: string | null, evidence: CredentialEvidence): Promise<boolean> {
  return credential !== null && (await evidence.knows(credential));
}

/**
 * The client's address: the connection's, or behind `hops` proxies that each append the address
 * they were reached from to X-Forwarded-For, the entry the outermost of them wrote. Entries before
 * it are the client's own to write, so never trusted.
 */
export function clientAddressOf(request: Request, req: IncomingMessage | undefined, hops: number): string {
  const connection = req?.socket.remoteAddress ?? 'unknown';
  if (hops === 0) return connection;
  const forwarded = (request.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return forwarded[Math.max(0, forwarded.length - hops)] ?? connection;
}
