// A request's objects must die young: nothing that outlives a request may keep what it reached
// through a scavenge (docs/decisions/request-lifetimes.md).
import { parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { createLoaders } from '../../src/context.js';
import { InFlightCalls } from '../../src/partner/coalesce.js';
import type { PartnerApi } from '../../src/partner/index.js';
import { useCompiledExecution } from '../../src/plugins/compiled-execution.js';
import { promotedShare, promotedShareThrough } from '../support/promotion.js';

// Nothing here calls the partner: the loaders are made, and their lazy part made, never used.
const partner = {} as PartnerApi;

describe('per-request objects and the young generation', () => {
  it('the measure sees a promotion: an accessor written in an object literal keeps what its closure reaches', () => {
    const share = promotedShare((payload) => {
      let made: number | undefined;
      return { get first() { return (made ??= payload[0]); } };
    });
    expect(share).toBeGreaterThan(0.8);
  });

  it('a function literal assigned to a property keeps what it captures; the same function bound to a const first does not', () => {
    // The rule eslint.config.js enforces in src/. V8 makes the first closure in the old generation,
    // as it would a method assigned to a prototype, so the scope it captures outlives its scavenges.
    const assigned = promotedShare((payload) => {
      const holder: { first?: () => number } = {};
      holder.first = () => payload[0]!;
      return holder;
    });
    const boundFirst = promotedShare((payload) => {
      const holder: { first?: () => number } = {};
      const first = () => payload[0]!;
      holder.first = first;
      return holder;
    });
    expect(assigned).toBeGreaterThan(0.8);
    expect(boundFirst).toBeLessThan(0.1);
  });

  it("a request's loaders, the lazy listing-fee loader made too, keep nothing of the request through a scavenge", () => {
    const share = promotedShare((payload) => {
      // The request's credential digest, as the context hands it over: a closure over the request.
      const credentialKey = () => (payload.length > 0 ? 'digest' : null);
      const loaders = createLoaders({ partner, listingFeeBatchMax: 50 }, { accessToken: 'token' }, credentialKey, {
        requestId: 'request',
        deadline: { at: 0, ms: 1_000 },
      });
      return loaders.listingFee;
    });
    expect(share).toBeLessThan(0.1);
  });

  it('a one-field mutation run compiled keeps nothing of its run through a scavenge', () => {
    // graphql-jit's own serial execution would keep it (test/integration/library-departures.test.ts).
    const echo = (_root: unknown, { text }: { text: string }, context: { payload: number[] }) => `${text}${context.payload.length}`;
    const schema = createSchema({
      typeDefs: 'type Query { echo(text: String!): String } type Mutation { echo(text: String!): String }',
      resolvers: { Query: { echo }, Mutation: { echo } },
    });
    const document = parse('mutation { echo(text: "x") }');
    let run: ((args: ExecutionArgs) => unknown) | undefined;
    const onExecute = useCompiledExecution().onExecute as (payload: unknown) => void;
    // Run compiled or not at all: graphql-js is not there to fall back to.
    const graphqlJs = () => {
      throw new Error('the mutation ran on graphql-js');
    };
    onExecute({ executeFn: graphqlJs, setExecuteFn: (fn: typeof run) => (run = fn) });
    const mutate = (payload: number[]) => run!({ schema, document, contextValue: { payload }, variableValues: {} }) as ExecutionResult;
    expect(mutate([1, 2])).toEqual({ data: { echo: 'x2' } });
    expect(promotedShare(mutate)).toBeLessThan(0.1);
  });

  it("the calls in flight keep nothing of a settled call's answer, with fifty distinct calls in flight at once", async () => {
    // The map of calls in flight lives as long as the process; its replaced backing tables point at
    // the entries they held until the next full collection.
    const calls = new InFlightCalls();
    const inFlight = 50;
    const settleOf: ((() => void) | undefined)[] = new Array<undefined>(inFlight);
    let n = 0;
    const share = await promotedShareThrough(
      async (payload) => {
        const slot = n % inFlight;
        const key = `call ${n++}`;
        // The call started fifty payloads ago settles: no more than fifty are in flight at once.
        settleOf[slot]?.();
        let settle: () => void = () => undefined;
        const result = new Promise<number[]>((resolve) => (settle = () => resolve(payload)));
        void calls.run(key, {}, () => ({ result, abandon: () => undefined, atPartner: () => true }));
        settleOf[slot] = settle;
        await Promise.resolve();
      },
      4_000,
      // Rarer than the calls settle: a payload in flight lives through one scavenge at most.
      200,
    );
    for (const settle of settleOf) settle?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.size).toBe(0);
    expect(share).toBeLessThan(0.3);
  });
});
