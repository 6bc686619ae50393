// Graceful shutdown of the real entry point: the service runs as a child process (src/main.ts)
// against a slow simulator; SIGTERM arrives while a request is in flight. The request must
// complete, new connections must be refused, and the process must exit 0 on its own. The production
// bundle, started with start:prod's flags, drains on SIGHUP too and opens no inspector on SIGUSR1.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect as netConnect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InventoryWithDeferredFeesDocument } from '../generated/graphql.js';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_APP_KEY, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { startSimulator, type PartnerSimulator } from '../../src/simulator/server.js';
import { closedPort } from '../support/ports.js';
import { buildBundle, type Bundle } from '../support/bundle.js';
import { startServiceProcess } from '../support/service-process.js';
import { startTestkit } from '../support/testkit.js';

const LATENCY_MS = 1500;

let simulator: PartnerSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ latencyMs: LATENCY_MS });
});
afterAll(async () => {
  await simulator.close();
});

interface RunningService {
  child: ChildProcess;
  url: string;
  lines: string[];
  exited: Promise<number | null>;
}

/** Starts `src/main.ts` in its own Node process (tsx as a loader, so SIGTERM reaches it directly). */
async function startService(): Promise<RunningService> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      PARTNER_API_URL: simulator.url,
      PARTNER_APP_KEY: DEMO_APP_KEY,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const complete = pending.split('\n');
    pending = complete.pop()!;
    lines.push(...complete.filter(Boolean));
  });
  child.stderr!.on('data', (chunk: Buffer) => lines.push(`stderr: ${chunk.toString('utf8')}`));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const url = await vi.waitFor(
    () => {
      const serving = lines.map(parseLine).find((line) => line?.msg === 'tradegraph is serving');
      if (!serving) throw new Error(`not serving yet:\n${lines.join('\n')}`);
      return serving.url as string;
    },
    { timeout: 20_000, interval: 50 },
  );
  return { child, url, lines, exited };
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}

describe('graceful shutdown', () => {
  it('finishes the request in flight on SIGTERM, refuses new ones, and exits 0', async () => {
    const service = await startService();
    try {
      const inFlight = fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
        body: JSON.stringify({ query: '{ inventory(platformId: "76561198000000240", appId: 730) { totalCount } }' }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }));

      // SIGTERM once the partner call is under way (the simulator answers after LATENCY_MS).
      await vi.waitFor(() => expect(simulator.callsOf('readInventory')).toHaveLength(1), { timeout: 15_000, interval: 10 });
      service.child.kill('SIGTERM');
      await vi.waitFor(() => expect(service.lines.join('\n')).toContain('shutting down'), { timeout: 15_000, interval: 10 });

      // The listener is closed: a new connection is refused while the old request still runs.
      await expect(fetch(`${service.url}/health`)).rejects.toThrow();

      expect(await inFlight).toMatchObject({ status: 200, body: { data: { inventory: { totalCount: 240 } } } });
      expect(await service.exited).toBe(0);
      expect(service.lines.map(parseLine).map((line) => line?.msg)).toContain('stopped');
      // The child's log is outside the run's secret scan (test/support/secret-scan.ts): check it here.
      expect(service.lines.join('\n')).not.toContain(DEMO_ACCESS_TOKEN);
      expect(service.lines.join('\n')).not.toContain(DEMO_APP_KEY);
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
    }
  });
});

/** A raw HTTP/1.1 connection to the service: what it sends, and every byte it receives. */
async function connect(url: string) {
  const { hostname, port } = new URL(url);
  const socket = netConnect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => received, ended };
}

