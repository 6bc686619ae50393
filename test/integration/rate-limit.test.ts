// Rate limits, in-process (RATE_LIMIT_MAX > 0, no Redis): the operation over the budget is refused
// with RATE_LIMITED, HTTP 429 and retryAfter before any partner call; other credentials keep their
// own budgets; requests without a credential share one. An operation spends what its cost plan
// prices it at, and listing fees, made with the merchant's key, spend a credential's own budget
// only once the partner has accepted it: made-up tokens share one budget for their fees, apart from
// that of requests without a token.
// An answer from the response cache spends one unit.
import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { operationCost } from '../../src/plugins/operation-cost.js';
import { buildSchema } from '../../src/schema.js';
import { CalculateListingFeeDocument, InventoryPageDocument, InventoryTotalDocument, InventoryWithFeesDocument } from '../generated/graphql.js';
import { errorCodes, expectNoGraphQLErrors, useTestkit, type Testkit } from '../support/testkit.js';

const MAX = 3;
const WINDOW_MS = 60_000;
const variables = { platformId: platformIdWithSize(5), appId: 730 };

/** Sends the read with this token and answers the HTTP status, headers and body. */
async function readAs(kit: Testkit, token: string | null) {
  const response = await kit.post({ query: print(InventoryTotalDocument), variables }, { token });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as never };
}

