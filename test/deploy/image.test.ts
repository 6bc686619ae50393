// The OCI image, built by `npm run image` and run for real with podman (or docker): it serves
// /health and a query through the partner simulator in production mode, as a non-root user on a
// read-only root filesystem with /tmp its one writable path, and on SIGTERM with a request in
// flight it answers that request and exits 0 within the grace period. Where the Containerfile's
// default base (the official Node 26 slim image) cannot be pulled, the base is a Debian bookworm
// minbase (debootstrap, from the mirror apt uses) with the pinned Node and npm where that image has
// them, built once per machine and kept by tag. Skipped only where no container engine runs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_TAG } from '../../deploy/image.js';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_APP_KEY, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { startSimulator, type PartnerSimulator } from '../../src/simulator/server.js';
import { SHUTDOWN_GRACE_MS } from '../../src/tunables.js';
import { productionCommand } from '../support/production-command.js';
import { baseImage, findContainerEngine } from './container.js';

const ROOT = join(import.meta.dirname, '../..');
const CONTAINERFILE = readFileSync(join(ROOT, 'Containerfile'), 'utf8');
const QUERY = JSON.stringify({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { totalCount } }` });
// A first run builds the base (debootstrap) and installs every package; later ones reuse the base by
// its tag and the engine's layer cache.
const BUILD_TIMEOUT_MS = 30 * 60_000;

describe('the Containerfile', () => {
  it("starts the pinned Node directly with start:prod's flags and entry", () => {
    const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(CONTAINERFILE)![1]!) as string[];
    const { nodeArgs, entry } = productionCommand(ROOT)!;
    expect(entrypoint).toEqual(['/app/node_modules/node/bin/node', ...nodeArgs, entry]);
  });

  it('takes the base image as a build argument, the official Node 26 slim image by default', () => {
    const major = /^(\d+)\./.exec(readFileSync(join(ROOT, '.nvmrc'), 'utf8'))![1];
    expect(CONTAINERFILE).toMatch(new RegExp(`^ARG BASE_IMAGE=docker\\.io/library/node:${major}-slim$`, 'm'));
  });
});

const engine = await findContainerEngine();
if (engine === null) {
  console.warn('test/deploy/image.test.ts: skipped: neither podman nor docker can run a container here (install podman and runc)');
}

describe.runIf(engine !== null)('the image, built by npm run image and run', () => {
  const podman = engine!;
  const name = `tradegraph-image-test-${process.pid}`;
  let simulator: PartnerSimulator;
  let url: string;
  let buildOutput = '';

  beforeAll(async () => {
    const defaultBase = /^ARG BASE_IMAGE=(\S+)$/m.exec(CONTAINERFILE)![1]!;
    const base = await baseImage(podman, defaultBase, join(ROOT, 'node_modules/node/bin/node'));
    const npmCache = (await runNpm(['config', 'get', 'cache'], {})).trim();
    // npm run image, as a developer runs it: the base, this machine's flags, and the host's npm
    // download cache (mounted for the build only) so that a first build does not fetch every package.
    buildOutput = await runNpm(
      ['run', 'image', '--', '--build-arg', `BASE_IMAGE=${base}`, ...podman.flags, '--volume', `${npmCache}:/host-npm-cache`, '--build-arg', 'npm_config_cache=/host-npm-cache'],
      { CONTAINER_ENGINE: podman.name },
    );
    simulator = await startSimulator();
    const port = await getPort({ host: '127.0.0.1' });
    url = `http://127.0.0.1:${port}`;
    await podman.exec([
      'run', '--detach', '--name', name, ...podman.flags,
      // A read-only root filesystem, with /tmp as its one writable path (an emptyDir in Kubernetes).
      '--read-only', '--read-only-tmpfs=false', '--tmpfs', '/tmp',
      '--env', `PORT=${port}`, '--env', 'HOST=127.0.0.1',
      '--env', `PARTNER_API_URL=${simulator.url}`, '--env', `PARTNER_APP_KEY=${DEMO_APP_KEY}`,
      IMAGE_TAG,
    ]);
    await serving(`${url}/health`, 30_000);
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await podman?.exec(['rm', '--force', name]).catch(() => undefined);
    await simulator?.close();
  });

  it('npm run image reports the image and its size', () => {
    expect(buildOutput).toMatch(new RegExp(`image: built ${IMAGE_TAG} with ${podman.name}; size \\d+ MB`));
    console.info(buildOutput.split('\n').find((line) => line.startsWith('image: built')));
  });

  it('runs the pinned Node as a non-root numeric user, with the production flags, on a read-only root', async () => {
    const status = (await podman.exec(['exec', name, 'cat', '/proc/1/status'])).stdout;
    expect(/^Uid:\s+(\d+)/m.exec(status)![1]).toBe('10001');
    const cmdline = (await podman.exec(['exec', name, 'cat', '/proc/1/cmdline'])).stdout.split('\0').filter(Boolean);
    const { nodeArgs, entry } = productionCommand(ROOT)!;
    expect(cmdline).toEqual(['/app/node_modules/node/bin/node', ...nodeArgs, entry]);
    expect((await podman.exec(['exec', name, '/app/node_modules/node/bin/node', '--version'])).stdout.trim()).toBe(`v${readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()}`);
    // Not even root can write to the root filesystem; /tmp is writable.
    await expect(podman.exec(['exec', '--user', '0', name, 'touch', '/app/written'])).rejects.toThrow(/Read-only file system/);
    await podman.exec(['exec', name, 'touch', '/tmp/written']);
    // Nothing but the pinned Node: no npm to start the service through.
    await expect(podman.exec(['exec', name, 'sh', '-c', 'command -v npm'])).rejects.toThrow();
    // The production dependencies only, and the built bundle without the sources.
    await podman.exec(['exec', name, 'test', '-f', '/app/node_modules/graphql-yoga/package.json']);
    for (const absent of ['/app/node_modules/vitest', '/app/node_modules/typescript', '/app/src']) {
      await expect(podman.exec(['exec', name, 'test', '-e', absent]), absent).rejects.toThrow();
    }
  });

  it('answers /health and a query through the partner simulator', async () => {
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
      body: QUERY,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: { inventory: { totalCount: 240 } } });
    expect(simulator.callsOf('readInventory').length).toBeGreaterThan(0);
  });

  it('on SIGTERM answers the request in flight, then exits 0 within the grace period', async () => {
    simulator.reset();
    simulator.injectFault({ kind: 'slow', delayMs: 2000, operation: 'readInventory', times: 1 });
    const inFlight = fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
      body: QUERY,
    });
    await expect.poll(() => simulator.callsOf('readInventory').length).toBe(1);
    const signalled = Date.now();
    await podman.exec(['kill', '--signal', 'TERM', name]);
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: { inventory: { totalCount: 240 } } });
    const { stdout: exitCode } = await podman.exec(['wait', name], SHUTDOWN_GRACE_MS + 20_000);
    expect(exitCode.trim()).toBe('0');
    // The drain's own bound, with the slow answer well inside it.
    expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_GRACE_MS + 5_000);
  });
});

/** Resolves once `url` answers 200; rejects after `timeoutMs`. */
async function serving(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await fetch(url).then((response) => response.status, () => 0)) !== 200) {
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await setTimeout(250);
  }
}

/** Runs npm in the checkout; resolves with its output, rejects with it when npm fails. */
async function runNpm(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn('npm', args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`npm ${args.join(' ')} failed (${code}):\n${output.slice(-20_000)}`);
  return output;
}
