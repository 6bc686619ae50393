// The entry point as a newcomer meets it: `npm start` with nothing configured serves demo data
// from the embedded simulator, and so does the production bundle; a bad setting stops it with a
// message and exit code 1; a signal to npm's pid stops it and frees the port.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCESS_TOKEN, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { killAll, portIsFree, startNpmScript, stillRunning, type ProcessId } from '../support/npm-script.js';
import { closedPort } from '../support/ports.js';
import { startServiceProcess } from '../support/service-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Longer than the service's 10 s shutdown grace period. */
const STOP_BOUND_MS = 20_000;

describe.each([
  ['npm start (src/main.ts through tsx)', 'src/main.ts', 'start'],
  ['npm run start:prod (the bundle npm run build makes)', 'dist/main.js', 'start:prod'],
] as const)('%s', (_name, entry, script) => {
  beforeAll(() => {
    if (entry === 'dist/main.js') execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
  });

  it('serves the demo inventory from the embedded simulator, then stops cleanly on SIGTERM', async () => {
    const service = await startServiceProcess({}, entry);
    expect(service.logs.map((line) => line.msg)).toContain(
      'PARTNER_API_URL is not set: serving from the embedded partner simulator (demo data)',
    );

    const health = await fetch(`${service.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
      body: JSON.stringify({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: 730) { totalCount } }` }),
    });
    expect(await response.json()).toMatchObject({ data: { inventory: { totalCount: 240 } } });

    const page = await fetch(`${service.url}/graphql`, { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(html).toContain('query InventoryFirstPage');
    expect(html).toContain(`Bearer ${DEMO_ACCESS_TOKEN}`);

    expect(await service.stop()).toBe(0);
    expect(service.logs.map((line) => line.msg)).toContain('stopped');
  });

  // A supervisor (systemd, a container runtime, `kill`) signals the pid it started: npm's. npm
  // forwards SIGTERM and SIGINT to the script's process only, so the script must be that process.
  it.each([
    ["SIGTERM to npm's own pid", 'SIGTERM', 'npm'],
    ["SIGINT to npm's own pid", 'SIGINT', 'npm'],
    ['Ctrl-C (SIGINT to the whole process group)', 'SIGINT', 'group'],
  ] as const)('stops on %s: the port is free and no process outlives npm', async (_case, signal, target) => {
    const port = await closedPort();
    const run = startNpmScript(script, { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    let tree: ProcessId[] = [];
    try {
      await run.waitForLine((line) => line.includes('"msg":"tradegraph is serving'));
      tree = run.descendants();
      expect(tree.map((process) => process.command)).toEqual(expect.arrayContaining([expect.stringContaining(entry)]));

      process.kill(target === 'npm' ? run.pid : -run.pid, signal);
      // Bounded, so that a signal that never arrives fails here, and the tree is cleaned up below.
      const exit = await Promise.race([run.exited, delay(STOP_BOUND_MS).then(() => 'npm still running')]);
      // The tree's output, so that a failure shows how far the shutdown got.
      expect(run.logs.map((line) => line.msg), run.lines.join('\n')).toEqual(expect.arrayContaining([expect.stringMatching(/^shutting down/), 'stopped']));
      // Ctrl-C reaches the service twice: from the terminal, and again as npm forwards it. When the
      // drain ends before npm's copy arrives, that copy can land as Node tears its signal handlers
      // down on exit, and the default action ends the service by SIGINT, which npm then re-raises:
      // the shell's usual status for Ctrl-C. The drain has run to its end either way ('stopped').
      const stopped = target === 'group' ? [{ code: 0, signal: null }, { code: null, signal: 'SIGINT' }] : [{ code: 0, signal: null }];
      expect(stopped, run.lines.join('\n')).toContainEqual(exit);
      expect(stillRunning(tree)).toEqual([]);
      expect(await portIsFree(port)).toBe(true);
    } finally {
      run.killGroup();
      killAll(tree);
    }
  }, 30_000 + STOP_BOUND_MS);

  it('drains and exits 0 on a SIGTERM that comes while it is still starting', async () => {
    const port = await closedPort();
    const run = startNpmScript(script, { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    try {
      // Logged as the embedded simulator is up: the service's modules are still loading, and it does not listen yet.
      await run.waitForLine((line) => line.includes('serving from the embedded partner simulator'));
      process.kill(run.pid, 'SIGTERM');
      const exit = await Promise.race([run.exited, delay(STOP_BOUND_MS).then(() => 'npm still running')]);
      expect(exit, run.lines.join('\n')).toEqual({ code: 0, signal: null });
      expect(run.logs.map((line) => line.msg)).toEqual(expect.arrayContaining([expect.stringMatching(/^shutting down/), 'stopped']));
      expect(await portIsFree(port)).toBe(true);
    } finally {
      run.killGroup();
    }
  }, 30_000 + STOP_BOUND_MS);

  it('turns the response cache on with RESPONSE_CACHE_TTL_MS', async () => {
    const service = await startServiceProcess({ RESPONSE_CACHE_TTL_MS: '30000' }, entry);
    try {
      const read = async () => {
        const response = await fetch(`${service.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
          body: JSON.stringify({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: 730) { totalCount } }` }),
        });
        return (await response.json()) as { data: unknown; extensions?: { responseCache?: { hit: boolean } } };
      };
      expect((await read()).extensions?.responseCache?.hit).toBe(false);
      const again = await read();
      expect(again).toMatchObject({ data: { inventory: { totalCount: 240 } }, extensions: { responseCache: { hit: true } } });
    } finally {
      await service.stop();
    }
  });
});

