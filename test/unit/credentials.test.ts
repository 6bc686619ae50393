// The one credential module: the bearer token read from Authorization, and the one digest of it
// that the rate limit, the response cache and the circuit breaker keep.
import { describe, expect, it } from 'vitest';
import { credentialDigest, credentialKeyOf, parseCredentials } from '../../src/credentials.js';

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
});
