// OpenTelemetry tracing over real HTTP, exported to memory: a span per GraphQL operation with the
// partner calls as its children, the caller's traceparent honoured, and no secret in any attribute.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { InventoryTotalDocument, InventoryWithDeferredFeesDocument, InventoryWithFeesDocument } from '../generated/graphql.js';
import { payloadsOf, type IncrementalPayload } from '../support/incremental.js';
import { errorCodes, expectNoGraphQLErrors, startTestkit, type Testkit } from '../support/testkit.js';
import { installTracing, type TracingInstallation } from '../../src/observability/tracing.js';
import { DEMO_APP_KEY } from '../../src/simulator/data.js';

const APP_ID = 730;
const PLATFORM_ID = '76561198000000004';
const TOKEN = 'tok-SECRET-traced-91b2';

const exporter = new InMemorySpanExporter();
let tracing: TracingInstallation;
let kit: Testkit;

beforeAll(async () => {
  tracing = installTracing({ serviceName: 'tradegraph-test', spanProcessor: new SimpleSpanProcessor(exporter) });
  kit = await startTestkit({ config: { tracing: { tracesUrl: 'http://127.0.0.1:9/v1/traces', serviceName: 'unused' } } });
});
afterAll(async () => {
  await kit.close();
  await tracing.shutdown();
});
beforeEach(() => {
  kit.simulator.reset();
  exporter.reset();
});

/** Spans are exported when they end, which may be just after the response is written. */
const finishedSpans = async (count: number): Promise<ReadableSpan[]> => {
  await expect.poll(() => exporter.getFinishedSpans().length).toBeGreaterThanOrEqual(count);
  return exporter.getFinishedSpans();
};

