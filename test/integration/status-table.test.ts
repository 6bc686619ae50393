// The whole HTTP status table of docs/statuses-and-error-codes.md, under each Accept it names, against
// the service as `npm start` runs it (development) and as `npm run start:prod` runs the production
// build with NODE_ENV=production: a row that holds in one mode only fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP_KEY } from '../../src/simulator/data.js';
import { startSimulator, type PartnerSimulator } from '../../src/simulator/server.js';
import { buildBundle, type Bundle } from '../support/bundle.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { ACCEPT_COLUMNS, STATUS_ROWS, TABLE_ENV, statusOf, type AcceptColumn } from '../support/status-table.js';

const COLUMNS = Object.keys(ACCEPT_COLUMNS) as AcceptColumn[];


describe.each([
  ['development (npm start)', 'src/main.ts', {}],
  ['production (npm run start:prod, NODE_ENV=production)', 'the bundle', { NODE_ENV: 'production' }],
] as const)('the status table, %s', (_mode, entry, modeEnv) => {
  let simulator: PartnerSimulator;
  let service: ServiceProcess;
  let bundle: Bundle | undefined;

  beforeAll(async () => {
    if (entry === 'the bundle') bundle = buildBundle('status-table');
    simulator = await startSimulator();
    service = await startServiceProcess(
      {
        ...modeEnv,
        ...TABLE_ENV,
        PARTNER_API_URL: simulator.url,
        PARTNER_OPEN_API_URL: simulator.url,
        PARTNER_APP_KEY: DEMO_APP_KEY,
        MAX_OPERATIONS_IN_FLIGHT: '1',
        // The in-flight row holds one call at the simulator for as long as the test needs.
        UPSTREAM_TIMEOUT_MS: '60000',
        OPERATION_TIMEOUT_MS: '60000',
      },
      bundle?.entry ?? 'src/main.ts',
    );
  }, 120_000);
  afterAll(async () => {
    expect(await service?.stop()).toBe(0);
    await simulator?.close();
    bundle?.remove();
  });

  const cases = STATUS_ROWS.flatMap((row) => (row.fixedAccept ? [[row.name, row, 'json' as AcceptColumn] as const] : COLUMNS.map((column) => [`${row.name}, Accept ${ACCEPT_COLUMNS[column]}`, row, column] as const)));

  it.each(cases)('%s', async (_name, row, column) => {
    const { path, init } = row.request(ACCEPT_COLUMNS[column]);
    const response = await fetch(`${service.url}${path}`, init);
    const text = await response.text();
    expect(response.status, text).toBe(statusOf(row, column));
    expect(response.headers.get('content-type')).toMatch(/^application\/(graphql-response\+)?json; charset=utf-8$/);
    const body = JSON.parse(text) as { data?: unknown; errors: Array<{ message: string; extensions?: { code?: string } }> };
    expect(body.data ?? null).toBeNull();
    expect(body.errors.map((error) => error.extensions?.code), text).toContain(row.code);
    if (row.allow) expect(response.headers.get('allow')).toBe(row.allow);
    expect(simulator.calls).toEqual([]);
  });

  it.each(COLUMNS)('answers 503 OVERLOADED past MAX_OPERATIONS_IN_FLIGHT, Accept column %s', async (column) => {
    const release = simulator.holdListingFees();
    const held = fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { calculateListingFee(input: { items: [{ price: 500 }] }) { fees { fee } } }' }),
    });
    try {
      await expect.poll(() => simulator.callsOf('calculateListingFee').length).toBe(1);
      const response = await fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT_COLUMNS[column] },
        body: '{"query":"{ __typename }"}',
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
      const body = (await response.json()) as { errors: Array<{ extensions: { code: string } }> };
      expect(body.errors[0]!.extensions.code).toBe('OVERLOADED');
    } finally {
      release();
      expect((await held).status).toBe(200);
      simulator.reset();
    }
  });
});
