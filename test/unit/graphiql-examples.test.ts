// GraphiQL's example tabs (graphiql/*.graphql) open on the first page, include a deferred-fees tab,
// and are each in the trusted-documents manifest, so a front end can also send them by hash.
// test/integration/examples.test.ts runs them against the simulator.
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { graphiqlOptions, graphiqlTabs } from '../../src/graphiql.js';
import { manifest } from '../support/trusted-documents.js';

const nameOf = (text: string) =>
  parse(text).definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)!
    .name!.value;

describe('GraphiQL examples', () => {
  it('open one tab per example, on the first page of the demo inventory, with a deferred-fees tab', () => {
    const options = graphiqlOptions({ Authorization: 'Bearer demo' });
    expect(options.defaultTabs!.map((tab) => nameOf(tab.query!))).toEqual([
      'InventoryFirstPage',
      'PageWithFees',
      'PageWithDeferredFees',
      'CalculateFees',
      'LiveInventory',
    ]);
    expect(options.defaultQuery).toBe(graphiqlTabs()[0]);
    expect(graphiqlTabs()[2]).toMatch(/\.\.\. @defer[\s\S]*listingFee/);
  });

  it.each(graphiqlTabs().map((text) => [nameOf(text)]))('%s is a document of the trusted-documents manifest', (name) => {
    expect(Object.values(manifest()).filter((text) => nameOf(text) === name)).toHaveLength(1);
  });
});
