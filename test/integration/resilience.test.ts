// Fault isolation over real HTTP, one test per way one caller's trouble could become everyone's:
// a partner double (the simulator) that misbehaves for one inventory, answers slowly, reorders fee
// answers, echoes the URL, sends values of the wrong type or short pages, or stops; and hostile
// clients. Outcomes, codes and call counts are asserted, never durations.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InventoryPageDocument, InventoryTotalDocument, NodeDocument } from '../generated/graphql.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, useTestkit, type GraphQLResponse, type Testkit } from '../support/testkit.js';
import { encodeGlobalId } from '../../src/inventory/global-id.js';
import { DEMO_APP_ID, DEMO_PLATFORM_ID, listingFeeFor, platformIdWithSize } from '../../src/simulator/data.js';
import { startSimulator, type PartnerSimulator } from '../../src/simulator/server.js';
import { closedPort } from '../support/ports.js';
import { BREAKER_CONSECUTIVE_UNREACHABLE } from '../../src/tunables.js';

const APP_ID = DEMO_APP_ID;
const BROKEN = platformIdWithSize(77);

const readTotal = (kit: Testkit, platformId: string, token?: string | null) =>
  kit.execute(InventoryTotalDocument, { platformId, appId: APP_ID }, { token });

/** The n-th other user: a token and an inventory of their own. */
const otherUser = (n: number) => ({ token: `other-user-${n}-token`, platformId: platformIdWithSize(100 + n) });

async function query<T = Record<string, unknown>>(kit: Testkit, text: string, token?: string | null) {
  const response = await kit.post({ query: text }, { token });
  return { status: response.status, headers: response.headers, result: (await response.json()) as GraphQLResponse<T> };
}

describe('one broken inventory', () => {
  const kit = useTestkit({ config: { upstreamMaxRetries: 2 } });

  it('20 failing reads of one inventory, retries included, leave five other users unharmed', async () => {
    kit().simulator.injectFault({ operation: 'readInventory', kind: 'http-503', platformId: BROKEN });
    for (let n = 0; n < 20; n++) expect(errorCodes(await readTotal(kit(), BROKEN))).toEqual(['UPSTREAM_UNAVAILABLE']);
    // A single request with five aliases of it, too.
    const aliased = await query(kit(), `{ ${[1, 2, 3, 4, 5].map((n) => `a${n}: inventory(platformId: "${BROKEN}", appId: ${APP_ID + n}) { totalCount }`).join(' ')} }`);
    expect(errorCodes(aliased.result).every((code) => code === 'UPSTREAM_UNAVAILABLE')).toBe(true);
    for (let n = 0; n < 5; n++) {
      const { token, platformId } = otherUser(n);
      expectNoGraphQLErrors(await readTotal(kit(), platformId, token));
    }
    expect(kit().service.partner.circuitStates()).toEqual([{ upstream: 'partner', state: 'closed' }]);
  });

  it('one credential failing on many inventories does not open the circuit for others', async () => {
    kit().simulator.reset({ faults: [{ operation: 'readInventory', kind: 'http-500' }] });
    for (let n = 0; n < 25; n++) {
      expect(errorCodes(await readTotal(kit(), platformIdWithSize(200 + n), 'one-broken-token'))).toEqual(['UPSTREAM_UNAVAILABLE']);
    }
    kit().simulator.reset();
    expectNoGraphQLErrors(await readTotal(kit(), DEMO_PLATFORM_ID, otherUser(9).token));
  });
});

