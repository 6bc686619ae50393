// The entry point as a newcomer meets it: `npm start` with nothing configured serves demo data
// from the embedded simulator; a bad setting stops it with a message and exit code 1.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ACCESS_TOKEN, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];

function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('src/main.ts', () => {
  it('serves the demo inventory from the embedded simulator, then stops cleanly on SIGTERM', async () => {
    const main = startMain({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    const url = await waitFor(() => /"url":"(http:\/\/[^"]+)"/.exec(main.output())?.[1], 'the service to listen');
    expect(main.output()).toContain('embedded partner simulator');

    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
      body: JSON.stringify({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: 730) { totalCount } }` }),
    });
    expect(await response.json()).toEqual({ data: { inventory: { totalCount: 240 } } });

    const page = await fetch(`${url}/graphql`, { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(html).toContain('query InventoryPage');
    expect(html).toContain(`Bearer ${DEMO_ACCESS_TOKEN}`);

    main.child.kill('SIGTERM');
    const [code] = (await once(main.child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(main.output()).toContain('"msg":"stopped"');
  });

  it('refuses a bad setting with a message naming it, and exit code 1', async () => {
    const main = startMain({ UPSTREAM_TIMEOUT_MS: 'soon' });
    const [code] = (await once(main.child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(main.output()).toMatch(/Invalid configuration:\s+UPSTREAM_TIMEOUT_MS: must be a whole number from 1 to 120000/);
  });
});
