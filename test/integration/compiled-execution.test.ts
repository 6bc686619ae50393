// Compiled execution (graphql-jit) must answer exactly what graphql-js answers: each operation is
// sent twice, once as is (compiled) and once with a variable default added, which keeps it on
// graphql-js, and the two answers are compared whole: scalars, partial data, errors, extensions.
// graphql-jit is watched (its calls pass through unchanged), to show which operations it compiled
// and ran, and that a document is compiled once however often it runs.
import { getOperationAST } from 'graphql';
import type { compileQuery as realCompileQuery } from 'graphql-jit';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoGraphQLErrors, useTestkit, type GraphQLResponse } from '../support/testkit.js';
import { DEMO_ACCESS_TOKEN, platformIdWithSize } from '../../src/simulator/data.js';

/** Every graphql-jit compilation, and every run of a query it compiled, by operation name. */
const jit = vi.hoisted(() => ({ compiled: [] as string[], ran: [] as string[] }));
vi.mock('graphql-jit', async (importOriginal) => {
  const original = await importOriginal<typeof import('graphql-jit')>();
  return {
    ...original,
    compileQuery: (...args: Parameters<typeof realCompileQuery>): ReturnType<typeof realCompileQuery> => {
      const result = original.compileQuery(...args);
      const name = getOperationAST(args[1], args[2])?.name?.value ?? '(anonymous)';
      jit.compiled.push(name);
      if (!('query' in result)) return result;
      const run = result.query;
      return {
        ...result,
        query: (root, context, variables) => {
          jit.ran.push(name);
          return run(root, context, variables);
        },
      };
    },
  };
});

const kit = useTestkit();
beforeEach(() => {
  jit.compiled.length = 0;
  jit.ran.length = 0;
});

const PAGE = `query Page($platformId: String!, $appId: Int!, $first: Int, $after: String, $price: Int!) {
  inventory(platformId: $platformId, appId: $appId) {
    id totalCount
    items(first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node {
        id token styleToken status tradableTime appId assetId platformId classId instanceId inspect itemId
        classInfoId name shortName marketHashName imageUrl price tradable ifTradable systemTime remark
        customTag activityTag isNew isLock isPrivate isRented inspectOriginalUrl
        itemInfo { rarityName rarityColor exteriorName itemName }
        assetInfo { assetId wear paintIndex paintSeed stickers gems }
        listingFee(price: $price) { assetId itemId fee freeFeePrice }
      } }
    }
  }
}`;

/**
 * The same operation, kept on graphql-js by a default on a variable the test always sends; the
 * last one, so that every location in the document stays where it was.
 */
const onGraphqlJs = (query: string) => query.replace('$price: Int!)', '$price: Int! = 1)');

async function both(query: string, variables: Record<string, unknown>) {
  const send = async (text: string) => (await kit().post({ query: text, variables })).json();
  const compiled = await send(query);
  kit().simulator.reset();
  return { compiled, interpreted: await send(onGraphqlJs(query)) };
}

const variables = { platformId: platformIdWithSize(30), appId: 730, first: 12, price: 12_000 };

