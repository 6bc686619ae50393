// The error-codes plugin tells a partner's unserializable value (UPSTREAM_BAD_RESPONSE) from a
// resolver's own bug (left uncoded, for Yoga to mask) by the original error's type, never by the
// wording of graphql-js's messages.
import { GraphQLError, parse, visit, type ExecutionResult, type FieldNode } from 'graphql';
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

describe('error codes in the parts of a stream (@defer), which Yoga does not mask', () => {
  /** Runs the plugin's stream hook on one later payload and answers the payload it leaves. */
  function codedPart(errors: GraphQLError[], isDev = false) {
    const hooks = (useErrorCodes({ isDev }).onExecute as () => { onExecuteDone(payload: unknown): { onNext(payload: unknown): void } })();
    const stream = hooks.onExecuteDone({ result: { [Symbol.asyncIterator]: () => undefined }, setResult: () => undefined });
    let after: { incremental: { errors: GraphQLError[] }[] } = { incremental: [{ errors }] };
    stream.onNext({ result: after, setResult: (next: typeof after) => (after = next) });
    return after.incremental[0]!.errors;
  }
  // The field nodes of `{ inventory { status } }`: an object field, and a leaf, which has no selection.
  const fields: FieldNode[] = [];
  visit(parse('{ inventory { status } }'), { Field: (node) => void fields.push(node) });
  const [inventoryNode, statusNode] = fields as [FieldNode, FieldNode];
  const partError = (node: FieldNode, originalError: Error) =>
    new GraphQLError(originalError.message, { nodes: [node], path: ['inventory', 'status'], originalError });

  it("codes a leaf's refused value, which the incremental executor rethrows as a plain Error, as UPSTREAM_BAD_RESPONSE without quoting it", () => {
    const [error] = codedPart([partError(statusNode, new Error('Int cannot represent non-integer value: "secret-echo"'))]);
    expect(error!.extensions.code).toBe('UPSTREAM_BAD_RESPONSE');
    expect(error!.message).not.toContain('secret-echo');
  });

  it("masks a resolver's own bug as Yoga masks one in a single result: no message, INTERNAL_SERVER_ERROR", () => {
    for (const bug of [partError(inventoryNode, new Error('internal detail')), partError(statusNode, new TypeError('internal detail'))]) {
      const [error] = codedPart([bug]);
      expect(error!.extensions.code).toBe('INTERNAL_SERVER_ERROR');
      expect(error!.message).toBe('Unexpected error.');
      expect(JSON.stringify(error!.toJSON())).not.toContain('internal detail');
    }
  });

  it('leaves an error that has its code as it is', () => {
    const own = new GraphQLError('The partner API failed.', { path: ['inventory'], extensions: { code: 'UPSTREAM_ERROR' } });
    expect(codedPart([own])).toEqual([own]);
  });
});