it('builds a bundle that loads the simulator only on demand: no static import reaches its code', () => {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
  const reached = staticallyImported(join(ROOT, 'dist'), 'main.js');
  expect(reached).toContain('main.js');
  // esbuild marks each source module in its output with a `// src/...` comment.
  const simulatorModules = reached.flatMap((file) =>
    [...readFileSync(join(ROOT, 'dist', file), 'utf8').matchAll(/^\/\/ (src\/simulator\/\S+)$/gm)].map((m) => `${file}: ${m[1]}`),
  );
  expect(simulatorModules).toEqual([]);
});

/** The bundle files `entry` loads at start: itself and its static `from "./x.js"` imports, transitively. */
function staticallyImported(dir: string, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(dir, file), 'utf8');
    // Static imports only: `import { a } from "./x.js";`, the closing `} from "./x.js";` of a
    // multi-line one, and `import "./x.js";`. Dynamic `import("./x.js")` is what loads on demand.
    for (const [, from, bare] of code.matchAll(/^(?:import|\}) [^;]*from "\.\/([^"]+)";$|^import "\.\/([^"]+)";$/gm)) {
      visit((from ?? bare)!);
    }
  };
  visit(entry);
  return [...seen];
}

it('refuses a bad setting with a message naming it, and exit code 1', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, UPSTREAM_TIMEOUT_MS: 'soon' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(1);
  expect(stderr).toMatch(/Invalid configuration:\s+UPSTREAM_TIMEOUT_MS: must be a whole number from 1 to 120000/);
});

it('refuses a number that is not in decimal digits and a Redis database that is not a number, never printing the password', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, RESPONSE_CACHE_TTL_MS: '0x10', MAX_BODY_BYTES: '1e6', REDIS_URL: 'redis://:hunter2-secret@127.0.0.1:6379/abc' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(1);
  expect(output).toMatch(/RESPONSE_CACHE_TTL_MS: must be a whole number from 0 to 86400000, in decimal digits/);
  expect(output).toMatch(/MAX_BODY_BYTES: must be a whole number/);
  expect(output).toMatch(/REDIS_URL: must name its database as a whole number/);
  expect(output).not.toContain('hunter2');
});

it('exits 1 with one line naming PORT when the port is taken, without a stack trace', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stderr).toBe(`tradegraph: port ${port} on 127.0.0.1 is taken by another process: set PORT (and HOST) to a free one.\n`);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});
