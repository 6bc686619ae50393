// Which documents take graphql-js's incremental path, and which Accept headers may receive it.
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { acceptsIncrementalDelivery, usesIncrementalDelivery } from '../../src/plugins/defer-stream.js';

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
  ])('%s: %s', (accept, expected) => {
    expect(acceptsIncrementalDelivery(accept)).toBe(expected);
  });
});