/** Sends a GraphQL request for the demo inventory's totalCount on a raw connection. */
function sendTotalCountQuery(socket: Socket): void {
  const body = JSON.stringify({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: 730) { totalCount } }` });
  socket.write(
    `POST /graphql HTTP/1.1\r\nHost: tradegraph\r\ncontent-type: application/json\r\n` +
      `authorization: Bearer ${DEMO_ACCESS_TOKEN}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

describe('shutting down, in process', () => {
  it('answers /health 503 on a connection that was open when shutdown began', async () => {
    const kit = await startTestkit();
    const connection = await connect(kit.url);
    // Half a request: the connection is busy, so shutdown does not close it as idle. A whole
    // request on another connection, answered, shows the server has read the half one too.
    connection.socket.write('GET /health HTTP/1.1\r\nHost: tradegraph\r\n');
    expect((await fetch(`${kit.url}/health`)).status).toBe(200);
    const closing = kit.close();
    connection.socket.write('\r\n');
    await connection.ended;
    await closing;
    const [head, body] = connection.received().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head!.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(body!)).toEqual({ status: 'shutting down' });
  });

  it('answers a request that was in flight when shutdown began with connection: close', async () => {
    const kit = await startTestkit();
    kit.simulator.injectFault({ operation: 'readInventory', kind: 'slow', delayMs: 300 });
    const connection = await connect(kit.url);
    sendTotalCountQuery(connection.socket);
    await vi.waitFor(() => expect(kit.simulator.callsOf('readInventory')).toHaveLength(1), { timeout: 10_000, interval: 10 });

    const closing = kit.service.close();
    // The keep-alive connection ends once its answer is written: the client was told not to reuse it.
    await connection.ended;
    await closing;
    const [head, answer] = connection.received().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head!.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(answer!)).toMatchObject({ data: { inventory: { totalCount: 240 } } });
    await kit.close();
  });

  it('closes the connection of a streamed answer whose head went out before shutdown, once it is done', async () => {
    const kit = await startTestkit();
    // Node would end the idle connection at its keep-alive timeout anyway: make that too long to wait for.
    kit.service.server.keepAliveTimeout = 120_000;
    const release = kit.simulator.holdListingFees();
    try {
      const connection = await connect(kit.url);
      const body = JSON.stringify({
        query: print(InventoryWithDeferredFeesDocument),
        variables: { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID, first: 2, price: 10_000 },
      });
      connection.socket.write(
        `POST /graphql HTTP/1.1\r\nHost: tradegraph\r\ncontent-type: application/json\r\naccept: multipart/mixed\r\n` +
          `authorization: Bearer ${DEMO_ACCESS_TOKEN}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      // The head and the page are out; the fees are held upstream.
      await vi.waitFor(() => expect(kit.simulator.callsOf('calculateListingFee')).toHaveLength(1), { timeout: 10_000, interval: 10 });
      await vi.waitFor(() => expect(connection.received()).toContain('"inventory"'), { timeout: 10_000, interval: 10 });

      const closing = kit.service.close();
      release();
      await connection.ended;
      await closing;
      const received = connection.received();
      const head = received.slice(0, received.indexOf('\r\n\r\n'));
      const answer = received.slice(head.length);
      // The head went out before shutdown, so the client was never told to close: the service did.
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head.toLowerCase()).not.toContain('connection: close');
      // The whole answer first: the deferred fees, then the end of the chunked body.
      expect(answer).toContain('"listingFee"');
      expect(answer.endsWith('0\r\n\r\n')).toBe(true);
    } finally {
      release();
      await kit.close();
    }
  });

  it('cuts the connection of a request still in flight after the grace period', async () => {
    const kit = await startTestkit({ config: { upstreamTimeoutMs: 60_000 } });
    kit.simulator.injectFault({ operation: 'readInventory', kind: 'slow', delayMs: 30_000 });
    const connection = await connect(kit.url);
    sendTotalCountQuery(connection.socket);
    await vi.waitFor(() => expect(kit.simulator.callsOf('readInventory')).toHaveLength(1), { timeout: 10_000, interval: 10 });

    await kit.service.close(100);
    await connection.ended;
    // No answer at all: the connection was cut, not answered with an error after the partner's delay.
    expect(connection.received()).toBe('');
    expect(kit.logs.some((line) => line.includes('requests still in flight after the grace period'))).toBe(true);
    await kit.close();
  });
});

describe('signals the production process gets (npm run start:prod, the built bundle)', () => {
  let bundle: Bundle | undefined;
  beforeAll(() => {
    bundle = buildBundle('shutdown');
  });
  afterAll(() => bundle?.remove());
  const environment = () => ({ PARTNER_API_URL: simulator.url, PARTNER_APP_KEY: DEMO_APP_KEY, NODE_ENV: 'production' });
  const readTotal = async (url: string) => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
      body: JSON.stringify({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { totalCount } }` }),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  // The data, and the cost every answer carries beside it.
  const served = { status: 200, body: { data: { inventory: { totalCount: 240 } }, extensions: { cost: expect.any(Object) } } };

  it('SIGUSR1 opens no inspector, and the service goes on serving', async () => {
    // The port Node's inspector would open on (9229 unless told): one known to be free.
    const inspectorPort = await closedPort();
    const service = await startServiceProcess({ ...environment(), NODE_OPTIONS: `--inspect-port=127.0.0.1:${inspectorPort}` }, bundle!.entry);
    try {
      service.kill('SIGUSR1');
      expect(await readTotal(service.url)).toEqual(served);
      // Node opens the inspector, and says so on stderr, as the signal arrives: a few polls after
      // a request served since, it has had every chance to.
      for (let poll = 0; poll < 10; poll++) {
        expect(await listening(inspectorPort)).toBe(false);
        await delay(100);
      }
      expect(service.stderr()).not.toMatch(/Debugger listening/);
      expect(await readTotal(service.url)).toEqual(served);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it('SIGHUP drains as SIGTERM does: the request in flight is answered, and the process exits 0', async () => {
    const service = await startServiceProcess(environment(), bundle!.entry);
    try {
      const callsBefore = simulator.callsOf('readInventory').length;
      const inFlight = readTotal(service.url);
      // SIGHUP once the partner call is under way (the simulator answers after LATENCY_MS).
      await vi.waitFor(() => expect(simulator.callsOf('readInventory')).toHaveLength(callsBefore + 1), { timeout: 15_000, interval: 10 });
      service.kill('SIGHUP');
      expect(await inFlight).toEqual(served);
      expect(await service.exited).toBe(0);
      expect(service.logs.find((line) => line.msg === 'shutting down: finishing requests in flight')).toMatchObject({ signal: 'SIGHUP' });
    } finally {
      await service.stop();
    }
  });
});

/** Whether something accepts connections on `port` of 127.0.0.1. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
