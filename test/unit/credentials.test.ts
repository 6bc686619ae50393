// The one credential module: the bearer token read from Authorization, and the one digest of it
// that the rate limit, the response cache and the circuit breaker keep.
import { describe, expect, it, vi } from 'vitest';
import {
  clientAddressOf,
  credentialDigest,
  credentialKeyOf,
  credentialsOf,
  parseCredentials,
  provenCallerOf,
  readAuthorization,
  UNPROVEN,
} from '../../src/credentials.js';
import { createClientIdentities } from '../../src/observability/client-identity.js';
import { requestIdOf } from '../../src/context.js';
import { scopeOf } from '../../src/request-scope.js';

/** SHA-256 of 'abc' in hex (FIPS 180-2, appendix B.1). */
const SHA256_OF_ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

const requestWith = (authorization?: string) =>
  new Request('http://service/graphql', { headers: authorization === undefined ? {} : { authorization } });

describe('credentials', () => {
  it('reads the bearer token, and no token from an empty header', () => {
    expect(parseCredentials('Bearer abc')).toEqual({ accessToken: 'abc' });
    expect(parseCredentials(null)).toEqual({ accessToken: null });
    expect(parseCredentials('  ')).toEqual({ accessToken: null });
  });

  it('refuses a malformed header as UNAUTHENTICATED without quoting it', () => {
    expect(() => parseCredentials('Basic c2VjcmV0')).toThrow(expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } }));
    expect(() => parseCredentials('Basic c2VjcmV0')).not.toThrow(/c2VjcmV0/);
  });

  it('digests a token as its SHA-256 in hex, and a request by that digest', () => {
    expect(credentialDigest('abc')).toBe(SHA256_OF_ABC);
    expect(credentialKeyOf(requestWith('Bearer abc'))).toBe(SHA256_OF_ABC);
  });

  it('gives no key to a request without a token or with a malformed header', () => {
    expect(credentialKeyOf(requestWith())).toBeNull();
    expect(credentialKeyOf(requestWith('Basic c2VjcmV0'))).toBeNull();
  });

  it("reads a request's Authorization header once for its credentials and its key", () => {
    const request = requestWith('Bearer abc');
    const get = vi.spyOn(request.headers, 'get');
    expect(credentialsOf(request)).toEqual({ accessToken: 'abc' });
    expect(credentialKeyOf(request)).toBe(SHA256_OF_ABC);
    expect(credentialsOf(request)).toEqual({ accessToken: 'abc' });
    expect(get.mock.calls).toEqual([['authorization']]);
  });

  it("refuses a malformed request's credentials each time they are asked for, and gives it no key", () => {
    const request = requestWith('Basic c2VjcmV0');
    expect(credentialKeyOf(request)).toBeNull();
    expect(() => credentialsOf(request)).toThrow(expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } }));
    expect(() => credentialsOf(request)).toThrow(expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } }));
  });

  it('finds the secret of a malformed header too, for the client names to be searched for', () => {
    expect(readAuthorization('Bearer abc').secret).toBe('abc');
    expect(readAuthorization('Token  s3cr3t-v4lue ').secret).toBe('s3cr3t-v4lue');
    expect(readAuthorization('s3cr3t-v4lue').secret).toBe('s3cr3t-v4lue');
    expect(readAuthorization(null).secret).toBeNull();
  });

  it("names a caller by its credential once the partner knows it, else as the one unproven caller", async () => {
    const evidence = { knows: (credential: string) => credential === 'known' };
    expect(provenCallerOf('known', evidence)).toBe('known');
    expect(provenCallerOf('made-up', evidence)).toBe(UNPROVEN);
    expect(provenCallerOf(null, evidence)).toBe(UNPROVEN);
    expect(await provenCallerOf('known', { knows: async () => true })).toBe('known');
  });

  it('takes the client address from the outermost of `hops` proxies, never from entries the client wrote', () => {
    const request = new Request('http://service/graphql', { headers: { 'x-forwarded-for': 'forged, 10.0.0.7, 10.0.0.8' } });
    const req = { socket: { remoteAddress: '10.0.0.9' } } as never;
    expect(clientAddressOf(request, req, 0)).toBe('10.0.0.9');
    expect(clientAddressOf(request, req, 1)).toBe('10.0.0.8');
    expect(clientAddressOf(request, req, 2)).toBe('10.0.0.7');
  });
});

describe('the request scope', () => {
  it("holds what every part reads of one request: its id, its caller, its client, its cost", () => {
    const request = new Request('http://service/graphql', {
      headers: { authorization: 'Bearer abc', 'x-request-id': 'req-1', 'graphql-client-name': 'web' },
    });
    const other = requestWith('Bearer xyz');
    expect(credentialKeyOf(request)).toBe(SHA256_OF_ABC);
    expect(requestIdOf(request)).toBe('req-1');
    createClientIdentities({ maxNames: 10 }).of(request);
    const scope = scopeOf(request);
    expect(scope).toBe(scopeOf(request));
    expect(scope).toMatchObject({ id: 'req-1', caller: { accessToken: 'abc', key: SHA256_OF_ABC }, client: { name: 'web' } });
    expect(scope.cost).toEqual({ requested: null, actual: 0 });
    expect(scopeOf(other)).not.toBe(scope);
    expect(scopeOf(other).caller).toBeUndefined();
  });
});