describe('rate limit per credential', () => {
  const kit = useTestkit({ config: { rateLimit: { max: MAX, windowMs: WINDOW_MS } } });
  const inventoryCalls = () => kit().simulator.callsOf('readInventory').length;

  it('refuses the operation over the budget with RATE_LIMITED and retryAfter, before any partner call', async () => {
    for (let sent = 0; sent < MAX; sent++) {
      const { status, body } = await readAs(kit(), 'budget-token-one');
      expect(status).toBe(200);
      expectNoGraphQLErrors(body);
    }
    expect(inventoryCalls()).toBe(MAX);

    const refused = await readAs(kit(), 'budget-token-one');
    expect(refused.status).toBe(429);
    const body = refused.body as { data?: unknown; errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(errorCodes(body)).toEqual(['RATE_LIMITED']);
    const retryAfter = body.errors[0]!.extensions.retryAfter as number;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
    expect(refused.retryAfter).toBe(String(retryAfter));
    expect(body.errors[0]!.extensions).toEqual({ code: 'RATE_LIMITED', retryAfter });
    expect(body.errors[0]!.message).toMatch(/budget of 3 units of partner work per 60 s/);
    expect(body.data).toBeUndefined();
    expect(inventoryCalls()).toBe(MAX);
  });

  it('keeps a budget per credential', async () => {
    for (let sent = 0; sent < MAX; sent++) expect((await readAs(kit(), 'budget-token-two')).status).toBe(200);
    expect((await readAs(kit(), 'budget-token-two')).status).toBe(429);
    const other = await readAs(kit(), 'budget-token-three');
    expect(other.status).toBe(200);
    expectNoGraphQLErrors(other.body);
  });

  it('gives requests without a credential one shared budget', async () => {
    const statuses: number[] = [];
    for (let sent = 0; sent <= MAX; sent++) statuses.push((await readAs(kit(), null)).status);
    expect(statuses.slice(0, MAX).every((status) => status !== 429)).toBe(true);
    expect(statuses[MAX]).toBe(429);
  });
});

describe('budgets that bound what they protect', () => {
  const FEE_BUDGET = 5;
  const kit = useTestkit({ config: { rateLimit: { max: FEE_BUDGET, windowMs: WINDOW_MS } } });
  const feeCalls = () => kit().simulator.callsOf('calculateListingFee').length;
  const inventoryCalls = () => kit().simulator.callsOf('readInventory').length;
  /** A fee mutation of `items` items: the cost plan prices it at 1 + items units. */
  const fees = (token: string | null, items = 1) =>
    kit().execute(CalculateListingFeeDocument, { input: { items: Array.from({ length: items }, (_, at) => ({ price: 100 + at })) } }, { token });

  it('lets twenty made-up tokens sending five fee mutations each make only what one budget allows', async () => {
    const before = feeCalls();
    const outcomes: string[] = [];
    for (let token = 0; token < 20; token++) {
      for (let sent = 0; sent < 5; sent++) outcomes.push(errorCodes(await fees(`made-up-fee-token-${token}`)).join() || 'ok');
    }
    // Each mutation of one item costs 2 units: two fit in the one shared budget of 5.
    expect(feeCalls() - before).toBe(Math.floor(FEE_BUDGET / 2));
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(Math.floor(FEE_BUDGET / 2));
    expect(new Set(outcomes.filter((outcome) => outcome !== 'ok'))).toEqual(new Set(['RATE_LIMITED']));
    // Fees without a token share that budget.
    expect(errorCodes(await fees(null))).toEqual(['RATE_LIMITED']);
  });

  it('keeps a read budget per credential, so a new user is not locked out, and fees of its own once the partner accepted it', async () => {
    for (let token = 0; token < 5; token++) await fees(`made-up-flood-token-${token}`);
    expect(errorCodes(await fees('made-up-flood-token-last'))).toEqual(['RATE_LIMITED']);
    const unproven = await fees('fresh-valid-token');
    expect(errorCodes(unproven)).toEqual(['RATE_LIMITED']);
    // It says why, and what gets the token a budget of its own.
    expect(unproven.errors![0]!.message).toMatch(/has not accepted yet .* read an inventory with the token first/);

    const reads = inventoryCalls();
    const read = await readAs(kit(), 'fresh-valid-token');
    expect(read.status).toBe(200);
    expectNoGraphQLErrors(read.body);
    expect(inventoryCalls()).toBe(reads + 1);

    // Accepted by the partner: its fees spend its own budget (1 of 5 spent by the read).
    const calls = feeCalls();
    const accepted = await fees('fresh-valid-token');
    expectNoGraphQLErrors(accepted);
    expect(feeCalls()).toBe(calls + 1);
    expect(errorCodes(await fees('made-up-flood-token-last'))).toEqual(['RATE_LIMITED']);
  });

  it("lets a new user's first read ask the fees of its items: they follow the partner's acceptance", async () => {
    for (let token = 0; token < 3; token++) await fees(`made-up-flood-token-${token}`);
    expect(errorCodes(await fees('made-up-flood-token-last'))).toEqual(['RATE_LIMITED']);
    const calls = feeCalls();
    // 1 (the page) + 2 (its items) + 2 (their fees): the whole budget of the token, none of the shared one.
    const page = await kit().execute(InventoryWithFeesDocument, { ...variables, first: 2, price: 100 }, { token: 'fresh-fees-token' });
    expectNoGraphQLErrors(page);
    expect(page.data!.inventory!.items.nodes.map((item) => typeof item.listingFee?.fee)).toEqual(['number', 'number']);
    expect(feeCalls()).toBeGreaterThan(calls);
  });

  it('weighs an operation by its cost and refuses one over what is left before any partner call', async () => {
    expect((await readAs(kit(), 'weighed-token')).status).toBe(200);
    const calls = feeCalls();
    // 1 unit spent by the read, 3 by a fee of 2 items: 1 left, and 4 more do not fit.
    expectNoGraphQLErrors(await fees('weighed-token', 2));
    const made = feeCalls();
    expect(made).toBeGreaterThan(calls);
    const refused = await kit().post(
      { query: print(CalculateListingFeeDocument), variables: { input: { items: [{ price: 1 }, { price: 2 }, { price: 3 }] } } },
      { token: 'weighed-token' },
    );
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(errorCodes(body)).toEqual(['RATE_LIMITED']);
    expect(body.errors[0]!.extensions.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('retry-after')).toBe(String(body.errors[0]!.extensions.retryAfter));
    expect(feeCalls()).toBe(made);
    // What was refused is not spent: the unit left still pays for a read.
    const reads = inventoryCalls();
    expect((await readAs(kit(), 'weighed-token')).status).toBe(200);
    expect(inventoryCalls()).toBe(reads + 1);
    expect((await readAs(kit(), 'weighed-token')).status).toBe(429);
  });
});

describe('the budget of tokenless requests and that of unproven fees', () => {
  const BUDGET = 5;
  const kit = useTestkit({ config: { rateLimit: { max: BUDGET, windowMs: WINDOW_MS } } });
  const feeCalls = () => kit().simulator.callsOf('calculateListingFee').length;

  it('are apart: tokenless requests the partner does no work for cannot spend a new user\'s fees', async () => {
    // Tokenless requests that cost the partner nothing spend their own shared budget, all of it.
    const typename = () => kit().post({ query: '{ __typename }' }, { token: null });
    for (let sent = 0; sent < BUDGET; sent++) expect((await typename()).status).toBe(200);
    expect((await typename()).status).toBe(429);
    // A new user's fees, before its first read, still have the fee budget.
    const calls = feeCalls();
    const fees = await kit().execute(CalculateListingFeeDocument, { input: { items: [{ price: 100 }] } }, { token: 'fresh-fees-after-flood-token' });
    expectNoGraphQLErrors(fees);
    expect(feeCalls()).toBe(calls + 1);
  });
});

describe('rate limit with the response cache', () => {
  const page = { ...variables, first: 9 };
  const pagePrice = operationCost(buildSchema(), InventoryPageDocument, undefined, page)!;
  // The page's price, and two units more: two answers from the cache.
  const kit = useTestkit({ config: { responseCacheTtlMs: 60_000, rateLimit: { max: pagePrice + 2, windowMs: WINDOW_MS } } });

  it('charges an answer from the cache one unit, and refuses it in its place once the budget is spent', async () => {
    const read = () => kit().post({ query: print(InventoryPageDocument), variables: page }, { token: 'cached-token' });
    const first = await read();
    expect(first.status).toBe(200);
    expect(((await first.json()) as { extensions?: unknown }).extensions).toMatchObject({ responseCache: { hit: false, didCache: true } });
    for (let hit = 0; hit < 2; hit++) {
      const again = await read();
      expect(again.status).toBe(200);
      expect(((await again.json()) as { extensions?: unknown }).extensions).toMatchObject({ responseCache: { hit: true } });
    }
    const refused = await read();
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { data?: unknown; errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(errorCodes(body)).toEqual(['RATE_LIMITED']);
    expect(body.data).toBeUndefined();
    expect(refused.headers.get('retry-after')).toBe(String(body.errors[0]!.extensions.retryAfter));
    expect(kit().simulator.callsOf('readInventory')).toHaveLength(1);
  });
});

describe('rate limit off (the default)', () => {
  const kit = useTestkit();

  it('refuses nothing', async () => {
    for (let sent = 0; sent < 2 * MAX; sent++) expect((await readAs(kit(), 'budget-token-four')).status).toBe(200);
  });
});
