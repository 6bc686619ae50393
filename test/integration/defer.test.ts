// @defer over real HTTP: the page arrives in the first payload while its fee call is still held by
// the simulator, the fees in later payloads, still in one batched call; over multipart/mixed and
// text/event-stream. A client that accepts only JSON is refused with a code; errors of a deferred
// fragment arrive in its payload; the operation log line waits for the stream's outcome.
import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { InventoryWithDeferredFeesDocument, InventoryWithFeesDocument } from '../generated/graphql.js';
import { payloadsOf, type IncrementalPayload } from '../support/incremental.js';
import { errorCodes, expectNoGraphQLErrors, useTestkit, type GraphQLResponse } from '../support/testkit.js';
import { DEMO_APP_ID, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';

const kit = useTestkit();

const PAGE_SIZE = 5;
const variables = { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID, first: PAGE_SIZE, price: 10_000 };
const deferred = { query: print(InventoryWithDeferredFeesDocument), variables };

interface Node {
  id: string;
  assetId: string;
  listingFee?: { assetId: string; fee: string };
}
const nodesOf = (payload: IncrementalPayload) => (payload.data as { inventory: { items: { nodes: Node[] } } }).inventory.items.nodes;

/** Sends the deferred page with fees held upstream; answers the first payload and the rest. */
async function deferredPage(accept: string) {
  const release = kit().simulator.holdListingFees();
  try {
    const response = await kit().post(deferred, { headers: { accept } });
    expect(response.status).toBe(200);
    const payloads = payloadsOf(response);
    const first = (await payloads.next()).value as IncrementalPayload;
    // The fee call has reached the partner and is held there, unanswered: the page came first.
    await expect.poll(() => kit().simulator.callsOf('calculateListingFee').length).toBe(1);
    release();
    const rest: IncrementalPayload[] = [];
    for await (const payload of payloads) rest.push(payload);
    return { contentType: response.headers.get('content-type'), first, rest };
  } finally {
    release();
  }
}

describe('@defer on a page with listing fees', () => {
  it.each([
    ['multipart/mixed', /^multipart\/mixed/],
    ['text/event-stream', /^text\/event-stream/],
  ])('over %s: the page first, the fees in later payloads, from one fee call', async (accept, contentType) => {
    const { contentType: sent, first, rest } = await deferredPage(accept);
    expect(sent).toMatch(contentType);

    expect(first.errors).toBeUndefined();
    expect(first.hasNext).toBe(true);
    const nodes = nodesOf(first);
    expect(nodes).toHaveLength(PAGE_SIZE);
    for (const node of nodes) expect(node).not.toHaveProperty('listingFee');

    // At least one later payload (a silent one-payload fallback would have none), the last hasNext: false.
    expect(rest.length).toBeGreaterThanOrEqual(1);
    expect(rest.at(-1)!.hasNext).toBe(false);
    const increments = rest.flatMap((payload) => payload.incremental ?? []);
    expect(increments.flatMap((increment) => increment.errors ?? [])).toEqual([]);
    const fees = new Map(increments.map((increment) => [increment.path.join('.'), increment.data as Pick<Node, 'listingFee'>]));
    expect([...fees.keys()].sort()).toEqual(nodes.map((_, index) => `inventory.items.nodes.${index}`).sort());
    for (const increment of increments) expect(increment.label).toBe('fee');

    // The same fees as the operation without @defer, from one batched call for the whole page.
    const calls = kit().simulator.callsOf('calculateListingFee');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.batchSize).toBe(PAGE_SIZE);
    const whole = (await kit().execute(InventoryWithFeesDocument, variables)) as GraphQLResponse<{
      inventory: { items: { nodes: Node[] } };
    }>;
    expectNoGraphQLErrors(whole);
    whole.data.inventory.items.nodes.forEach((node, index) => {
      expect(fees.get(`inventory.items.nodes.${index}`)!.listingFee).toEqual(node.listingFee);
    });
  });

  it('refuses a client that accepts only JSON with a code, before anything runs upstream', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const response = await kit().post(deferred, { headers: { accept } });
      expect(response.status).toBe(406);
      const result = (await response.json()) as GraphQLResponse<unknown>;
      expect(errorCodes(result)).toEqual(['INCREMENTAL_DELIVERY_NOT_ACCEPTED']);
      expect(result.errors![0]!.message).toMatch(/multipart\/mixed/);
    }
    expect(kit().simulator.calls).toHaveLength(0);
  });

  it('answers a client that accepts only JSON in one payload when every @defer is switched off by its if', async () => {
    const switchable = (condition: string, declared = '') => ({
      query: `query SwitchableDefer($platformId: String!, $appId: Int!, $first: Int, $price: Int!${declared}) {
        inventory(platformId: $platformId, appId: $appId) {
          items(first: $first) { nodes { assetId ... @defer(if: ${condition}) { listingFee(price: $price) { assetId fee } } } }
        }
      }`,
    });
    const ask = (condition: string, declared?: string, extra: Record<string, unknown> = {}) =>
      kit().post({ ...switchable(condition, declared), variables: { ...variables, ...extra } }, { headers: { accept: 'application/json' } });

    const whole = await kit().execute(InventoryWithFeesDocument, variables);
    expectNoGraphQLErrors(whole);
    const feeOf = new Map(whole.data!.inventory!.items.nodes.map((node) => [node.assetId, node.listingFee!.fee]));
    for (const response of [
      await ask('false'),
      await ask('$deferFees', ', $deferFees: Boolean!', { deferFees: false }),
      await ask('$deferFees', ', $deferFees: Boolean = false'),
    ]) {
      expect(response.status).toBe(200);
      const result = (await response.json()) as GraphQLResponse<{ inventory: { items: { nodes: Node[] } } }>;
      expectNoGraphQLErrors(result);
      const nodes = result.data!.inventory.items.nodes;
      expect(nodes).toHaveLength(PAGE_SIZE);
      for (const node of nodes) expect(node.listingFee).toEqual({ assetId: node.assetId, fee: feeOf.get(node.assetId) });
    }
    // Switched on, by a variable or by its default: still refused, before anything runs upstream.
    kit().simulator.reset();
    for (const response of [
      await ask('$deferFees', ', $deferFees: Boolean!', { deferFees: true }),
      await ask('$deferFees', ', $deferFees: Boolean = true'),
    ]) {
      expect(response.status).toBe(406);
      expect(errorCodes((await response.json()) as GraphQLResponse<unknown>)).toEqual(['INCREMENTAL_DELIVERY_NOT_ACCEPTED']);
    }
    expect(kit().simulator.calls).toHaveLength(0);
  });

  it('sends the error of a deferred fee call in the payload of its fragment, with its code', async () => {
    kit().simulator.injectFault({ kind: 'envelope-error', operation: 'calculateListingFee' });
    const response = await kit().post(deferred, { headers: { accept: 'multipart/mixed' } });
    const payloads: IncrementalPayload[] = [];
    for await (const payload of payloadsOf(response)) payloads.push(payload);

    expect(payloads[0]!.errors).toBeUndefined();
    expect(nodesOf(payloads[0]!)).toHaveLength(PAGE_SIZE);
    const increments = payloads.slice(1).flatMap((payload) => payload.incremental ?? []);
    expect(increments).toHaveLength(PAGE_SIZE);
    for (const increment of increments) {
      expect(increment.errors?.map((error) => error.extensions?.code)).toEqual(['UPSTREAM_ERROR']);
      expect(increment.errors![0]!.path).toEqual([...increment.path, 'listingFee']);
    }
    expect(payloads.at(-1)!.hasNext).toBe(false);
  });

  it("gives a partner value that does not fit a deferred field's type UPSTREAM_BAD_RESPONSE, never quoting it", async () => {
    kit().simulator.injectFault({ kind: 'wrong-types', operation: 'readInventory' });
    const query = `query { inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { items(first: 2) { nodes { assetId ... @defer { status ifTradable } } } } }`;
    const response = await kit().post({ query }, { headers: { accept: 'multipart/mixed' } });
    const payloads: IncrementalPayload[] = [];
    for await (const payload of payloadsOf(response)) payloads.push(payload);

    expect(payloads[0]!.errors).toBeUndefined();
    const errors = payloads.slice(1).flatMap((payload) => (payload.incremental ?? []).flatMap((increment) => increment.errors ?? []));
    // Two items, two fields each.
    expect(errors).toHaveLength(4);
    for (const error of errors) {
      expect(error.extensions?.code).toBe('UPSTREAM_BAD_RESPONSE');
      expect(error.message).toMatch(/^The partner API answered a value for 'inventory\.items\.nodes\.(status|ifTradable)'/);
      expect(error.message).not.toMatch(/active|yes/);
    }
  });

  it('logs a deferred operation once its stream ends, with the outcome of every payload', async () => {
    const logged = (name: string) =>
      kit()
        .logs.map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.msg === 'graphql operation' && entry.operationName === name);
    const before = logged('InventoryWithDeferredFees').length;
    await deferredPage('multipart/mixed');
    await expect.poll(() => logged('InventoryWithDeferredFees').length).toBe(before + 1);
    expect(logged('InventoryWithDeferredFees').at(-1)).toMatchObject({ outcome: 'ok', errorCodes: [], operationType: 'query' });

    kit().simulator.injectFault({ kind: 'envelope-error', operation: 'calculateListingFee' });
    const response = await kit().post(deferred, { headers: { accept: 'multipart/mixed' } });
    for await (const _payload of payloadsOf(response));
    await expect.poll(() => logged('InventoryWithDeferredFees').length).toBe(before + 2);
    expect(logged('InventoryWithDeferredFees').at(-1)).toMatchObject({ outcome: 'partial', errorCodes: ['UPSTREAM_ERROR'] });
  });
});
