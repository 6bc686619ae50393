// The simulator's faults as Envoy's fault filter takes them, asked for by a request's own headers
// (the facade forwards none of its clients' headers, so these are driven straight at the simulator).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCESS_TOKEN, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { startSimulator, type PartnerSimulator } from '../../src/simulator/server.js';
import { startNpmScript, type NpmScript } from '../support/npm-script.js';
import { closedPort } from '../support/ports.js';

let simulator: PartnerSimulator;
beforeAll(async () => {
  simulator = await startSimulator();
});
afterAll(() => simulator.close());

const inventoryPath = `/api/user/v2/${DEMO_PLATFORM_ID}/730?access_token=${DEMO_ACCESS_TOKEN}&count=5`;

/** One raw GET: status, headers, the body's parts as they arrived, and how the body ended. */
function get(headers: Record<string, string>) {
  return new Promise<{ status: number; contentType: string; parts: Buffer[]; ended: 'complete' | 'cut' }>((resolve, reject) => {
    const req = request(`${simulator.url}${inventoryPath}`, { headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, contentType: String(res.headers['content-type']), parts, ended: 'complete' }));
      res.on('aborted', () => resolve({ status: res.statusCode!, contentType: String(res.headers['content-type']), parts, ended: 'cut' }));
      res.on('error', () => resolve({ status: res.statusCode!, contentType: String(res.headers['content-type']), parts, ended: 'cut' }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('header-driven faults', () => {
  it('answers the normal page without fault headers', async () => {
    const answer = await get({});
    expect(answer.status).toBe(200);
    expect((JSON.parse(Buffer.concat(answer.parts).toString('utf8')) as { data: { list: unknown[] } }).data.list).toHaveLength(5);
  });

  it('x-fault-abort: <status> answers that status', async () => {
    expect((await get({ 'x-fault-abort': '503' })).status).toBe(503);
    expect((await get({ 'x-fault-abort': '418' })).status).toBe(418);
  });

  it('x-fault-abort: reset resets the connection', async () => {
    await expect(get({ 'x-fault-abort': 'reset' })).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('x-fault-abort-percent aborts that share of requests, from a seeded sequence', async () => {
    const statuses = [];
    for (let n = 0; n < 40; n++) statuses.push((await get({ 'x-fault-abort': '502', 'x-fault-abort-percent': '50' })).status);
    const aborted = statuses.filter((status) => status === 502).length;
    expect(aborted).toBeGreaterThan(5);
    expect(aborted).toBeLessThan(35);
    expect(statuses.filter((status) => status !== 502).every((status) => status === 200)).toBe(true);
  });

  it('x-fault-delay-ms holds the answer at least that long', async () => {
    const started = performance.now();
    expect((await get({ 'x-fault-delay-ms': '400' })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('x-fault-body: truncated declares the whole length and cuts the body halfway', async () => {
    const answer = await get({ 'x-fault-body': 'truncated' });
    expect(answer.status).toBe(200);
    expect(answer.ended).toBe('cut');
    expect(() => JSON.parse(Buffer.concat(answer.parts).toString('utf8'))).toThrow();
  });

  it('x-fault-body: slow sends the whole body in parts over time', async () => {
    const answer = await get({ 'x-fault-body': 'slow', 'x-fault-delay-ms': '300' });
    expect(answer.ended).toBe('complete');
    expect(answer.parts.length).toBeGreaterThan(1);
    expect(JSON.parse(Buffer.concat(answer.parts).toString('utf8'))).toHaveProperty('success', true);
  });

  it('x-fault-body: wrong-content-type sends the envelope as text/html', async () => {
    const answer = await get({ 'x-fault-body': 'wrong-content-type' });
    expect(answer.contentType).toMatch(/^text\/html/);
    expect(JSON.parse(Buffer.concat(answer.parts).toString('utf8'))).toHaveProperty('success', true);
  });
});

describe('faults by percentage from the environment of npm run simulator', () => {
  const started: NpmScript[] = [];
  afterAll(async () => {
    for (const script of started) {
      process.kill(script.pid, 'SIGTERM');
      await script.exited;
    }
  });

  async function simulatorWith(env: Record<string, string>): Promise<string> {
    const port = await closedPort();
    const script = startNpmScript('simulator', { SIMULATOR_PORT: String(port), ...env });
    started.push(script);
    await script.waitForLine((line) => line.startsWith('partner simulator listening on'));
    return `http://127.0.0.1:${port}`;
  }

  it('aborts SIMULATOR_FAULT_ABORT_PERCENT of calls with SIMULATOR_FAULT_ABORT_STATUS, and takes SIMULATOR_FAULTS as JSON', async () => {
    const aborting = await simulatorWith({ SIMULATOR_FAULT_ABORT_PERCENT: '100', SIMULATOR_FAULT_ABORT_STATUS: '502' });
    expect((await fetch(`${aborting}${inventoryPath}`)).status).toBe(502);

    const listed = await simulatorWith({ SIMULATOR_FAULTS: JSON.stringify([{ kind: 'wrong-content-type' }]) });
    const response = await fetch(`${listed}${inventoryPath}`);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.json()).toHaveProperty('success', true);
  });
});