describe('a burst against a slow partner', () => {
  const kit = useTestkit({ simulator: { latencyMs: 300 }, config: { upstreamConnections: 16, upstreamConnectionWaitMs: 500 } });

  it('400 concurrent reads: each answered or shed as OVERLOADED, never counted against the partner; the next user is served', async () => {
    const burst = await Promise.all(
      // 400 distinct reads: identical ones would share a call (coalescing.test.ts).
      Array.from({ length: 400 }, (_, n) => readTotal(kit(), platformIdWithSize(n), `burst-${n % 40}-token`)),
    );
    const codes = burst.flatMap((result) => errorCodes(result));
    expect(new Set(codes).size === 0 || [...new Set(codes)].every((code) => code === 'OVERLOADED')).toBe(true);
    expect(codes.length).toBeGreaterThan(0);
    const shed = burst.find((result) => errorCodes(result).includes('OVERLOADED'))!;
    expect(shed.errors![0]!.extensions).toMatchObject({ retryAfter: 1 });
    expect(kit().simulator.callsOf('readInventory').length).toBe(400 - codes.length);
    expect(kit().service.partner.circuitStates()[0]!.state).toBe('closed');
    expectNoGraphQLErrors(await readTotal(kit(), DEMO_PLATFORM_ID, otherUser(1).token));
  });
});

