import { Kind } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors.js';
import { DateTime, Decimal, fromUnixSeconds } from '../../src/resolvers/scalars.js';

describe('DateTime', () => {
  it('serializes as toISOString() text', () => {
    expect(DateTime.serialize(new Date(Date.UTC(2026, 0, 1)))).toBe('2026-01-01T00:00:00.000Z');
  });

  it('converts upstream Unix seconds', () => {
    expect(fromUnixSeconds(1_767_225_600, 't')!.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(fromUnixSeconds(0, 't')!.toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(fromUnixSeconds(null, 't')).toBeNull();
  });

  it.each(['1767225600', true, {}, Number.NaN, 1e20])('refuses %j as Unix seconds', (value) => {
    expect(() => fromUnixSeconds(value, 't')).toThrow(/not Unix seconds/);
  });

  it('parses ISO text input and refuses other text', () => {
    expect(DateTime.parseValue('2026-01-01T00:00:00.000Z')).toEqual(new Date(Date.UTC(2026, 0, 1)));
    expect(() => DateTime.parseValue('yesterday')).toThrow('DateTime must be an ISO-8601 string such as 2026-01-01T00:00:00.000Z.');
    expect(() => DateTime.parseLiteral({ kind: Kind.INT, value: '1' })).toThrow('DateTime must be an ISO-8601 string.');
  });
});

describe('Decimal', () => {
  it.each(['12.50', '0', '-3.1', '12345678901234567.89', '0.123456789012345678'])('passes %s through unchanged', (value) => {
    expect(Decimal.serialize(value)).toBe(value);
    expect(Decimal.parseValue(value)).toBe(value);
  });

  it.each([
    [12.5, 'a number'],
    ['1e5', 'a string'],
    ['12.', 'a string'],
    ['.5', 'a string'],
    ['abc', 'a string'],
    [null, 'null'],
  ])('refuses to serve %j as the partner\'s fault, UPSTREAM_BAD_RESPONSE', (value, described) => {
    expect(() => Decimal.serialize(value)).toThrow(
      expect.objectContaining({
        code: ErrorCode.UPSTREAM_BAD_RESPONSE,
        message: expect.stringContaining(`a decimal field holds ${described}, not decimal text`),
      }),
    );
  });

  it.each([12.5, '1e5', '12.', 'abc'])('refuses %j as input', (value) => {
    expect(() => Decimal.parseValue(value)).toThrow('Decimal must be decimal text such as "12.50".');
  });
});