describe('compiled execution', () => {
  it('answers a full page with fees exactly as graphql-js does', async () => {
    const { compiled, interpreted } = await both(PAGE, variables);
    expectNoGraphQLErrors(compiled);
    expect(compiled).toEqual(interpreted);
  });

  it('answers partial data with typed errors exactly as graphql-js does', async () => {
    kit().simulator.injectFault({ kind: 'envelope-error', operation: 'calculateListingFee' });
    const compiled = await (await kit().post({ query: PAGE, variables })).json();
    kit().simulator.reset();
    kit().simulator.injectFault({ kind: 'envelope-error', operation: 'calculateListingFee' });
    const interpreted = await (await kit().post({ query: onGraphqlJs(PAGE), variables })).json();
    expect(compiled.data.inventory.items.edges[0].node.listingFee).toBeNull();
    expect(compiled.errors[0].extensions.code).toBe('UPSTREAM_ERROR');
    expect(compiled).toEqual(interpreted);
  });

  it('answers bad input and variable errors exactly as graphql-js does', async () => {
    for (const input of [
      { ...variables, after: 'not-a-cursor' },
      { ...variables, first: 101 },
      { ...variables, price: 0 },
      { ...variables, first: 'twelve' },
    ]) {
      const { compiled, interpreted } = await both(PAGE, input);
      expect(compiled.errors?.length).toBeGreaterThan(0);
      expect(compiled).toEqual(interpreted);
    }
  });

  it('applies the default of a non-null variable that the request leaves out', async () => {
    const query = `query ($platformId: String! = "${platformIdWithSize(3)}", $appId: Int! = 730) {
      inventory(platformId: $platformId, appId: $appId) { totalCount }
    }`;
    const response = await kit().post({ query }, { token: DEMO_ACCESS_TOKEN });
    const result = (await response.json()) as GraphQLResponse<{ inventory: { totalCount: number } }>;
    expectNoGraphQLErrors(result);
    expect(result.data.inventory.totalCount).toBe(3);
  });

  it('compiles a document once, runs the compiled code on every request, and leaves defaults to graphql-js', async () => {
    const query = PAGE.replace('query Page(', 'query CompiledOnce(');
    for (let request = 0; request < 3; request++) {
      expectNoGraphQLErrors(await (await kit().post({ query, variables })).json());
    }
    expect(jit.compiled.filter((name) => name === 'CompiledOnce')).toEqual(['CompiledOnce']);
    expect(jit.ran.filter((name) => name === 'CompiledOnce')).toEqual(['CompiledOnce', 'CompiledOnce', 'CompiledOnce']);

    const withDefault = onGraphqlJs(query).replace('CompiledOnce', 'WithDefault');
    expectNoGraphQLErrors(await (await kit().post({ query: withDefault, variables })).json());
    expect(jit.compiled).not.toContain('WithDefault');
    expect(jit.ran).not.toContain('WithDefault');
  });

  it('compiles a mutation of one root field, answering as graphql-js does, and leaves one of two root fields to graphql-js', async () => {
    const input = { items: [{ price: 12_000 }, { price: 500 }] };
    const post = async (query: string) =>
      (await (await kit().post({ query, variables: { input } }, { token: DEMO_ACCESS_TOKEN })).json()) as GraphQLResponse<
        Record<string, { fees: { fee: number }[] }>
      >;
    const oneField = `mutation Fees($input: CalculateListingFeeInput!) {
      calculateListingFee(input: $input) { fees { assetId itemId fee freeFeePrice } }
    }`;
    const compiled = await post(oneField);
    expectNoGraphQLErrors(compiled);
    expect(compiled.data.calculateListingFee!.fees).toHaveLength(2);
    expect(jit.compiled).toEqual(['Fees']);
    expect(jit.ran).toEqual(['Fees']);
    // The same mutation kept on graphql-js by a variable default: the same answer.
    kit().simulator.reset();
    const interpreted = await post(oneField.replace('CalculateListingFeeInput!)', 'CalculateListingFeeInput! = { items: [{ price: 1 }] })'));
    expect(compiled).toEqual(interpreted);

    // Two root fields must run one after the other: graphql-js runs them.
    const twoFields = `mutation TwoFees($input: CalculateListingFeeInput!) {
      first: calculateListingFee(input: $input) { fees { fee } }
      second: calculateListingFee(input: $input) { fees { fee } }
    }`;
    const both = await post(twoFields);
    expectNoGraphQLErrors(both);
    expect(both.data.first!.fees).toEqual(both.data.second!.fees);
    expect(jit.compiled).not.toContain('TwoFees');
    expect(jit.ran).not.toContain('TwoFees');

    expectNoGraphQLErrors(await (await kit().post({ query: PAGE, variables })).json());
    expect(jit.ran).toContain('Page');
  });
});
