// Keeps the README's GraphQL examples true: every operation in a ```graphql block of README.md
// must parse and validate against the schema the server executes.
import { readFileSync } from 'node:fs';
import { Kind, parse, validate, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/schema.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const documents = [...README.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => parse(match[1]!));

const isExecutable = (document: DocumentNode) =>
  document.definitions.every((d) => d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION);
const operationNames = (document: DocumentNode) =>
  document.definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.name?.value ?? '(anonymous)'] : []));

// SDL excerpts (type definitions) are not operations; only executable blocks are checked.
const examples = documents.filter(isExecutable);

describe('README examples', () => {
  const schema = buildSchema();

  it('has an example per use: first page, next page, refetch, fees beside items, the mutation', () => {
    expect(examples.flatMap(operationNames)).toEqual(
      expect.arrayContaining(['InventoryPage', 'InventoryNextPage', 'Refetch', 'InventoryWithFees', 'CalculateFees']),
    );
  });

  it.each(examples.map((document) => [operationNames(document).join(', '), document] as const))(
    'validates %s against the schema',
    (_names, document) => {
      expect(validate(schema, document).map((error) => error.message)).toEqual([]);
    },
  );
});
