// Settings that a library would refuse only after start (the resolver, node:http, undici on every
// fee call) stop the real entry point at once: exit code 1 and one line on stderr naming the
// variable, with no stack trace and never the app-key's value.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, type Bundle } from '../support/bundle.js';
import { productionCommand } from '../support/production-command.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const APP_KEY_SECRET = 'app-key-s3cret';
/** Far longer than a refusal takes on a loaded machine; within the test's own timeout. */
const START_BOUND_MS = 20_000;

type Entry = 'src/main.ts' | 'the bundle';

async function start(entry: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const argv = entry.endsWith('.js') ? [...productionCommand(ROOT)!.nodeArgs, entry] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A service that starts after all is killed, not left serving past the test (exit code null).
    timeout: START_BOUND_MS,
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr, stdout };
}

describe.each(['src/main.ts', 'the bundle'] as const)('%s', (entry: Entry) => {
  let bundle: Bundle | undefined;
  beforeAll(() => {
    if (entry === 'the bundle') bundle = buildBundle('start-refusals');
  }, 120_000);
  afterAll(() => bundle?.remove());

  it.each([
    ['HOST', { HOST: 'nowhere.invalid' }],
    ['HTTP_HEADERS_TIMEOUT_MS', { HOST: '127.0.0.1', HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' }],
    ['PARTNER_APP_KEY', { HOST: '127.0.0.1', PARTNER_API_URL: 'http://127.0.0.1:9', PARTNER_APP_KEY: `${APP_KEY_SECRET}\r\nx-injected: 1` }],
    ['PARTNER_APP_KEY', { HOST: '127.0.0.1', PARTNER_API_URL: 'http://127.0.0.1:9', PARTNER_APP_KEY: `${APP_KEY_SECRET}€` }],
    ['PARTNER_API_URL', { HOST: '127.0.0.1', PARTNER_API_URL: 'http://127.0.0.1:9/api?token=1' }],
    ['PARTNER_OPEN_API_URL', { HOST: '127.0.0.1', PARTNER_API_URL: 'http://127.0.0.1:9', PARTNER_OPEN_API_URL: 'http://127.0.0.1:9/#open' }],
  ])('refuses a bad %s with exit code 1 and one line naming it', async (variable, env) => {
    const { code, stderr, stdout } = await start(bundle?.entry ?? entry, env);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^tradegraph: Invalid configuration: ${variable}: [^\\n]+\\n$`));
    expect(stderr).not.toMatch(/\bat .*\.(ts|js):\d+/);
    expect(stderr + stdout).not.toContain(APP_KEY_SECRET);
  });
});
