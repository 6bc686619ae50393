// GraphiQL's example tabs (graphiql/*.graphql): they open on the demo inventory, and codegen put
// each of them in the trusted-documents manifest, so a front end can also send them by hash.
import { Kind, parse, print, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { GRAPHIQL_EXAMPLES, graphiqlExample, graphiqlOptions } from '../../src/graphiql.js';
import { DEMO_APP_ID, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { manifest } from '../support/trusted-documents.js';

const operationOf = (text: string) =>
  parse(text).definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)!;

describe('GraphiQL examples', () => {
  it('open one tab per example, on the first page of the demo inventory, with a deferred-fees tab', () => {
    const options = graphiqlOptions({ Authorization: 'Bearer demo' });
    expect(options.defaultTabs!.map((tab) => operationOf(tab.query!).name?.value)).toEqual([
      'InventoryFirstPage',
      'PageWithFees',
      'PageWithDeferredFees',
      'CalculateFees',
    ]);
    expect(graphiqlExample('page-with-deferred-fees.graphql')).toMatch(/\.\.\. @defer[\s\S]*listingFee/);
  });

  it.each(GRAPHIQL_EXAMPLES)('%s defaults to the demo inventory', (file) => {
    const operation = operationOf(graphiqlExample(file));
    for (const variable of operation.variableDefinitions ?? []) {
      const expected = { platformId: `"${DEMO_PLATFORM_ID}"`, appId: String(DEMO_APP_ID) }[variable.variable.name.value];
      if (expected !== undefined) expect(print(variable.defaultValue!)).toBe(expected);
    }
  });

  it.each(GRAPHIQL_EXAMPLES)('%s is a document of the trusted-documents manifest', (file) => {
    const name = operationOf(graphiqlExample(file)).name!.value;
    const trusted = Object.values(manifest()).filter((text) => operationOf(text).name?.value === name);
    expect(trusted).toHaveLength(1);
  });
});
