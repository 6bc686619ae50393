// Rate limits per credential, in-process (RATE_LIMIT_MAX > 0, no Redis): the operation over the
// budget is refused with RATE_LIMITED, HTTP 429 and retryAfter before any partner call; other
// credentials keep their own budgets; requests without a credential share one.
import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { platformIdWithSize } from '../../src/simulator/data.js';
import { InventoryTotalDocument } from '../generated/graphql.js';
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
    expect(body.errors[0]!.message).toMatch(/3 operations per 60 s/);
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

describe('rate limit off (the default)', () => {
  const kit = useTestkit();

  it('refuses nothing', async () => {
    for (let sent = 0; sent < 2 * MAX; sent++) expect((await readAs(kit(), 'budget-token-four')).status).toBe(200);
  });
});
