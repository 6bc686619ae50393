// The examples a newcomer copies must work as shown: every operation of README.md's ```graphql
// blocks and every tab GraphiQL opens with is validated against the schema and run against the
// default simulator, and the answers are the demo inventory's.
import { readFileSync } from 'node:fs';
import { Kind, parse, print, validate, visit, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { graphiqlTabs } from '../../src/graphiql.js';
import { buildSchema } from '../../src/schema.js';
import { DEMO_APP_ID, DEMO_PLATFORM_ID, LIVE_DEMO_PLATFORM_ID, inventorySize, itemAt } from '../../src/simulator/data.js';
import { payloadsOf, type IncrementalPayload } from '../support/incremental.js';
import { useTestkit } from '../support/testkit.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const readmeDocuments = [...README.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => parse(match[1]!));
const tabDocuments = graphiqlTabs().map((tab) => parse(tab));

const operationsOf = (document: DocumentNode) =>
  document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
const readmeOperations = readmeDocuments.flatMap(operationsOf).map((operation) => operation.name?.value ?? '(anonymous)');

interface Fee {
  assetId: string | null;
  itemId: string | null;
  fee: number;
}

const kit = useTestkit();
const schema = buildSchema();
const demoItems = [0, 1].map((index) => itemAt(DEMO_PLATFORM_ID, DEMO_APP_ID, index));

async function run(document: DocumentNode, operationName: string, variables: Record<string, unknown> = {}) {
  const response = await kit().post({ query: document.loc!.source.body, operationName, variables });
  const body = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

const readmeDocumentOf = (name: string) =>
  readmeDocuments.find((document) => operationsOf(document).some((operation) => operation.name?.value === name))!;

describe('README examples', () => {
  it('has an example per use: first page, next page, refetch, fees beside items, the mutation', () => {
    expect(readmeOperations).toEqual(
      expect.arrayContaining(['InventoryPage', 'InventoryNextPage', 'Refetch', 'InventoryWithFees', 'CalculateFees']),
    );
  });

  it.each(readmeDocuments.map((document) => [operationsOf(document).map((o) => o.name?.value).join(', '), document] as const))(
    'validates %s against the schema',
    (_names, document) => {
      expect(validate(schema, document).map((error) => error.message)).toEqual([]);
    },
  );

  it('pages the demo inventory: the first page, then the next from its endCursor', async () => {
    const document = readmeDocumentOf('InventoryPage');
    const first = (await run(document, 'InventoryPage')) as {
      inventory: { totalCount: number; items: { pageInfo: { endCursor: string }; nodes: { assetId: string }[] } };
    };
    expect(first.inventory.totalCount).toBe(inventorySize(DEMO_PLATFORM_ID));
    expect(first.inventory.items.nodes.map((node) => node.assetId)).toEqual(
      Array.from({ length: 20 }, (_, index) => itemAt(DEMO_PLATFORM_ID, DEMO_APP_ID, index).assetId),
    );
    const next = (await run(readmeDocumentOf('InventoryNextPage'), 'InventoryNextPage', {
      after: first.inventory.items.pageInfo.endCursor,
    })) as { inventory: { items: { edges: { node: { assetId: string } }[] } } };
    expect(next.inventory.items.edges.map((edge) => edge.node.assetId)).toEqual(
      Array.from({ length: 20 }, (_, index) => itemAt(DEMO_PLATFORM_ID, DEMO_APP_ID, 20 + index).assetId),
    );
  });

  it('refetches the node it names', async () => {
    const data = (await run(readmeDocumentOf('Refetch'), 'Refetch')) as {
      node: { platformId: string; appId: number; totalCount: number } | null;
    };
    expect(data.node).toEqual(expect.objectContaining({ platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID, totalCount: 240 }));
  });

  it('prices the items of a page', async () => {
    const data = (await run(readmeDocumentOf('InventoryWithFees'), 'InventoryWithFees')) as {
      inventory: { items: { nodes: { assetId: string; listingFee: { fee: number } | null }[] } };
    };
    expect(data.inventory.items.nodes).toHaveLength(50);
    for (const node of data.inventory.items.nodes) expect(node.listingFee?.fee).toBeGreaterThan(0);
  });

  it("prices the demo items the mutation names, each fee naming the item's asset", async () => {
    const data = (await run(readmeDocumentOf('CalculateFees'), 'CalculateFees')) as { calculateListingFee: { fees: Fee[] } };
    expect(data.calculateListingFee.fees.map(({ assetId, itemId }) => ({ assetId, itemId }))).toEqual(
      demoItems.map(({ assetId, itemId }) => ({ assetId, itemId })),
    );
  });
});

describe('GraphiQL tabs', () => {
  it("name the simulator's demo inventory and the tokens of its first items", () => {
    const defaults: Record<string, string[]> = {};
    const tokens: string[] = [];
    for (const document of tabDocuments) {
      visit(document, {
        VariableDefinition(definition) {
          if (definition.defaultValue) (defaults[definition.variable.name.value] ??= []).push(print(definition.defaultValue));
        },
        ObjectField(field) {
          if (field.name.value === 'token' || field.name.value === 'styleToken') tokens.push(print(field.value));
        },
      });
    }
    // The live tab's inventory is the one the embedded simulator changes over time.
    expect(defaults).toEqual({
      platformId: [...Array(3).fill(`"${DEMO_PLATFORM_ID}"`), `"${LIVE_DEMO_PLATFORM_ID}"`],
      appId: Array(4).fill(String(DEMO_APP_ID)),
    });
    expect(tokens).toEqual(demoItems.flatMap(({ token, styleToken }) => [`"${token}"`, `"${styleToken}"`]));
  });

  it('defers the fees of the deferred tab: the page first, every fee in a later payload', async () => {
    const document = tabDocuments.find((candidate) => operationsOf(candidate)[0]!.name!.value === 'PageWithDeferredFees')!;
    const response = await kit().post({ query: document.loc!.source.body }, { headers: { accept: 'multipart/mixed' } });
    const payloads: IncrementalPayload[] = [];
    for await (const payload of payloadsOf(response)) payloads.push(payload);
    const nodes = (payloads[0]!.data as { inventory: { items: { nodes: object[] } } }).inventory.items.nodes;
    expect(nodes).toHaveLength(20);
    for (const node of nodes) expect(node).not.toHaveProperty('listingFee');
    const fees = payloads.slice(1).flatMap((payload) => payload.incremental ?? []);
    expect(fees).toHaveLength(20);
    for (const fee of fees) expect((fee.data as { listingFee: { fee: number } }).listingFee.fee).toBeGreaterThan(0);
  });

  it('streams the live tab: its first event at once, over SSE as GraphiQL subscribes', async () => {
    const document = tabDocuments.find((candidate) => operationsOf(candidate)[0]!.name!.value === 'LiveInventory')!;
    const response = await kit().post({ query: document.loc!.source.body }, { headers: { accept: 'text/event-stream' } });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!/^data: .*$/m.test(text)) text += (await reader.read()).value ?? '';
    await reader.cancel();
    const event = JSON.parse(/^data: (.*)$/m.exec(text)![1]!) as { data: { inventory: { totalCount: number } }; errors?: unknown };
    expect(event.errors).toBeUndefined();
    expect(event.data.inventory.totalCount).toBe(inventorySize(LIVE_DEMO_PLATFORM_ID));
  });

  // The deferred tab answers in several payloads, the live tab in a stream; the tests above read them.
  const singlePayloadTabs = tabDocuments.filter((document) => !['PageWithDeferredFees', 'LiveInventory'].includes(operationsOf(document)[0]!.name!.value!));
  it.each(singlePayloadTabs.map((document) => [operationsOf(document)[0]!.name!.value, document] as const))(
    'runs %s against the simulator without errors',
    async (name, document) => {
      expect(validate(schema, document).map((error) => error.message)).toEqual([]);
      const data = await run(document, name);
      if (name === 'CalculateFees') {
        const fees = (data as { calculateListingFee: { fees: Fee[] } }).calculateListingFee.fees;
        expect(fees.map((fee) => fee.assetId)).toEqual(demoItems.map((item) => item.assetId));
      } else {
        expect((data as { inventory: { items: { nodes: unknown[] } } }).inventory.items.nodes.length).toBeGreaterThan(0);
      }
    },
  );
});
