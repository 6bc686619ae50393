// Observability over real HTTP: the per-operation log line and request ids (to the caller and to
// the partner), GET /metrics, GET /readiness with the partner up, down, silent or circuit-broken,
// and secrets kept out of all of it.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CalculateListingFeeDocument, InventoryPageDocument, InventoryTotalDocument } from '../generated/graphql.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, useTestkit, type Testkit } from '../support/testkit.js';
import { DEMO_APP_KEY } from '../../src/simulator/data.js';

const APP_ID = 730;
const PLATFORM_ID = '76561198000000012';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface OperationLine {
  msg: string;
  level: number;
  requestId: string;
  operationName: string;
  operationType: string;
  outcome: string;
  errorCodes: string[];
  httpStatus: number;
  durationMs: number;
}

/** The 'graphql operation' log lines, parsed. */
const operationLines = (kit: Testkit): OperationLine[] =>
  kit.logs.map((line) => JSON.parse(line) as OperationLine).filter((line) => line.msg === 'graphql operation');

/** Waits for the asynchronous log line of the request with this id. */
const operationLine = async (kit: Testkit, requestId: string): Promise<OperationLine> => {
  await expect.poll(() => operationLines(kit).filter((line) => line.requestId === requestId)).toHaveLength(1);
  return operationLines(kit).find((line) => line.requestId === requestId)!;
};

const inventoryPage = (kit: Testkit, headers: Record<string, string> = {}, token?: string | null) =>
  kit.post(
    {
      query: `query InventoryPage($platformId: String!, $appId: Int!) {
        inventory(platformId: $platformId, appId: $appId) { totalCount items(first: 2) { nodes { assetId } } }
      }`,
      variables: { platformId: PLATFORM_ID, appId: APP_ID },
      operationName: 'InventoryPage',
    },
    { headers, ...(token === undefined ? {} : { token }) },
  );

