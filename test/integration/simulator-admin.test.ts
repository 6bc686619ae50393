// The embedded partner simulator of the documented demo (production build, NODE_ENV=production,
// PARTNER_SIMULATOR=embedded) over real HTTP: its admin routes answer nothing unless
// SIMULATOR_ADMIN_ROUTES=true asks for them; every route reads at most SIMULATOR_MAX_BODY_BYTES of a
// body, answering 413 to one declared or streamed larger while most of it is still unsent; and its
// call log, where it is served, holds no caller's token and no app-key, only their fingerprints.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP_ID, DEMO_APP_KEY, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { SIMULATOR_MAX_BODY_BYTES } from '../../src/simulator/server.js';
import { buildBundle, type Bundle } from '../support/bundle.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

let bundle: Bundle | undefined;
const TOKEN = 'simulator-admin-probe-token';
const INVENTORY_PATH = `/api/user/v2/${DEMO_PLATFORM_ID}/${DEMO_APP_ID}`;
const CALCULATE_PATH = '/merchant/sale/v1/calculate';

beforeAll(() => {
  bundle = buildBundle('simulator-admin');
});
afterAll(() => bundle?.remove());

/** The demo in production mode, and the embedded simulator's address from its start line. */
async function startDemo(env: Record<string, string> = {}): Promise<{ service: ServiceProcess; simulatorUrl: string }> {
  const service = await startServiceProcess({ NODE_ENV: 'production', PARTNER_SIMULATOR: 'embedded', ...env }, bundle!.entry);
  const line = service.logs.find((entry) => typeof entry.simulatorUrl === 'string');
  return { service, simulatorUrl: line!.simulatorUrl as string };
}

const graphql = (service: ServiceProcess, query: string) =>
  fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ query }),
  }).then((response) => response.json() as Promise<Record<string, unknown>>);

const readTotal = (service: ServiceProcess) => graphql(service, `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { totalCount } }`);
const readFee = (service: ServiceProcess) => graphql(service, 'mutation { calculateListingFee(input: { items: [{ price: 150 }] }) { fees { fee } } }');

/**
 * Sends a body of `totalBytes` in 64 KiB parts, declared (Content-Length) or chunked, until the
 * answer arrives: its status, and how much of the body had been sent by then.
 */
function sendLargeBody(url: string, totalBytes: number, declared: boolean): Promise<{ status: number; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(declared ? { 'content-length': String(totalBytes) } : {}) },
    });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode!, sentBytes });
      req.destroy();
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const part = Buffer.alloc(64 * 1024, 'x');
    const more = () => {
      while (!answered && sentBytes < totalBytes) {
        sentBytes += part.length;
        if (!req.write(part)) return void req.once('drain', more);
      }
      if (!answered) req.end();
    };
    more();
  });
}

const HUGE = 300 * 1024 * 1024;

describe('the embedded simulator of the production demo, admin routes not asked for', () => {
  let demo: { service: ServiceProcess; simulatorUrl: string };
  beforeAll(async () => {
    demo = await startDemo();
  });
  afterAll(async () => {
    await demo?.service.stop();
  });

  it('answers its admin routes 404: no call log, no faults injected', async () => {
    expect(await readTotal(demo.service)).toMatchObject({ data: { inventory: { totalCount: 240 } } });
    const calls = await fetch(`${demo.simulatorUrl}/__simulator/calls`);
    expect(calls.status).toBe(404);
    expect(await calls.text()).not.toContain(TOKEN);
    const configure = await fetch(`${demo.simulatorUrl}/__simulator/configure`, {
      method: 'POST',
      body: JSON.stringify({ faults: [{ kind: 'http-500' }], appKey: 'taken-over' }),
    });
    expect(configure.status).toBe(404);
    expect((await fetch(`${demo.simulatorUrl}/__simulator/reset`, { method: 'POST' })).status).toBe(404);
    // Nothing changed: reads and fees are answered as before.
    expect(await readTotal(demo.service)).toMatchObject({ data: { inventory: { totalCount: 240 } } });
    expect(await readFee(demo.service)).toMatchObject({ data: { calculateListingFee: { fees: [{ fee: expect.any(Number) }] } } });
  });

  it.each([
    ['the fee operation', CALCULATE_PATH],
    ['the inventory path', INVENTORY_PATH],
    ['an admin route', '/__simulator/configure'],
    ['an unknown path', '/anything'],
  ])('answers a 300 MB body to %s 413, declared or streamed, with most of it unsent', async (_route, path) => {
    for (const declared of [true, false]) {
      const { status, sentBytes } = await sendLargeBody(`${demo.simulatorUrl}${path}`, HUGE, declared);
      expect(status).toBe(413);
      // Answered long before the body's end: a reader of the whole body answers only after all of
      // it. Not a tighter share: the 413 leaves at once, but a loaded machine may let the client
      // write tens of megabytes over loopback (the rest is drained) before it reads the answer.
      expect(sentBytes).toBeLessThan(HUGE / 2);
    }
    // And the simulator still answers.
    expect(await readTotal(demo.service)).toMatchObject({ data: { inventory: { totalCount: 240 } } });
  });

  it('reads a body up to its cap', async () => {
    const response = await fetch(`${demo.simulatorUrl}${CALCULATE_PATH}`, {
      method: 'POST',
      headers: { 'app-key': DEMO_APP_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ dataList: [{ price: 150, pad: 'x'.repeat(SIMULATOR_MAX_BODY_BYTES - 100) }] }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true });
  });
});

describe('the embedded simulator with SIMULATOR_ADMIN_ROUTES=true', () => {
  let demo: { service: ServiceProcess; simulatorUrl: string };
  beforeAll(async () => {
    demo = await startDemo({ SIMULATOR_ADMIN_ROUTES: 'true' });
  });
  afterAll(async () => {
    await demo?.service.stop();
  });

  it('serves its call log with fingerprints in place of the token and the app-key, and says the routes are open', async () => {
    expect(await readTotal(demo.service)).toMatchObject({ data: { inventory: { totalCount: 240 } } });
    expect(await readFee(demo.service)).toMatchObject({ data: { calculateListingFee: { fees: [{ fee: expect.any(Number) }] } } });
    const response = await fetch(`${demo.simulatorUrl}/__simulator/calls`);
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const secret of [TOKEN, encodeURIComponent(TOKEN), DEMO_APP_KEY]) expect(text).not.toContain(secret);
    const { calls } = JSON.parse(text) as { calls: Array<{ operation: string; query: Record<string, string>; appKeyHeader: string | null }> };
    const read = calls.find((call) => call.operation === 'readInventory')!;
    const fee = calls.find((call) => call.operation === 'calculateListingFee')!;
    expect(read.query.access_token).toMatch(/^hmac-sha256:[0-9a-f]{32}$/);
    expect(fee.appKeyHeader).toMatch(/^hmac-sha256:[0-9a-f]{32}$/);
    expect(demo.service.logs.find((line) => String(line.msg).startsWith('SIMULATOR_ADMIN_ROUTES=true'))).toMatchObject({ level: 40 });
  });

  it('answers a 300 MB body to an admin route 413', async () => {
    const { status, sentBytes } = await sendLargeBody(`${demo.simulatorUrl}/__simulator/configure`, HUGE, false);
    expect(status).toBe(413);
    expect(sentBytes).toBeLessThan(HUGE / 10);
  });
});