describe('tracing', () => {
  it('makes a span per operation with a child span per partner call, and no secret in any attribute', async () => {
    const result = await kit.execute(
      InventoryWithFeesDocument,
      { platformId: PLATFORM_ID, appId: APP_ID, first: 4, price: 10_000 },
      { token: TOKEN, headers: { 'x-request-id': 'traced-1' } },
    );
    expectNoGraphQLErrors(result);
    const spans = await finishedSpans(3);

    const operation = spans.find((span) => span.kind === SpanKind.SERVER)!;
    expect(operation.name).toBe('query InventoryWithFees');
    expect(operation.attributes).toMatchObject({
      'graphql.operation.name': 'InventoryWithFees',
      'graphql.operation.type': 'query',
      'tradegraph.request_id': 'traced-1',
    });
    expect(operation.status.code).toBe(SpanStatusCode.UNSET);
    expect(operation.resource.attributes['service.name']).toBe('tradegraph-test');

    const partner = spans.filter((span) => span.kind === SpanKind.CLIENT);
    expect(partner.map((span) => span.name).sort()).toEqual(['partner calculateListingFee', 'partner readInventory']);
    for (const span of partner) {
      expect(span.spanContext().traceId).toBe(operation.spanContext().traceId);
      expect(span.parentSpanContext?.spanId).toBe(operation.spanContext().spanId);
      expect(span.attributes).toMatchObject({ 'tradegraph.partner.outcome': 'ok', 'http.response.status_code': 200 });
    }
    const read = partner.find((span) => span.name === 'partner readInventory')!;
    expect(read.attributes).toMatchObject({
      'http.request.method': 'GET',
      'server.address': '127.0.0.1',
      'url.path': `/api/user/v2/${PLATFORM_ID}/${APP_ID}`,
      'tradegraph.partner.attempts': 1,
    });

    const attributes = JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events, span.status]));
    for (const secret of [TOKEN, DEMO_APP_KEY, 'access_token', '?']) expect(attributes).not.toContain(secret);
  });

  it('keeps a deferred operation\'s span open until its last payload, with the deferred fee call as its child', async () => {
    const release = kit.simulator.holdListingFees();
    try {
      const response = await kit.post(
        { query: print(InventoryWithDeferredFeesDocument), variables: { platformId: PLATFORM_ID, appId: APP_ID, first: 3, price: 10_000 } },
        { headers: { accept: 'multipart/mixed' }, token: TOKEN },
      );
      expect(response.status).toBe(200);
      const payloads = payloadsOf(response);
      const first = (await payloads.next()).value as IncrementalPayload;
      expect(first.hasNext).toBe(true);
      await expect.poll(() => kit.simulator.callsOf('calculateListingFee').length).toBe(1);
      // The page is out and its fees are still held upstream: the operation is not over.
      expect(exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER)).toEqual([]);
      release();
      const rest: IncrementalPayload[] = [];
      for await (const payload of payloads) rest.push(payload);
      expect(rest.at(-1)?.hasNext).toBe(false);
    } finally {
      release();
    }
    const spans = await finishedSpans(3);
    const operation = spans.find((span) => span.kind === SpanKind.SERVER)!;
    expect(operation.name).toBe('query InventoryWithDeferredFees');
    expect(operation.status.code).toBe(SpanStatusCode.UNSET);
    const fees = spans.find((span) => span.name === 'partner calculateListingFee')!;
    expect(fees.parentSpanContext?.spanId).toBe(operation.spanContext().spanId);
    const endOf = (span: ReadableSpan) => span.endTime[0] * 1e9 + span.endTime[1];
    expect(endOf(operation)).toBeGreaterThanOrEqual(endOf(fees));
  });

  it("joins the caller's trace from its traceparent header", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const result = await kit.execute(
      InventoryTotalDocument,
      { platformId: PLATFORM_ID, appId: APP_ID },
      { headers: { traceparent: `00-${traceId}-${parentId}-01` } },
    );
    expectNoGraphQLErrors(result);
    const spans = await finishedSpans(2);
    const operation = spans.find((span) => span.kind === SpanKind.SERVER)!;
    expect(operation.spanContext().traceId).toBe(traceId);
    expect(operation.parentSpanContext?.spanId).toBe(parentId);
    expect(spans.every((span) => span.spanContext().traceId === traceId)).toBe(true);
  });

  it("carries the client's name and version, and unknown for a request without them", async () => {
    const result = await kit.execute(
      InventoryTotalDocument,
      { platformId: PLATFORM_ID, appId: APP_ID },
      { token: TOKEN, headers: { 'apollographql-client-name': 'web-shop', 'apollographql-client-version': '4.12.0' } },
    );
    expectNoGraphQLErrors(result);
    const named = (await finishedSpans(2)).find((span) => span.kind === SpanKind.SERVER)!;
    expect(named.attributes).toMatchObject({ 'tradegraph.client.name': 'web-shop', 'tradegraph.client.version': '4.12.0' });

    exporter.reset();
    // A client name that is the caller's token is never an attribute.
    expectNoGraphQLErrors(
      await kit.execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID }, { token: TOKEN, headers: { 'graphql-client-name': TOKEN } }),
    );
    const redacted = (await finishedSpans(2)).find((span) => span.kind === SpanKind.SERVER)!;
    expect(redacted.attributes).toMatchObject({ 'tradegraph.client.name': 'redacted', 'tradegraph.client.version': 'redacted' });

    exporter.reset();
    expectNoGraphQLErrors(await kit.execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID }));
    const anonymous = (await finishedSpans(2)).find((span) => span.kind === SpanKind.SERVER)!;
    expect(anonymous.attributes).toMatchObject({ 'tradegraph.client.name': 'unknown', 'tradegraph.client.version': 'unknown' });
  });

  it('marks failed operations and partner calls with their error codes', async () => {
    kit.simulator.injectFault({ kind: 'envelope-error', operation: 'readInventory' });
    const result = await kit.execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID }, { token: TOKEN });
    expect(errorCodes(result)).toEqual(['UPSTREAM_ERROR']);
    const spans = await finishedSpans(2);

    const operation = spans.find((span) => span.kind === SpanKind.SERVER)!;
    expect(operation.status).toEqual({ code: SpanStatusCode.ERROR, message: 'UPSTREAM_ERROR' });
    expect(operation.attributes['graphql.error.codes']).toEqual(['UPSTREAM_ERROR']);
    const call = spans.find((span) => span.kind === SpanKind.CLIENT)!;
    expect(call.status).toEqual({ code: SpanStatusCode.ERROR, message: 'UPSTREAM_ERROR' });
    expect(call.attributes).toMatchObject({
      'tradegraph.partner.outcome': 'UPSTREAM_ERROR',
      'tradegraph.partner.error_code': '10086',
    });
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain(TOKEN);
  });
});