const scrape = async (kit: Testkit) => {
  const response = await fetch(`${kit.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
};

/** The value of one series in Prometheus text, or undefined when the series is absent. */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('request ids and the operation log line', () => {
  const testkit = useTestkit();
  let kit: Testkit;
  beforeEach(() => {
    kit = testkit();
  });

  it("returns the caller's x-request-id, sends it upstream and logs it with the operation", async () => {
    const response = await inventoryPage(kit, { 'x-request-id': 'checkout-7f3a.1' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('checkout-7f3a.1');
    const calls = kit.simulator.callsOf('readInventory');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.map((call) => call.requestId)).toEqual(calls.map(() => 'checkout-7f3a.1'));

    const line = await operationLine(kit, 'checkout-7f3a.1');
    expect(line).toMatchObject({
      level: 30,
      operationName: 'InventoryPage',
      operationType: 'query',
      outcome: 'ok',
      errorCodes: [],
      httpStatus: 200,
    });
    expect(line.durationMs).toEqual(expect.any(Number));
    // The partner call log lines of this request carry the same id.
    const partnerLines = kit.logs.map((each) => JSON.parse(each)).filter((each) => each.msg === 'partner call');
    expect(partnerLines.filter((each) => each.requestId === 'checkout-7f3a.1').length).toBe(calls.length);
  });

  it('generates a request id when the caller sends none or an unusable one, and uses it throughout', async () => {
    const sent: Record<string, string>[] = [{}, { 'x-request-id': 'has spaces and ünïcode' }, { 'x-request-id': 'x'.repeat(129) }];
    for (const headers of sent) {
      kit.simulator.reset();
      const response = await inventoryPage(kit, headers);
      const requestId = response.headers.get('x-request-id')!;
      expect(requestId).toMatch(UUID);
      const calls = kit.simulator.callsOf('readInventory');
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) expect(call.requestId).toBe(requestId);
      expect((await operationLine(kit, requestId)).outcome).toBe('ok');
    }
  });

  it('logs the outcome and error codes of failed and partly failed operations', async () => {
    const refused = await inventoryPage(kit, { 'x-request-id': 'expired-1' }, 'expired-token');
    expect(new Set(errorCodes(await refused.json()))).toEqual(new Set(['UNAUTHENTICATED']));
    // `inventory` is nullable: data { inventory: null } beside the error.
    expect(await operationLine(kit, 'expired-1')).toMatchObject({ outcome: 'partial', errorCodes: ['UNAUTHENTICATED'] });

    const invalid = await kit.post({ query: '{ inventory { nope } }' }, { headers: { 'x-request-id': 'invalid-1' } });
    expect(invalid.status).toBe(400);
    expect(await operationLine(kit, 'invalid-1')).toMatchObject({
      operationName: 'anonymous',
      operationType: 'unknown',
      outcome: 'error',
      errorCodes: ['GRAPHQL_VALIDATION_FAILED'],
      httpStatus: 400,
    });
  });
});

describe('secrets', () => {
  it('never puts an access token, the app-key or an access_token query in logs or metrics', async () => {
    const kit = await startTestkit();
    try {
      const token = 'tok-SECRET-4f9c2e7a';
      const responses = [
        await inventoryPage(kit, {}, token),
        await inventoryPage(kit, {}, `expired-${token}`),
        await inventoryPage(kit, {}, `forbidden-${token}`),
      ];
      kit.simulator.injectFault({ kind: 'envelope-error', operation: 'readInventory', times: 1 });
      responses.push(await inventoryPage(kit, {}, token));
      kit.simulator.injectFault({ kind: 'http-500', operation: 'readInventory' });
      responses.push(await inventoryPage(kit, {}, token));
      // The upstream saw the token, so the test would notice if it leaked.
      expect(kit.simulator.calls.some((call) => call.query.access_token === kit.simulator.fingerprint(token))).toBe(true);
      kit.simulator.reset({ appKey: 'another-key' });
      const fees = await kit.execute(
        CalculateListingFeeDocument,
        { input: { items: [{ price: 10_000, token: 'tok_730_1', styleToken: 'sty_1' }] } },
        { token },
      );
      expect(errorCodes(fees)).toEqual(['UPSTREAM_ERROR']);
      expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);

      await expect.poll(() => operationLines(kit).length).toBe(6);
      const everything = [...kit.logs, await scrape(kit)].join('\n');
      expect(everything).toContain('partner call failed');
      for (const secret of [token, DEMO_APP_KEY, 'access_token', 'app-key=']) expect(everything).not.toContain(secret);
    } finally {
      await kit.close();
    }
  });
});

/** A breaker that opens on any outage, from one caller too: these tests only watch it being reported. */
const TOUCHY_BREAKER = { upstreamBreakerFailureRatio: 0.01, upstreamBreakerMinCalls: 2, upstreamBreakerMinDistinct: 1 };

describe('GET /metrics', () => {
  const testkit = useTestkit({ config: TOUCHY_BREAKER });
  let kit: Testkit;
  beforeEach(() => {
    kit = testkit();
  });

  it('counts GraphQL operations and partner calls by operation and outcome, with the envelope errorCode', async () => {
    expectNoGraphQLErrors(await kit.execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID }));
    expectNoGraphQLErrors(await kit.execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID }));
    kit.simulator.injectFault({ kind: 'envelope-error', operation: 'readInventory', times: 1 });
    const failed = await kit.execute(InventoryPageDocument, { platformId: PLATFORM_ID, appId: APP_ID, first: 2 });
    expect(new Set(errorCodes(failed))).toEqual(new Set(['UPSTREAM_ERROR']));

    const text = await scrape(kit);
    const operation = 'operation_name="InventoryTotal",operation_type="query"';
    expect(sample(text, `tradegraph_graphql_operation_duration_seconds_count{${operation},outcome="ok"}`)).toBe(2);
    expect(
      sample(text, 'tradegraph_graphql_operation_duration_seconds_count{operation_name="InventoryPage",operation_type="query",outcome="partial"}'),
    ).toBe(1);
    expect(
      sample(text, 'tradegraph_graphql_errors_total{operation_name="InventoryPage",operation_type="query",code="UPSTREAM_ERROR"}'),
    ).toBe(1);
    expect(sample(text, 'tradegraph_upstream_calls_total{operation="readInventory",outcome="ok",upstream_error_code=""}')).toBe(2);
    expect(
      sample(text, 'tradegraph_upstream_calls_total{operation="readInventory",outcome="UPSTREAM_ERROR",upstream_error_code="10086"}'),
    ).toBe(1);
    expect(sample(text, 'tradegraph_upstream_call_duration_seconds_count{operation="readInventory",outcome="ok"}')).toBe(2);
    expect(sample(text, 'tradegraph_upstream_circuit_open{upstream="partner"}')).toBe(0);
    // The usual process metrics come along.
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('exports the retry and coalescing counters of every partner operation at 0 from the first scrape', async () => {
    const fresh = await startTestkit();
    try {
      const text = await scrape(fresh);
      for (const operation of ['readInventory', 'calculateListingFee']) {
        expect(sample(text, `tradegraph_upstream_retries_total{operation="${operation}"}`), operation).toBe(0);
        expect(sample(text, `tradegraph_upstream_calls_coalesced_total{operation="${operation}"}`), operation).toBe(0);
      }
    } finally {
      await fresh.close();
    }
  });

  it('keeps each service in its own registry', async () => {
    const other = await startTestkit();
    try {
      expectNoGraphQLErrors(await other.execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID }));
      const mine = await scrape(kit);
      const theirs = await scrape(other);
      const series =
        'tradegraph_graphql_operation_duration_seconds_count{operation_name="InventoryTotal",operation_type="query",outcome="ok"}';
      expect(sample(theirs, series)).toBe(1);
      expect(sample(mine, series)).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('counts retries and shows an open circuit', async () => {
    kit.simulator.reset({ faults: [{ kind: 'http-503', operation: 'readInventory' }] });
    for (let i = 0; i < 2; i += 1) {
      const result = await kit.execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID });
      expect(errorCodes(result)).toEqual(['UPSTREAM_UNAVAILABLE']);
    }
    const text = await scrape(kit);
    // The first read's two retries; the second read is refused by the circuit the first opened.
    expect(sample(text, 'tradegraph_upstream_retries_total{operation="readInventory"}')).toBe(2);
    expect(sample(text, 'tradegraph_upstream_circuit_open{upstream="partner"}')).toBe(1);
  });
});

describe('GET /readiness', () => {
  const readiness = async (kit: Testkit) => {
    const response = await fetch(`${kit.url}/readiness`);
    return { status: response.status, body: (await response.json()) as { status: string; upstreams: unknown[] } };
  };
  let kit: Testkit | undefined;
  afterEach(async () => {
    await kit?.close();
    kit = undefined;
  });

  it('is ready when the partner answers, probing once for many concurrent callers', async () => {
    kit = await startTestkit();
    const answers = await Promise.all(Array.from({ length: 20 }, () => readiness(kit!)));
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 200,
        // The simulator's base answers as an up server does, so development shows no 404 beside
        // `reachable` (any HTTP answer would prove reachability: test/unit/readiness.test.ts).
        body: { status: 'ready', upstreams: [{ upstream: 'partner', reachable: true, httpStatus: 200, circuit: 'closed' }] },
      });
    }
    const probes = kit.simulator.calls.filter((call) => call.method === 'HEAD');
    expect(probes).toHaveLength(1);
    // No credential goes with a probe.
    expect(probes[0]).toMatchObject({ path: '/', query: {}, appKeyHeader: null, appKeyQuery: null });
  });

  it('is not ready when the partner refuses connections', async () => {
    kit = await startTestkit();
    await kit.simulator.close();
    expect(await readiness(kit)).toEqual({
      status: 503,
      body: { status: 'not ready', upstreams: [{ upstream: 'partner', reachable: false, error: 'ECONNREFUSED', circuit: 'closed' }] },
    });
  });

  it('is not ready when a partner base accepts connections but never answers, and names which base', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      // The probe's timeout is min(2000 ms, UPSTREAM_TIMEOUT_MS): the healthy base must answer within
      // it on a loaded machine too, so the silent one is reported after 2 s.
      kit = await startTestkit({ config: { partnerOpenApiUrl: silentUrl, upstreamTimeoutMs: 2000 } });
      expect(await readiness(kit)).toEqual({
        status: 503,
        body: {
          status: 'not ready',
          upstreams: [
            { upstream: 'partner', reachable: true, httpStatus: 200, circuit: 'closed' },
            { upstream: 'openApi', reachable: false, error: 'timeout', circuit: 'closed' },
          ],
        },
      });
    } finally {
      await kit?.close();
      kit = undefined;
      silent.close();
    }
  });

  it('is not ready while the circuit breaker of a reachable partner is open', async () => {
    kit = await startTestkit({ simulator: { faults: [{ kind: 'http-503', operation: 'readInventory' }] }, config: TOUCHY_BREAKER });
    for (let i = 0; i < 2; i += 1) {
      const result = await kit.execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID });
      expect(errorCodes(result)).toEqual(['UPSTREAM_UNAVAILABLE']);
    }
    expect(await readiness(kit)).toEqual({
      status: 503,
      body: { status: 'not ready', upstreams: [{ upstream: 'partner', reachable: true, httpStatus: 200, circuit: 'open' }] },
    });
  });
});
