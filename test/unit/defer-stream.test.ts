// Which documents take graphql-js's incremental path, and which Accept headers may receive it.
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { acceptsIncrementalDelivery, requestsIncrementalDelivery, usesIncrementalDelivery } from '../../src/plugins/defer-stream.js';

describe('usesIncrementalDelivery', () => {
  it.each([
    ['{ a }', false],
    ['{ a @include(if: true) }', false],
    ['{ a { ... @defer { b } } }', true],
    ['{ a { ...F @defer(label: "x") } } fragment F on T { b }', true],
    ['{ a { ...F } } fragment F on T { c { ... @defer(if: false) { d } } }', true],
    ['{ list @stream(initialCount: 1) { id } }', true],
  ])('%s: %s', (text, expected) => {
    expect(usesIncrementalDelivery(parse(text))).toBe(expected);
  });
});

describe('acceptsIncrementalDelivery', () => {
  it.each([
    [null, true],
    ['', true],
    ['*/*', true],
    ['multipart/mixed', true],
    ['application/json, multipart/mixed;deferSpec=20220824', true],
    ['text/event-stream', true],
    ['application/graphql-response+json, application/json;q=0.9', false],
    ['application/json', false],
    ['multipart/mixed;q=0, application/json', false],
    ['Multipart/Mixed; charset=UTF-8', true],
    ['multipart/mixed; charset = utf-8', true],
    // Yoga's result processors match no entry with another charset, nor a quoted one.
    ['multipart/mixed; charset="utf-8", application/json', false],
    ['multipart/mixed; charset=iso-8859-1', false],
  ])('%s: %s', (accept, expected) => {
    expect(acceptsIncrementalDelivery(accept)).toBe(expected);
  });
});

describe('requestsIncrementalDelivery', () => {
  const query = (condition: string, declared = '') =>
    parse(`query Q($x: Int${declared}) { a { ... @defer(if: ${condition}) { b } } }`);
  it.each([
    ['true', '', {}, true],
    ['false', '', {}, false],
    ['$on', ', $on: Boolean!', { on: false }, false],
    ['$on', ', $on: Boolean!', { on: true }, true],
    ['$on', ', $on: Boolean = false', {}, false],
    ['$on', ', $on: Boolean = false', { on: true }, true],
    ['$on', ', $on: Boolean = true', {}, true],
    // Not given and no default, or an inherited name: on, as the executor would take it.
    ['$on', ', $on: Boolean', {}, true],
    ['$constructor', ', $constructor: Boolean = false', {}, false],
  ])('if: %s%s with %o: %s', (condition, declared, variables, expected) => {
    expect(requestsIncrementalDelivery(query(condition, declared), 'Q', variables)).toBe(expected);
  });

  it('counts @defer without if, and @stream, as on', () => {
    expect(requestsIncrementalDelivery(parse('{ a { ... @defer { b } } }'), undefined, {})).toBe(true);
    expect(requestsIncrementalDelivery(parse('{ list @stream(if: false, initialCount: 1) { id } }'), undefined, {})).toBe(false);
    expect(requestsIncrementalDelivery(parse('{ list @stream(initialCount: 1) { id } }'), undefined, {})).toBe(true);
  });
});
