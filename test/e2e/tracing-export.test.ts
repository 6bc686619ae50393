// Tracing switched on the way an operator switches it on: OTEL_EXPORTER_OTLP_ENDPOINT set for the
// `npm start` entry point, spans arriving over OTLP/HTTP at a collector (here a capturing server).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCESS_TOKEN, DEMO_APP_KEY } from '../../src/simulator/data.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

interface Export {
  path: string;
  contentType: string | undefined;
  body: string;
}

let collector: Server;
const exports: Export[] = [];
let service: ServiceProcess;

beforeAll(async () => {
  collector = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const { port } = collector.address() as AddressInfo;
  service = await startServiceProcess({
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_SERVICE_NAME: 'tradegraph-e2e',
  });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await new Promise<void>((resolve) => collector.close(() => resolve()));
});

describe('OTLP export', () => {
  it('exports the operation and partner call spans, without secrets, when the service stops', async () => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
      body: JSON.stringify({
        query: 'query ExportedTotal { inventory(platformId: "76561198000000005", appId: 730) { totalCount } }',
      }),
    });
    expect(await response.json()).toMatchObject({ data: { inventory: { totalCount: 5 } } });
    expect(service.logs.map((entry) => entry.msg)).toContain('OpenTelemetry tracing is on (OTLP/HTTP)');

    // SIGTERM flushes the batch of spans still buffered.
    expect(await service.stop()).toBe(0);
    const traces = exports.filter((each) => each.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    const sent = traces.map((each) => each.body).join('\n');
    expect(traces[0]!.contentType).toMatch(/^application\/json/);
    expect(sent).toContain('"query ExportedTotal"');
    expect(sent).toContain('"partner readInventory"');
    expect(sent).toContain('tradegraph-e2e');
    for (const secret of [DEMO_ACCESS_TOKEN, DEMO_APP_KEY, 'access_token']) expect(sent).not.toContain(secret);
  });
});
