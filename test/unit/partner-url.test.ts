// A partner call's URL: every path segment percent-encoded, the query written exactly as
// URLSearchParams writes it (the form redact.ts masks secrets in), values left out when undefined.
import { describe, expect, it } from 'vitest';
import { pathAndQuery } from '../../src/partner/send.js';

const TRICKY = ['plain', 'a b', 'a+b', 'a&b=c', "!~'()*", '50%', 'ünï', '😀', '/..', '', '-._*'];

/** Every ASCII character and a few beyond, each between two letters. */
const EVERY_CHARACTER = [...Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)), 'é', '€', '😀', '\ud800'].map(
  (character) => `a${character}b`,
);

describe('pathAndQuery', () => {
  it('writes every character of a query name and value as URLSearchParams does', () => {
    for (const text of EVERY_CHARACTER) {
      const expected = new URLSearchParams([[text, text]]).toString();
      expect(pathAndQuery('', ['x'], { [text]: text }).pathAndQuery, JSON.stringify(text)).toBe(`/x?${expected}`);
    }
  });

  it('writes every query value as URLSearchParams does', () => {
    for (const value of TRICKY) {
      const expected = new URLSearchParams({ access_token: value, count: '21' }).toString();
      expect(pathAndQuery('', ['x'], { access_token: value, count: 21 }).pathAndQuery).toBe(`/x?${expected}`);
    }
  });

  it('percent-encodes each path segment, keeps the prefix, and leaves out undefined values', () => {
    expect(pathAndQuery('/prefix', ['api', 'a b/c', 730], { startAssetId: undefined, count: 5 })).toEqual({
      path: '/prefix/api/a%20b%2Fc/730',
      pathAndQuery: '/prefix/api/a%20b%2Fc/730?count=5',
    });
    expect(pathAndQuery('', ['api'], { startAssetId: undefined })).toEqual({ path: '/api', pathAndQuery: '/api' });
  });
});
