// Validation is cached per document by Yoga's own validation cache: with the service's whole plugin
// list (production's rules and the limits included), a validation rule runs on a document's first
// request only, a refusal is answered again on every later request, and each document has its own result.
import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import type { TradegraphContext } from '../../src/context.js';
import { tradegraphPlugins } from '../../src/plugins/index.js';
import { buildSchema } from '../../src/schema.js';
import { pluginPartsWith } from '../support/plugin-parts.js';

/** A rule that refuses any field or alias named `deniedHere`, and counts how often a document is validated. */
function countingRule(runs: { count: number }): Plugin<TradegraphContext> {
  const rule = (context: ValidationContext): ASTVisitor => {
    runs.count += 1;
    return {
      Field(node) {
        if ((node.alias ?? node.name).value === 'deniedHere') context.reportError(new GraphQLError('deniedHere is refused.', { nodes: node }));
      },
    };
  };
  return { onValidate: ({ addValidationRule }) => addValidationRule(rule) };
}

function serviceWith(runs: { count: number }) {
  const yoga = createYoga({
    schema: buildSchema(),
    plugins: [
      ...tradegraphPlugins(pluginPartsWith({ NODE_ENV: 'production', PARTNER_API_URL: 'http://127.0.0.1:9' })),
      countingRule(runs),
    ] as Plugin[],
    logging: false,
  });
  return async (query: string) => {
    const response = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
  };
}

describe("the service's validation, cached by Yoga", () => {
  it("runs on a document's first request only", async () => {
    const runs = { count: 0 };
    const send = serviceWith(runs);
    const answers = [await send('{ __typename }'), await send('{ __typename }'), await send('{ __typename }')];
    expect(answers.map((answer) => answer.data)).toEqual(Array(3).fill({ __typename: 'Query' }));
    expect(runs.count).toBe(1);
  });

  it('refuses a document on every request with the same errors: the limits and the rules of production', async () => {
    const runs = { count: 0 };
    const send = serviceWith(runs);
    const manyAliases = `{ ${Array.from({ length: 40 }, (_, index) => `a${index}: inventory(platformId: "1", appId: 730) { id }`).join(' ')} }`;
    const introspection = '{ __schema { queryType { name } } }';
    for (const [document, code] of [
      [manyAliases, 'OPERATION_LIMIT_EXCEEDED'],
      [introspection, 'GRAPHQL_VALIDATION_FAILED'],
    ] as const) {
      const answers = [await send(document), await send(document)];
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[0]!.data).toBeUndefined();
      expect(new Set(answers[0]!.errors?.map((error) => error.extensions?.code))).toEqual(new Set([code]));
    }
    expect(runs.count).toBe(2);
  });

  it('validates each document on its own: a cached pass never answers for another document', async () => {
    const runs = { count: 0 };
    const send = serviceWith(runs);
    expect(await send('{ __typename }')).toMatchObject({ data: { __typename: 'Query' } });
    expect((await send('{ __typename deniedHere: __typename }')).errors?.map((error) => error.message)).toEqual(['deniedHere is refused.']);
    expect(await send('{ __typename }')).toMatchObject({ data: { __typename: 'Query' } });
    expect(runs.count).toBe(2);
  });
});
