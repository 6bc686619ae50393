// The validation cache (src/plugins/validation-cache.ts) on its own, over Yoga's fetch without a
// socket: the validation plugins it is given run once per parsed document, their refusals and
// their after-hooks' rewrites are answered again from the cache, and each document has its own.
import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useValidationCache, type ValidationPlugin } from '../../src/plugins/validation-cache.js';
import { buildSchema } from '../../src/schema.js';

/** Refuses any selection of `__schema`, and counts its runs. */
function refuseSchemaField(runs: { rule: number; after: number }): ValidationPlugin {
  const rule = (context: ValidationContext): ASTVisitor => ({
    Field(node) {
      if (node.name.value === '__schema') context.reportError(new GraphQLError('No __schema here.', { nodes: node }));
    },
  });
  return {
    onValidate({ addValidationRule }) {
      runs.rule += 1;
      addValidationRule(rule);
      return ({ result, setResult }) => {
        runs.after += 1;
        // An after-hook's rewrite must be what later requests of the document get too.
        if (result.length > 0) setResult(result.map((error) => new GraphQLError(`${error.message} (rewritten)`, { nodes: error.nodes })));
      };
    },
  };
}

function serviceWith(plugin: ValidationPlugin) {
  const yoga = createYoga({
    schema: buildSchema(),
    plugins: [useValidationCache([plugin])] as Plugin[],
    // As the service runs it: Yoga's own validation cache off, this one in its place.
    parserAndValidationCache: { validationCache: false },
    logging: false,
  });
  return async (query: string) => {
    const response = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as { data?: unknown; errors?: { message: string }[] };
  };
}

describe('useValidationCache', () => {
  it('runs the validation plugins once per document and answers its later requests the same', async () => {
    const runs = { rule: 0, after: 0 };
    const send = serviceWith(refuseSchemaField(runs));
    const answers = [await send('{ __typename }'), await send('{ __typename }'), await send('{ __typename }')];
    expect(answers).toEqual(Array(3).fill({ data: { __typename: 'Query' } }));
    expect(runs).toEqual({ rule: 1, after: 1 });
  });

  it("refuses a document on every request with the rule's errors, as its after-hooks left them", async () => {
    const runs = { rule: 0, after: 0 };
    const send = serviceWith(refuseSchemaField(runs));
    const refused = [await send('{ __schema { queryType { name } } }'), await send('{ __schema { queryType { name } } }')];
    for (const answer of refused) {
      expect(answer.data).toBeUndefined();
      expect(answer.errors?.map((error) => error.message)).toEqual(['No __schema here. (rewritten)']);
    }
    expect(runs).toEqual({ rule: 1, after: 1 });
  });

  it('validates each document on its own: a cached pass never answers for another document', async () => {
    const runs = { rule: 0, after: 0 };
    const send = serviceWith(refuseSchemaField(runs));
    expect(await send('{ __typename }')).toEqual({ data: { __typename: 'Query' } });
    expect((await send('{ __schema { queryType { name } } }')).errors).toHaveLength(1);
    expect(await send('{ __typename }')).toEqual({ data: { __typename: 'Query' } });
    expect(runs.rule).toBe(2);
  });
});
