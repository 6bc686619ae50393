import { describe, expect, it } from 'vitest';
import { ErrorCode, PartnerEnvelopeError, type TradegraphError } from '../../src/errors.js';
import { unwrapEnvelope } from '../../src/partner/error-from-response.js';
import { parseInventoryPage } from '../../src/partner/inventory.js';
import { parseListingFeeResults } from '../../src/partner/listing-fee.js';
import { redactSecrets } from '../../src/partner/redact.js';

/** What `run` throws; a run that throws nothing fails the test here, outside any catch. */
const errorOf = (run: () => unknown): unknown => {
  let thrown: unknown = undefined;
  try {
    run();
  } catch (error) {
    thrown = error ?? new Error('threw a nullish value');
  }
  expect(thrown, 'expected the call to throw').toBeDefined();
  return thrown;
};
const codeOf = (run: () => unknown): string | undefined => (errorOf(run) as TradegraphError).code;

describe('unwrapEnvelope', () => {
  it.each([
    { success: true, errorCode: 0, data: { a: 1 } },
    { success: true, errorCode: null, data: { a: 1 } },
    { success: null, errorCode: 0, data: { a: 1 } },
    { success: true, data: { a: 1 } },
  ])('hands out data of a successful envelope %o', (body) => {
    expect(unwrapEnvelope('op', body)).toEqual({ a: 1 });
  });

  it.each([
    { success: false, errorCode: 0 },
    { success: true, errorCode: 7 },
    { success: null, errorCode: 7 },
  ])('raises UPSTREAM_ERROR for a failed envelope %o', (body) => {
    expect(codeOf(() => unwrapEnvelope('op', body))).toBe(ErrorCode.UPSTREAM_ERROR);
  });

  it('keeps the error fields as sent, nulls for absent ones', () => {
    const error = errorOf(() => unwrapEnvelope('op', { success: false, errorCode: 5, errorMsg: 'no', errorData: { x: [1] } }));
    expect(error).toBeInstanceOf(PartnerEnvelopeError);
    expect((error as PartnerEnvelopeError).upstream).toEqual({ errorCode: 5, errorCodeStr: null, errorMsg: 'no', errorData: { x: [1] } });
  });

  it.each([null, [], 'text', 12, {}, { success: 'yes' }, { errorCode: '0' }])(
    'raises UPSTREAM_BAD_RESPONSE for %j',
    (body) => {
      expect(codeOf(() => unwrapEnvelope('op', body))).toBe(ErrorCode.UPSTREAM_BAD_RESPONSE);
    },
  );
});

describe('parseInventoryPage', () => {
  it('accepts a page and keeps asset ids as text', () => {
    const page = parseInventoryPage({ total: 2, lastAssetId: '30000000000000010', list: [{ assetId: '30000000000000003' }, { assetId: 12 }] });
    expect(page.list.map((item) => item.assetId)).toEqual(['30000000000000003', '12']);
    expect(page).toMatchObject({ total: 2, lastAssetId: '30000000000000010' });
  });

  it('reads a missing list and total as an empty page of unknown size', () => {
    expect(parseInventoryPage({})).toEqual({ platformId: null, appId: null, total: null, lastAssetId: null, list: [] });
  });

  it.each([
    ['data not an object', []],
    ['list not an array', { list: 'x' }],
    ['total not a number', { total: '3', list: [] }],
    ['an item not an object', { list: [1] }],
    ['an asset id with letters', { list: [{ assetId: '12a' }] }],
    ['a numeric asset id past 2^53', { list: [{ assetId: 2 ** 60 }] }],
    ['an item without asset id', { list: [{ name: 'x' }] }],
  ])('refuses %s', (_case, data) => {
    expect(codeOf(() => parseInventoryPage(data))).toBe(ErrorCode.UPSTREAM_BAD_RESPONSE);
  });
});

describe('parseListingFeeResults', () => {
  it('accepts results and turns exact numeric ids into text', () => {
    expect(parseListingFeeResults([{ assetId: 5, itemId: '7', fee: 3, freeFeePrice: 1.5 }])).toEqual([
      { assetId: '5', itemId: '7', fee: 3, freeFeePrice: 1.5 },
    ]);
  });

  it.each([
    ['data not an array', {}],
    ['a fractional fee', [{ fee: 1.5 }]],
    ['a text freeFeePrice', [{ freeFeePrice: '1' }]],
    ['an inexact numeric asset id', [{ assetId: 2 ** 60 }]],
  ])('refuses %s', (_case, data) => {
    expect(codeOf(() => parseListingFeeResults(data))).toBe(ErrorCode.UPSTREAM_BAD_RESPONSE);
  });
});

describe('redactSecrets', () => {
  it('masks a secret anywhere in nested strings', () => {
    expect(redactSecrets({ msg: 'key k3y refused', data: ['k3y', { n: 1, s: 'xk3yx' }] }, ['k3y'])).toEqual({
      msg: 'key [redacted] refused',
      data: ['[redacted]', { n: 1, s: 'x[redacted]x' }],
    });
  });

  it.each([
    ['raw', (secret: string) => secret],
    ['percent-encoded', (secret: string) => encodeURIComponent(secret)],
    ['percent-encoded in lower case', (secret: string) => encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
    ['form-encoded (+ for spaces)', (secret: string) => new URLSearchParams({ t: secret }).toString().slice(2)],
    ['base64', (secret: string) => Buffer.from(secret).toString('base64')],
    ['base64url', (secret: string) => Buffer.from(secret).toString('base64url')],
    ['base64 one byte in', (secret: string) => Buffer.from(`u${secret}`).toString('base64')],
    ['base64 inside Basic credentials (two bytes in)', (secret: string) => Buffer.from(`m:${secret}`).toString('base64')],
  ])('masks the %s form of a token', (_form, encode) => {
    const secret = 'tok+x/y== with space';
    const echoed = redactSecrets({ errorMsg: `failed for access_token=${encode(secret)}&count=1` }, [secret]);
    expect(echoed.errorMsg).toContain('[redacted]');
    expect(echoed.errorMsg).not.toContain(encode(secret).slice(4, -4));
  });

  it('leaves values alone when there is no secret', () => {
    const value = { a: 'b' };
    expect(redactSecrets(value, [''])).toBe(value);
  });
});
