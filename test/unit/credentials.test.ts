// The one credential module: the bearer token read from Authorization, and the one digest of it
// that the rate limit, the response cache and the circuit breaker keep.
import { describe, expect, it, vi } from 'vitest';
import { credentialDigest, credentialKeyOf, credentialsOf, parseCredentials } from '../../src/credentials.js';

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
});
