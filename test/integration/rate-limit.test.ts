// Rate limits, in-process (RATE_LIMIT_MAX > 0, no Redis): the operation over the budget is refused
// with RATE_LIMITED, HTTP 429 and retryAfter before any partner call; other credentials keep their
// own budgets; requests without a credential share one. An operation spends what its cost plan
// prices it at, and listing fees, made with the merchant's key, spend a credential's own budget
// only once the partner has accepted it: made-up tokens share one budget for their fees, apart from
// that of requests without a token.
// An answer from the response cache spends one unit.
import { print } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { operationCost } from '../../src/cost/price.js';
import { buildSchema } from '../../src/schema.js';
import { CalculateListingFeeDocument, InventoryPageDocument, InventoryTotalDocument, InventoryWithFeesDocument } from '../generated/graphql.js';
import { closeClientAddresses, feeFrom, newUsersDuringAFeeFlood, postFrom } from '../support/client-addresses.js';
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

  it('lets twenty made-up tokens, each from an address of its own, sending five fee mutations each make only what one budget allows', async () => {
    const before = feeCalls();
    const outcomes: string[] = [];
    for (let token = 0; token < 20; token++) {
      for (let sent = 0; sent < 5; sent++) outcomes.push(await feeFrom(kit(), `127.0.3.${token + 1}`, `made-up-fee-token-${token}`));
    }
    // One fee item per call made: five fit in the one shared budget of 5, one per client (its share).
    expect(feeCalls() - before).toBe(FEE_BUDGET);
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(FEE_BUDGET);
    expect(new Set(outcomes.filter((outcome) => outcome !== 'ok'))).toEqual(new Set(['RATE_LIMITED']));
    // Fees without a token, from yet another address, share that budget.
    expect(await feeFrom(kit(), '127.0.3.100', null)).toBe('RATE_LIMITED');
    expect(feeCalls() - before).toBe(FEE_BUDGET);
  });

  it('keeps a read budget per credential, so a new user is not locked out, and fees of its own once the partner accepted it', async () => {
    for (let token = 0; token < 5; token++) await fees(`made-up-flood-token-${token}`);
    expect(errorCodes(await fees('made-up-flood-token-last'))).toEqual(['RATE_LIMITED']);
    const unproven = await fees('fresh-valid-token');
    expect(errorCodes(unproven)).toEqual(['RATE_LIMITED']);
    // It says why, and what gets the token a budget of its own.
    expect(unproven.errors![0]!.message).toMatch(/has not accepted .* read an inventory with the token first/);

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

describe('an argument out of range, refused before it is charged', () => {
  const kit = useTestkit({ config: { rateLimit: { max: MAX, windowMs: WINDOW_MS } } });

  /** Asks `items(first:)` with this token under graphql-response+json and answers the HTTP status and body. */
  async function pageAs(token: string, first: number, accept = 'application/graphql-response+json') {
    const response = await kit().post({ query: print(InventoryPageDocument), variables: { ...variables, first } }, { token, headers: { accept } });
    const body = (await response.json()) as { data?: unknown; errors: { message: string; extensions: Record<string, unknown> }[]; extensions: { cost: { requestedQueryCost: number } } };
    return { status: response.status, remaining: response.headers.get('ratelimit'), body };
  }

  it('answers items(first: 101) BAD_USER_INPUT, not RATE_LIMITED, with little budget left, and spends nothing', async () => {
    // The budget is far below the price of a full page: a charge before the check would be a 429.
    const refused = await pageAs('slice-token', 101);
    expect(errorCodes(refused.body)).toEqual(['BAD_USER_INPUT']);
    expect(refused.body.errors[0]!.extensions.argumentName).toBe('first');
    expect(refused.body.errors[0]!.message).toMatch(/'first'.*0 to 100; got 101/);
    // A request error of GraphQL over HTTP: no data, 400 under graphql-response+json, 200 under JSON.
    expect(refused.status).toBe(400);
    expect(refused.body.data).toBeUndefined();
    expect((await pageAs('slice-token', 101, 'application/json')).status).toBe(200);
    expect(refused.remaining).toBe(`"default";r=${MAX};t=${WINDOW_MS / 1000}`);
    expect(kit().simulator.callsOf('readInventory')).toHaveLength(0);
    // A negative slice too; the whole budget is still there for a read.
    expect(errorCodes((await pageAs('slice-token', -1)).body)).toEqual(['BAD_USER_INPUT']);
    for (let sent = 0; sent < MAX; sent++) expect((await readAs(kit(), 'slice-token')).status).toBe(200);
  });

  it('refuses a fee mutation of 101 items from an accepted token as BAD_USER_INPUT without spending its budget', async () => {
    expect((await readAs(kit(), 'slice-fee-token')).status).toBe(200);
    const items = Array.from({ length: 101 }, (_, at) => ({ price: 100 + at }));
    const refused = await kit().execute(CalculateListingFeeDocument, { input: { items } }, { token: 'slice-fee-token' });
    expect(errorCodes(refused)).toEqual(['BAD_USER_INPUT']);
    expect(refused.errors![0]!.extensions!.argumentName).toBe('input.items');
    expect(kit().simulator.callsOf('calculateListingFee')).toHaveLength(0);
    // The two units left after the read are still there.
    for (let sent = 1; sent < MAX; sent++) expect((await readAs(kit(), 'slice-fee-token')).status).toBe(200);
    expect((await readAs(kit(), 'slice-fee-token')).status).toBe(429);
  });
});

afterAll(closeClientAddresses);

describe('the fee budget of callers the partner has not accepted, shared fairly', () => {
  // The finding's budget; a window no loaded machine outlasts, so that the bound is one window's.
  const MAX = 50;
  const kit = useTestkit({ config: { rateLimit: { max: MAX, windowMs: 60_000 } } });
  const feeCalls = () => kit().simulator.callsOf('calculateListingFee').length;

  it('serves 40 new users asking one fee each while one client floods, and the partner still sees at most the budget', async () => {
    const outcome = await newUsersDuringAFeeFlood([kit()], 40);
    expect(outcome.usersServed).toBeGreaterThanOrEqual(35);
    // The flooder, from one address, however many tokens it makes up, gets its share: a tenth.
    expect(outcome.floodServed).toBeLessThanOrEqual(MAX / 10);
    expect(outcome.floodSent).toBeGreaterThan(MAX);
    // At most one call per fee served: identical fee calls in flight at once share one partner call.
    expect(feeCalls()).toBeLessThanOrEqual(outcome.usersServed + outcome.floodServed);
    expect(feeCalls()).toBeLessThanOrEqual(MAX);
  });

  it('gives one token, from however many addresses, its share only', async () => {
    const outcomes: string[] = [];
    for (let address = 1; address <= 10; address++) outcomes.push(await feeFrom(kit(), `127.0.4.${address}`, 'wandering-made-up-token'));
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(MAX / 10);
    expect(new Set(outcomes.slice(MAX / 10))).toEqual(new Set(['RATE_LIMITED']));
  });
});

describe('the client address behind a proxy (RATE_LIMIT_PROXY_HOPS=1)', () => {
  // A share of one fee item per client: the budget of 10 over ten.
  const kit = useTestkit({ config: { rateLimit: { max: 10, windowMs: 60_000, proxyHops: 1 } } });
  const feeVia = async (forwardedFor: string, token: string) =>
    errorCodes(
      await kit().execute(CalculateListingFeeDocument, { input: { items: [{ price: 100 }] } }, { token, headers: { 'x-forwarded-for': forwardedFor } }),
    ).join() || 'ok';

  it("takes the address the proxy appended, not the connection's, nor what the client wrote before it", async () => {
    expect(await feeVia('10.0.0.1', 'proxied-token-1')).toBe('ok');
    // The same client with another made-up token: its address has had its share.
    expect(await feeVia('10.0.0.1', 'proxied-token-2')).toBe('RATE_LIMITED');
    // An entry the client wrote itself ahead of the proxy's changes nothing.
    expect(await feeVia('10.9.9.9, 10.0.0.1', 'proxied-token-3')).toBe('RATE_LIMITED');
    // Another client behind the same proxy, over the same connection's address, has a share of its own.
    expect(await feeVia('10.0.0.2', 'proxied-token-4')).toBe('ok');
    expect(kit().simulator.callsOf('calculateListingFee')).toHaveLength(2);
  });
});

describe('fee mutations that make no partner call', () => {
  const kit = useTestkit({ config: { rateLimit: { max: 5, windowMs: 60_000 } } });

  it('spend nothing of the fee budget of callers the partner has not accepted', async () => {
    const refused = { query: print(CalculateListingFeeDocument), variables: { input: { items: [{ price: -1 }] } } };
    for (let sent = 0; sent < 4; sent++) {
      const { result } = await postFrom(kit(), '127.0.5.1', refused, 'refused-input-token');
      expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    }
    expect(kit().simulator.callsOf('calculateListingFee')).toHaveLength(0);
    // Four refused by the resolver spent one unit each of the token's own budget, and no fee: the fifth is served.
    expect(await feeFrom(kit(), '127.0.5.1', 'refused-input-token')).toBe('ok');
    expect(kit().simulator.callsOf('calculateListingFee')).toHaveLength(1);
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
