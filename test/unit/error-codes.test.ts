// The error-codes plugin tells a partner's unserializable value (UPSTREAM_BAD_RESPONSE) from a
// resolver's own bug (left uncoded, for Yoga to mask) by the original error's type, never by the
// wording of graphql-js's messages.
import { GraphQLError, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useErrorCodes } from '../../src/plugins/error-codes.js';

/** Runs the plugin's onExecuteDone on a result and answers the result it leaves. */
function coded(result: ExecutionResult): ExecutionResult {
  const hooks = (useErrorCodes().onExecute as () => { onExecuteDone(payload: unknown): void })();
  let after = result;
  hooks.onExecuteDone({ result, setResult: (next: ExecutionResult) => (after = next) });
  return after;
}

const path = ['inventory', 'items', 'nodes', 0, 'appId'];
const fieldError = (message: string, originalError?: Error) => new GraphQLError(message, { path, originalError });

describe('error codes', () => {
  it('codes a scalar refusing a value as UPSTREAM_BAD_RESPONSE, whatever its message, naming the field', () => {
    for (const refusal of ['Int cannot represent non-integer value: "x"', 'DateTime can only serialize a valid Date.']) {
      const result = coded({ data: { inventory: null }, errors: [fieldError(refusal, new GraphQLError(refusal))] });
      expect(result.errors!.map((error) => error.extensions.code)).toEqual(['UPSTREAM_BAD_RESPONSE']);
      expect(result.errors![0]!.message).toBe("The partner API answered a value for 'inventory.items.nodes.appId' that does not fit the field's type.");
    }
  });

  it('codes a refusal compiled by graphql-jit, which keeps no original error', () => {
    const result = coded({ data: { inventory: null }, errors: [fieldError('Expected a value of type "Int" but received: x')] });
    expect(result.errors!.map((error) => error.extensions.code)).toEqual(['UPSTREAM_BAD_RESPONSE']);
  });

  it("leaves a resolver's own bug uncoded, for Yoga to mask, even when its message reads like a scalar's", () => {
    const bug = fieldError('Int cannot represent a broken invariant', new TypeError('Int cannot represent a broken invariant'));
    const result = coded({ data: { inventory: null }, errors: [bug] });
    expect(result.errors).toEqual([bug]);
    expect(result.errors![0]!.extensions.code).toBeUndefined();
  });

  it('codes a variable refused before execution as BAD_USER_INPUT', () => {
    const result = coded({ errors: [new GraphQLError('Variable "$first" got invalid value "x"; Int cannot represent non-integer value: "x"')] });
    expect(result.errors!.map((error) => error.extensions.code)).toEqual(['BAD_USER_INPUT']);
  });
});
