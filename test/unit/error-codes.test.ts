// The error-codes plugin tells a partner's unserializable value (UPSTREAM_BAD_RESPONSE) from a
// resolver's own bug (left uncoded, for Yoga to mask; masked here in a stream's parts, which Yoga
// does not mask) by the original error's type and the field it failed on, never by the wording of
// graphql-js's messages.
import { GraphQLError, parse, visit, type ExecutionResult, type FieldNode } from 'graphql';
import { createSchema } from 'graphql-yoga';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { useErrorCodes } from '../../src/plugins/error-codes.js';

// `status` is a leaf read as the partner sent it; `total` a leaf with a resolver of its own.
const schema = createSchema({
  typeDefs: 'type Query { inventory: Inventory } type Inventory { status: Int total: Int appId: Int }',
  resolvers: { Inventory: { total: () => 1 } },
});

type Hooks = { onExecuteDone(payload: unknown): { onNext(payload: unknown): void } | undefined };
const hooksOf = (options?: Parameters<typeof useErrorCodes>[0]) => (useErrorCodes(options).onExecute as () => Hooks)();

/** Runs the plugin's onExecuteDone on a result and answers the result it leaves. */
function coded(result: ExecutionResult): ExecutionResult {
  let after = result;
  hooksOf().onExecuteDone({ args: { schema }, result, setResult: (next: ExecutionResult) => (after = next) });
  return after;
}

// The field nodes of `{ inventory { status total } }`: an object field, and two leaves.
const fields: FieldNode[] = [];
visit(parse('{ inventory { status total } }'), { Field: (node) => void fields.push(node) });
const [inventoryNode, statusNode, totalNode] = fields as [FieldNode, FieldNode, FieldNode];

const path = ['inventory', 'items', 'nodes', 0, 'appId'];
const fieldError = (message: string, originalError?: Error) => new GraphQLError(message, { path, originalError });
const errorOn = (node: FieldNode, originalError: Error) =>
  new GraphQLError(originalError.message, { nodes: [node], path: ['inventory', node.name.value], originalError });

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

  it("codes a refusal Yoga's executor rethrew as a plain Error, on a leaf read as the partner sent it", () => {
    const result = coded({ data: { inventory: null }, errors: [errorOn(statusNode, new Error('Int cannot represent non-integer value: "x"'))] });
    expect(result.errors!.map((error) => error.extensions.code)).toEqual(['UPSTREAM_BAD_RESPONSE']);
    expect(result.errors![0]!.message).not.toContain('"x"');
  });

  it("leaves a resolver's own bug uncoded, for Yoga to mask, even when its message reads like a scalar's", () => {
    const bugs = [
      fieldError('Int cannot represent a broken invariant', new TypeError('Int cannot represent a broken invariant')),
      // A plain Error on a leaf with a resolver, or on an object field, is the resolver's.
      errorOn(totalNode, new Error('Int cannot represent a broken invariant')),
      errorOn(inventoryNode, new Error('broken')),
    ];
    const result = coded({ data: { inventory: null }, errors: bugs });
    expect(result.errors).toEqual(bugs);
  });

  it('codes a variable refused before execution as BAD_USER_INPUT', () => {
    const result = coded({ errors: [new GraphQLError('Variable "$first" got invalid value "x"; Int cannot represent non-integer value: "x"')] });
    expect(result.errors!.map((error) => error.extensions.code)).toEqual(['BAD_USER_INPUT']);
  });
});

describe('error codes in a stream (@defer), whose later parts Yoga does not mask', () => {
  const logged: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(line) });

  /** Runs the plugin's stream hook on one later payload and answers the errors of its part. */
  function codedPart(errors: GraphQLError[]) {
    const stream = hooksOf({ isDev: false, logger }).onExecuteDone({ args: { schema }, result: { [Symbol.asyncIterator]: () => undefined }, setResult: () => undefined })!;
    let after: { incremental: { errors: GraphQLError[] }[] } = { incremental: [{ errors }] };
    stream.onNext({ result: after, setResult: (next: typeof after) => (after = next) });
    return after.incremental[0]!.errors;
  }

  it("codes a leaf's refused value, which the incremental executor rethrows as a plain Error, as UPSTREAM_BAD_RESPONSE without quoting it", () => {
    const [error] = codedPart([errorOn(statusNode, new Error('Int cannot represent non-integer value: "secret-echo"'))]);
    expect(error!.extensions.code).toBe('UPSTREAM_BAD_RESPONSE');
    expect(error!.message).not.toContain('secret-echo');
  });

  it("masks a resolver's own bug as Yoga masks one in a single result, and logs its cause as Yoga does", () => {
    for (const bug of [errorOn(inventoryNode, new Error('internal detail')), errorOn(statusNode, new TypeError('internal detail'))]) {
      logged.length = 0;
      const [error] = codedPart([bug]);
      expect(error!.extensions.code).toBe('INTERNAL_SERVER_ERROR');
      expect(error!.message).toBe('Unexpected error.');
      expect(JSON.stringify(error!.toJSON())).not.toContain('internal detail');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain('internal detail');
    }
  });

  it('leaves an error that has its code as it is', () => {
    const own = new GraphQLError('The partner API failed.', { path: ['inventory'], extensions: { code: 'UPSTREAM_ERROR' } });
    expect(codedPart([own])).toEqual([own]);
  });
});