describe('operations in flight', () => {
  // Generous upstream deadlines: the fee calls are held on purpose while the requests line up.
  const kit = useTestkit({ config: { maxOperationsInFlight: 4, upstreamTimeoutMs: 60_000, operationTimeoutMs: 120_000 } });

  it('past MAX_OPERATIONS_IN_FLIGHT a request is refused at once with HTTP 503 and Retry-After', async () => {
    // Each operation waits for a listing fee, which the simulator holds: the operations let in stay
    // in flight, however slowly the requests arrive, until the rest are refused.
    const release = kit().simulator.holdListingFees();
    const answered: Response[] = [];
    const sent = Array.from({ length: 12 }, (_, n) =>
      kit()
        .post({ query: `{ inventory(platformId: "${platformIdWithSize(n + 1)}", appId: ${APP_ID}) { items(first: 1) { nodes { listingFee(price: 1000) { fee } } } } }` })
        .then((response) => (answered.push(response), response)),
    );
    try {
      await vi.waitFor(() => expect(answered.length).toBeGreaterThanOrEqual(8), { timeout: 10_000, interval: 20 });
    } finally {
      release();
    }
    const answers = await Promise.all(sent);
    const refused = answers.filter((response) => response.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(8);
    expect(refused[0]!.headers.get('retry-after')).toBe('1');
    expect(errorCodes((await refused[0]!.json()) as GraphQLResponse<unknown>)).toEqual(['OVERLOADED']);
    expect(kit().simulator.callsOf('readInventory').length).toBe(12 - refused.length);
    // The slots come back as answers finish: the next request is served.
    expectNoGraphQLErrors(await readTotal(kit(), DEMO_PLATFORM_ID));
  });
});

describe('a partner that stops for everyone', () => {
  // The breaker and cockatiel time the half-open wait on Date's clock: the test holds that clock
  // still once the partner stops and moves it, so no stall of a loaded machine can end the wait
  // early and no test waits it out.
  const HALF_OPEN_MS = 30_000;
  let simulator: PartnerSimulator;
  let kit: Testkit;
  let port: number;
  beforeAll(async () => {
    // The partner comes back on the same port mid-test: one no other test file's server can take meanwhile.
    port = await closedPort();
    simulator = await startSimulator({ port });
    kit = await startTestkit({
      config: {
        partnerApiUrl: simulator.url,
        partnerOpenApiUrl: simulator.url,
        upstreamMaxRetries: 0,
        upstreamBreakerMinCalls: 5,
        upstreamBreakerHalfOpenMs: HALF_OPEN_MS,
      },
    });
  });
  afterAll(async () => {
    await kit.close();
    await simulator.close();
  });

  it('opens, answers with retryAfter without calling, and recovers once the partner is back', async () => {
    // Five users the partner has accepted (only they count as distinct callers), then it stops:
    // one outage more than the successes passes the ratio of one half.
    for (let n = 0; n < 5; n++) expectNoGraphQLErrors(await readTotal(kit, otherUser(n).platformId, otherUser(n).token));
    await simulator.close();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const opening = Date.now();
      for (let n = 0; n < 6; n++) {
        const { token, platformId } = otherUser(n % 5);
        expect(errorCodes(await readTotal(kit, platformId, token))).toEqual(['UPSTREAM_UNAVAILABLE']);
      }
      const whileOpen = await readTotal(kit, DEMO_PLATFORM_ID, otherUser(7).token);
      expect(errorCodes(whileOpen)).toEqual(['UPSTREAM_UNAVAILABLE']);
      // retryAfter: the whole seconds left of the half-open time, all of it while the clock stands still.
      expect(whileOpen.errors![0]!.extensions!.retryAfter).toBe(HALF_OPEN_MS / 1000);
      expect(kit.service.partner.circuitStates()[0]!.state).toBe('open');

      simulator = await startSimulator({ port });
      // The half-open time's last millisecond: still open, the partner not called, one second left.
      vi.setSystemTime(opening + HALF_OPEN_MS - 1);
      const lastOpen = await readTotal(kit, DEMO_PLATFORM_ID, otherUser(7).token);
      expect(errorCodes(lastOpen)).toEqual(['UPSTREAM_UNAVAILABLE']);
      expect(lastOpen.errors![0]!.extensions!.retryAfter).toBe(1);
      expect(simulator.callsOf('readInventory')).toHaveLength(0);
      vi.setSystemTime(opening + HALF_OPEN_MS);
      expectNoGraphQLErrors(await readTotal(kit, DEMO_PLATFORM_ID, otherUser(7).token));
      expectNoGraphQLErrors(await readTotal(kit, DEMO_PLATFORM_ID, otherUser(8).token));
      expect(simulator.callsOf('readInventory')).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a partner that stops after a busy window', () => {
  // The busy window must still be the breaker's when the outage comes, however slow the machine:
  // a window of a minute, as the finding's; and a half-open time that no stall lets pass mid-test.
  const WINDOW_MS = 60_000;
  const HALF_OPEN_MS = 30_000;
  let simulator: PartnerSimulator;
  let kit: Testkit;
  beforeAll(async () => {
    simulator = await startSimulator({ port: await closedPort() });
    kit = await startTestkit({
      config: {
        production: true,
        partnerApiUrl: simulator.url,
        partnerOpenApiUrl: simulator.url,
        upstreamMaxRetries: 0,
        upstreamBreakerWindowMs: WINDOW_MS,
        upstreamBreakerHalfOpenMs: HALF_OPEN_MS,
      },
    });
  });
  afterAll(async () => {
    await kit.close();
    await simulator.close();
  });

  it('opens after BREAKER_CONSECUTIVE_UNREACHABLE refused calls in a row, whatever successes the window holds', async () => {
    // 120 successful reads by distinct callers, ten at a time: the window holds four times the
    // failures that follow, so its failure ratio never reaches one half.
    for (let batch = 0; batch < 12; batch++) {
      const reads = Array.from({ length: 10 }, (_, n) => readTotal(kit, platformIdWithSize(300 + batch), `busy-${batch}-${n}-token`));
      for (const result of await Promise.all(reads)) expectNoGraphQLErrors(result);
    }
    // The partner's port closes: every connection is refused, whoever the caller.
    await simulator.close();
    const results: GraphQLResponse<unknown>[] = [];
    for (let n = 0; n < 30; n++) results.push(await readTotal(kit, platformIdWithSize(400 + (n % 6)), `after-${n}-token`));
    for (const result of results) expect(errorCodes(result)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(kit.service.partner.circuitStates()[0]!.state).toBe('open');
    // The first BREAKER_CONSECUTIVE_UNREACHABLE reads find the port closed; every later one is refused at once.
    const refusedAtOnce = results.slice(BREAKER_CONSECUTIVE_UNREACHABLE);
    for (const result of refusedAtOnce) {
      expect(result.errors![0]!.message).toContain('circuit is open');
      expect(result.errors![0]!.extensions!.retryAfter).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('a facade started while the partner is down', () => {
  let kit: Testkit;
  beforeAll(async () => {
    // Nothing listens there: every connection is refused, whoever the caller.
    const down = `http://127.0.0.1:${await closedPort()}`;
    kit = await startTestkit({ config: { partnerApiUrl: down, partnerOpenApiUrl: down } });
  });
  afterAll(async () => {
    await kit.close();
  });

  it('opens within the first window of reads by 200 tokens the partner never accepted, and answers with retryAfter', async () => {
    // Every caller is new, as after a deploy: none has been accepted, so none is a caller of its own.
    const results: GraphQLResponse<unknown>[] = [];
    for (let n = 0; n < 200; n++) results.push(await readTotal(kit, platformIdWithSize(600 + (n % 8)), `new-caller-${n}-token`));
    for (const result of results) expect(errorCodes(result)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(kit.service.partner.circuitStates()[0]!.state).toBe('open');
    const refusedAtOnce = results.filter((result) => result.errors![0]!.message.includes('circuit is open'));
    // UPSTREAM_BREAKER_MIN_CALLS (20) refused connections open it; the reads after it are not sent.
    expect(refusedAtOnce.length).toBeGreaterThanOrEqual(200 - 2 * kit.config.upstreamBreakerMinCalls);
    for (const result of refusedAtOnce) expect(result.errors![0]!.extensions!.retryAfter).toBeGreaterThanOrEqual(1);
  });
});

describe('hostile input and a careless partner', () => {
  const kit = useTestkit({ config: { pageMaxPartnerCalls: 3 } });
  const calls = () => kit().simulator.callsOf('readInventory');

  it('fees of one item at two prices cannot be swapped by a reordered answer', async () => {
    kit().simulator.injectFault({ operation: 'calculateListingFee', kind: 'reversed-results' });
    const { result } = await query<{ inventory: { items: { nodes: { assetId: string; lo: { fee: number; assetId: string }; hi: { fee: number } }[] } } }>(
      kit(),
      `{ inventory(platformId: "${platformIdWithSize(3)}", appId: ${APP_ID}) { items(first: 3) { nodes { assetId lo: listingFee(price: 1000) { fee assetId } hi: listingFee(price: 3000) { fee } } } } }`,
    );
    expectNoGraphQLErrors(result);
    for (const node of result.data.inventory.items.nodes) {
      expect(node.lo.fee).toBe(listingFeeFor({ price: 1000 }).fee);
      expect(node.hi.fee).toBe(listingFeeFor({ price: 3000 }).fee);
      expect(node.lo.assetId).toBe(node.assetId);
    }
    expect(kit().simulator.callsOf('calculateListingFee').map((call) => call.batchSize)).toEqual([3, 3]);
  });

  it.each(['.', '..'])("refuses platformId '%s' as BAD_USER_INPUT, also through node(id:), with no partner call", async (platformId) => {
    expect(errorCodes(await readTotal(kit(), platformId))).toEqual(['BAD_USER_INPUT']);
    const id = encodeGlobalId({ type: 'Inventory', platformId, appId: APP_ID });
    expect(errorCodes(await kit().execute(NodeDocument, { id }))).toEqual(['BAD_USER_INPUT']);
    expect(calls()).toHaveLength(0);
  });

  // A global id is JSON the client can write: its numbers and digit strings get the bounds the
  // same values have as arguments (appId a GraphQL Int, an asset id as long as a fee input's).
  it.each([
    ['an asset id of 65 digits', encodeGlobalId({ type: 'InventoryItem', platformId: DEMO_PLATFORM_ID, appId: APP_ID, assetId: '1'.repeat(65) })],
    ['an asset id of 20,000 digits', encodeGlobalId({ type: 'InventoryItem', platformId: DEMO_PLATFORM_ID, appId: APP_ID, assetId: '9'.repeat(20_000) })],
    ['an item of appId 2^31', encodeGlobalId({ type: 'InventoryItem', platformId: DEMO_PLATFORM_ID, appId: 2 ** 31, assetId: '1' })],
    ['an inventory of appId 2^53 - 1', encodeGlobalId({ type: 'Inventory', platformId: DEMO_PLATFORM_ID, appId: Number.MAX_SAFE_INTEGER })],
  ])('refuses a node id with %s as BAD_USER_INPUT, with no partner call', async (_, id) => {
    const result = await kit().execute(NodeDocument, { id });
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0]!.extensions).toMatchObject({ argumentName: 'id' });
    expect(result.errors![0]!.message).toMatch(/is not an id of this API\.$/);
    expect(result.data).toEqual({ node: null });
    expect(calls()).toHaveLength(0);
  });

  it('takes a node id with an asset id of 64 digits and the largest Int appId, and asks the partner', async () => {
    const assetId = '1'.repeat(64);
    const id = encodeGlobalId({ type: 'InventoryItem', platformId: DEMO_PLATFORM_ID, appId: 2 ** 31 - 1, assetId });
    expectNoGraphQLErrors(await kit().execute(NodeDocument, { id }));
    expect(calls().map((call) => call.query.startAssetId)).toEqual([assetId]);
  });

  it('percent-encodes every path segment it sends', async () => {
    expectNoGraphQLErrors(await readTotal(kit(), 'a.b_c-d'));
    expect(calls()[0]!.path).toBe(`/api/user/v2/a.b_c-d/${APP_ID}`);
  });

  it('refuses a document over MAX_QUERY_BYTES before parsing it', async () => {
    const response = await kit().post({ query: `{ __typename ${' '.repeat(900_000)}}` });
    expect(response.status).toBe(400);
    const result = (await response.json()) as GraphQLResponse<unknown>;
    expect(errorCodes(result)).toEqual(['OPERATION_LIMIT_EXCEEDED']);
    expect(result.errors![0]!.extensions).toMatchObject({ limit: 'queryBytes', maximum: 32 * 1024 });
  });

  // Compiled by graphql-jit, and (with a variable default) run by Yoga's executor, which reports a
  // scalar's refusal as a plain Error.
  it.each([
    ['compiled', `{ inventory(platformId: "${platformIdWithSize(1)}", appId: ${APP_ID}) { items(first: 1) { nodes { appId ifTradable status } } } }`],
    ['uncompiled', `query ($first: Int = 1) { inventory(platformId: "${platformIdWithSize(1)}", appId: ${APP_ID}) { items(first: $first) { nodes { appId ifTradable status } } } }`],
  ])('gives values of the wrong type UPSTREAM_BAD_RESPONSE, naming the field and not the value (%s)', async (_, text) => {
    kit().simulator.injectFault({ operation: 'readInventory', kind: 'wrong-types' });
    const { result } = await query(kit(), text);
    expect(result.errors).toHaveLength(3);
    expect(new Set(errorCodes(result))).toEqual(new Set(['UPSTREAM_BAD_RESPONSE']));
    const messages = result.errors!.map((error) => error.message).join('\n');
    expect(messages).toContain("'inventory.items.nodes.appId'");
    expect(messages).not.toMatch(/"x"|"yes"|"active"/);
  });

  it('scrubs the token from an error that echoes the URL, in its percent-encoded form too', async () => {
    const token = 'tok+x/y== secret';
    kit().simulator.injectFault({ operation: 'readInventory', kind: 'echo-url' });
    const response = await kit().post({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${APP_ID}) { totalCount } }` }, {
      headers: { authorization: 'Bearer tok+x/y==' },
      token: null,
    });
    const text = await response.text();
    expect(text).toContain('UPSTREAM_ERROR');
    expect(text).toContain('[redacted]');
    for (const form of ['tok+x/y==', 'tok%2Bx%2Fy%3D%3D', encodeURIComponent(token)]) expect(text).not.toContain(form);
    expect(kit().logs.join('\n')).not.toContain('tok%2Bx%2Fy%3D%3D');
  });

  it('answers UNAUTHENTICATED, saying what to send, without calling the partner when Authorization is missing', async () => {
    const result = await readTotal(kit(), DEMO_PLATFORM_ID, null);
    expect(errorCodes(result)).toEqual(['UNAUTHENTICATED']);
    expect(result.errors![0]!.message).toContain('Authorization: Bearer <token>');
    expect(calls()).toHaveLength(0);
  });

  it('refuses a cursor of another inventory as BAD_USER_INPUT', async () => {
    const first = await kit().execute(InventoryPageDocument, { platformId: platformIdWithSize(10), appId: APP_ID, first: 2 });
    expectNoGraphQLErrors(first);
    const cursor = first.data.inventory!.items.pageInfo.endCursor!;
    const other = await kit().execute(InventoryPageDocument, { platformId: platformIdWithSize(11), appId: APP_ID, first: 2, after: cursor });
    expect(errorCodes(other)).toEqual(['BAD_USER_INPUT']);
    // Only the first page resumed from nowhere; the refused one asked for no items.
    expect(calls().filter((call) => call.query.startAssetId !== undefined)).toHaveLength(0);
  });

  it('a partner answering two items a call costs at most PAGE_MAX_PARTNER_CALLS calls per page, and the page continues', async () => {
    kit().simulator.configure({ countCap: 2 });
    const page = await kit().execute(InventoryPageDocument, { platformId: platformIdWithSize(100), appId: APP_ID, first: 100 });
    expectNoGraphQLErrors(page);
    const items = page.data.inventory!.items;
    expect(calls().filter((call) => call.query.startAssetId !== undefined || call.query.count !== '1')).toHaveLength(3);
    expect(items.edges).toHaveLength(6);
    expect(items.pageInfo.hasNextPage).toBe(true);
    const next = await kit().execute(InventoryPageDocument, {
      platformId: platformIdWithSize(100),
      appId: APP_ID,
      first: 100,
      after: items.pageInfo.endCursor,
    });
    expectNoGraphQLErrors(next);
    expect(next.data.inventory!.items.edges[0]!.node.assetId).not.toBe(items.edges[5]!.node.assetId);
  });

  it('refuses an answer larger than a page of `count` items can be', async () => {
    const bloated = { total: 1, lastAssetId: null, list: [{ assetId: '1', remark: 'x'.repeat(512 * 1024) }] };
    kit().simulator.injectFault({ operation: 'readInventory', kind: 'bad-shape', data: bloated });
    const result = await kit().execute(InventoryPageDocument, { platformId: platformIdWithSize(1), appId: APP_ID, first: 1 });
    expect(errorCodes(result)).toContain('UPSTREAM_BAD_RESPONSE');
    expect(result.errors![0]!.message).toMatch(/exceeds \d+ bytes/);
  });
});

describe('the operation deadline', () => {
  const kit = useTestkit({ simulator: { latencyMs: 2000 }, config: { operationTimeoutMs: 300, upstreamTimeoutMs: 10_000 } });

  it('fails the fields still waiting with UPSTREAM_TIMEOUT, without counting it against the partner', async () => {
    const result = await readTotal(kit(), DEMO_PLATFORM_ID);
    expect(errorCodes(result)).toEqual(['UPSTREAM_TIMEOUT']);
    expect(result.errors![0]!.message).toContain('operation did not finish within 300 ms');
  });
});

describe('slow clients', () => {
  const kit = useTestkit({ config: { httpHeadersTimeoutMs: 1000, httpMaxConnections: 3 } });

  const open = (url: string) =>
    new Promise<Socket>((resolve) => {
      const { hostname, port } = new URL(url);
      const socket = connect(Number(port), hostname, () => resolve(socket));
    });
  // Read (and drop) whatever the server answers, so that its closing the socket is seen.
  const closed = (socket: Socket) =>
    new Promise<string>((resolve) => socket.once('close', () => resolve('closed')).on('error', () => undefined).resume());

  it('cuts off a client that never finishes its headers', async () => {
    const socket = await open(kit().url);
    socket.write('POST /graphql HTTP/1.1\r\nhost: x\r\n');
    expect(await closed(socket)).toBe('closed');
  });

  it('refuses connections past HTTP_MAX_CONNECTIONS', async () => {
    const held = await Promise.all([open(kit().url), open(kit().url), open(kit().url)]);
    const extra = await open(kit().url);
    expect(await closed(extra)).toBe('closed');
    for (const socket of held) socket.destroy();
  });
});
