// tradegraph_rate_limit_refusals_total tells apart the budgets behind RATE_LIMITED: the caller's own
// (`operation`), one client's share of the fees of callers the partner has not accepted, and those
// fees as a whole (which refuses every such caller). One count per refusal, none for what passes
// (a cache hit's charge included), with Redis up and down; no token in the series.
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { InventoryTotalDocument } from '../generated/graphql.js';
import { closeClientAddresses, feeFrom } from '../support/client-addresses.js';
import { redisSeenBy, startRedisServer, type RedisServer } from '../support/redis.js';
import { errorCodes, startTestkit, useTestkit, type Testkit } from '../support/testkit.js';

const BUDGETS = ['operation', 'unproven_fees_client_share', 'unproven_fees_total'] as const;
type Budget = (typeof BUDGETS)[number];
const variables = { platformId: platformIdWithSize(3), appId: 730 };

/** The service's /metrics text, with every token the test sent checked absent from it. */
async function metricsText(kit: Testkit, tokens: Iterable<string>): Promise<string> {
  const text = await (await fetch(`${kit.url}/metrics`)).text();
  for (const token of tokens) expect(text).not.toContain(token);
  return text;
}

/** The refusals a /metrics text counts, by budget; a missing series reads NaN. */
function refusalsIn(text: string): Record<Budget, number> {
  const of = (budget: Budget) => Number(new RegExp(`^tradegraph_rate_limit_refusals_total\\{budget="${budget}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return Object.fromEntries(BUDGETS.map((budget) => [budget, of(budget)])) as Record<Budget, number>;
}

/** The refusals counted so far, by budget. */
const refusals = async (kit: Testkit, tokens: Iterable<string> = []) => refusalsIn(await metricsText(kit, tokens));

/** Asks for a listing fee from `address` with `token` (see feeFrom), noting the token for the metrics' check. */
const feeSender = (kit: () => Testkit, tokens: Set<string>) => (address: string, token: string) => {
  tokens.add(token);
  return feeFrom(kit(), address, token);
};

const read = (kit: Testkit, token: string) => kit.post({ query: print(InventoryTotalDocument), variables }, { token });

afterAll(closeClientAddresses);

describe('refusals of the caller\'s own budget, in-process, with the response cache', () => {
  // The read costs 1 unit; the cache's hits 1 each.
  const kit = useTestkit({ config: { rateLimit: { max: 3, windowMs: 60_000 }, responseCacheTtlMs: 60_000 } });
  const tokens = new Set<string>();

  it('has every budget at 0 before any refusal, and only the budget label', async () => {
    const text = await metricsText(kit(), []);
    expect(refusalsIn(text)).toEqual({ operation: 0, unproven_fees_client_share: 0, unproven_fees_total: 0 });
    const series = text.split('\n').filter((line) => line.startsWith('tradegraph_rate_limit_refusals_total'));
    expect(series).toHaveLength(BUDGETS.length);
    for (const line of series) expect(line).toMatch(/^tradegraph_rate_limit_refusals_total\{budget="[a-z_]+"\} \d+$/);
  });

  it('counts one operation refusal per refused request, the refused cache hit included, and nothing for what passes', async () => {
    const token = 'refusal-metrics-own-budget-token';
    tokens.add(token);
    const before = await refusals(kit(), tokens);
    // The first read runs, the next two are cache hits that pass, each charged a unit: nothing refused.
    for (let sent = 0; sent < 3; sent++) expect((await read(kit(), token)).status).toBe(200);
    expect(await refusals(kit(), tokens)).toEqual(before);
    // The budget is spent: a hit is refused in place of its cached answer, and counted once.
    const refused = await read(kit(), token);
    expect(refused.status).toBe(429);
    expect(errorCodes((await refused.json()) as never)).toEqual(['RATE_LIMITED']);
    expect(await refusals(kit(), tokens)).toEqual({ ...before, operation: before.operation + 1 });
    // A query the cache has never seen is refused before execution: one more.
    const other = await kit().post({ query: `{ inventory(platformId: "${platformIdWithSize(4)}", appId: 730) { totalCount } }` }, { token });
    expect(other.status).toBe(429);
    expect(await refusals(kit(), tokens)).toEqual({ ...before, operation: before.operation + 2 });
  });
});

describe('refusals of the unproven callers\' fees, in-process', () => {
  // A budget of 5 fee items, of which each client (address, token) may spend 1.
  const kit = useTestkit({ config: { rateLimit: { max: 5, windowMs: 60_000 } } });
  const tokens = new Set<string>();
  const feeAs = feeSender(kit, tokens);

  it("counts a client whose share is spent as 'unproven_fees_client_share', once per refusal", async () => {
    const before = await refusals(kit());
    expect(await feeAs('127.0.9.1', 'refusal-metrics-share-token-1')).toBe('ok');
    // Another made-up token from the same address: the address has had its share.
    expect(await feeAs('127.0.9.1', 'refusal-metrics-share-token-2')).toBe('RATE_LIMITED');
    expect(await refusals(kit(), tokens)).toEqual({ ...before, unproven_fees_client_share: before.unproven_fees_client_share + 1 });
    // The same token from another address: the token has had its share.
    expect(await feeAs('127.0.9.2', 'refusal-metrics-share-token-1')).toBe('RATE_LIMITED');
    expect(await refusals(kit(), tokens)).toEqual({ ...before, unproven_fees_client_share: before.unproven_fees_client_share + 2 });
  });

  it("counts a fee refused because the whole budget is spent as 'unproven_fees_total'", async () => {
    // The test above spent 1 of the 5; four more clients, each with its share, spend the rest.
    for (let client = 3; client <= 6; client++) expect(await feeAs(`127.0.9.${client}`, `refusal-metrics-total-token-${client}`)).toBe('ok');
    const before = await refusals(kit(), tokens);
    expect(await feeAs('127.0.9.7', 'refusal-metrics-total-token-7')).toBe('RATE_LIMITED');
    expect(await refusals(kit(), tokens)).toEqual({ ...before, unproven_fees_total: before.unproven_fees_total + 1 });
    expect(await feeAs('127.0.9.8', 'refusal-metrics-total-token-8')).toBe('RATE_LIMITED');
    expect(await refusals(kit(), tokens)).toEqual({ ...before, unproven_fees_total: before.unproven_fees_total + 2 });
  });
});

describe('refusals counted with the shared counts of Redis, and while Redis is down', () => {
  let redis: RedisServer;
  let kit: Testkit;
  const tokens = new Set<string>();
  const feeAs = feeSender(() => kit, tokens);

  beforeAll(async () => {
    redis = await startRedisServer();
    kit = await startTestkit({ config: { redisUrl: redis.url, rateLimit: { max: 2, windowMs: 60_000 } } });
    await redisSeenBy('up', kit);
  });

  afterAll(async () => {
    await kit?.close();
    await redis?.stop();
  });

  it('counts each budget once per refusal with Redis up', async () => {
    // A share of 1 fee item per client, 2 in all.
    expect(await feeAs('127.0.10.1', 'refusal-metrics-redis-token-1')).toBe('ok');
    expect(await feeAs('127.0.10.1', 'refusal-metrics-redis-token-2')).toBe('RATE_LIMITED');
    expect(await refusals(kit, tokens)).toEqual({ operation: 0, unproven_fees_client_share: 1, unproven_fees_total: 0 });
    expect(await feeAs('127.0.10.2', 'refusal-metrics-redis-token-3')).toBe('ok');
    expect(await feeAs('127.0.10.3', 'refusal-metrics-redis-token-4')).toBe('RATE_LIMITED');
    expect(await refusals(kit, tokens)).toEqual({ operation: 0, unproven_fees_client_share: 1, unproven_fees_total: 1 });
    tokens.add('refusal-metrics-redis-reader');
    expect((await read(kit, 'refusal-metrics-redis-reader')).status).toBe(200);
    expect((await read(kit, 'refusal-metrics-redis-reader')).status).toBe(200);
    expect((await read(kit, 'refusal-metrics-redis-reader')).status).toBe(429);
    expect(await refusals(kit, tokens)).toEqual({ operation: 1, unproven_fees_client_share: 1, unproven_fees_total: 1 });
  });

  it("counts each budget once per refusal while Redis is down, on the replica's own counts", async () => {
    await redis.stop();
    await redisSeenBy('down', kit);
    const before = await refusals(kit, tokens);
    expect(await feeAs('127.0.11.1', 'refusal-metrics-down-token-1')).toBe('ok');
    expect(await feeAs('127.0.11.1', 'refusal-metrics-down-token-2')).toBe('RATE_LIMITED');
    expect(await refusals(kit, tokens)).toEqual({ ...before, unproven_fees_client_share: before.unproven_fees_client_share + 1 });
    expect(await feeAs('127.0.11.2', 'refusal-metrics-down-token-3')).toBe('ok');
    expect(await feeAs('127.0.11.3', 'refusal-metrics-down-token-4')).toBe('RATE_LIMITED');
    expect(await refusals(kit, tokens)).toEqual({
      ...before,
      unproven_fees_client_share: before.unproven_fees_client_share + 1,
      unproven_fees_total: before.unproven_fees_total + 1,
    });
    tokens.add('refusal-metrics-down-reader');
    expect((await read(kit, 'refusal-metrics-down-reader')).status).toBe(200);
    expect((await read(kit, 'refusal-metrics-down-reader')).status).toBe(200);
    expect((await read(kit, 'refusal-metrics-down-reader')).status).toBe(429);
    expect(await refusals(kit, tokens)).toEqual({
      operation: before.operation + 1,
      unproven_fees_client_share: before.unproven_fees_client_share + 1,
      unproven_fees_total: before.unproven_fees_total + 1,
    });
  });
});
