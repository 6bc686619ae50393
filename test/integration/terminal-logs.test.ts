// `npm start` on a terminal: the service's log lines are pino-pretty's readable ones, so the
// GraphiQL address stands out, not buried in a JSON line. The terminal is a real pseudo-terminal
// (util-linux's `script`); without one (test/support/service-process.ts pipes stdout) the lines
// stay JSON, which every test that reads them relies on.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// eslint-disable-next-line no-control-regex
const COLOURS = /\x1b\[[0-9;]*m/g;

/** Runs the service under a pseudo-terminal until its output matches `until`; answers the output, colours removed. */
async function terminalOutput(env: Record<string, string>, until: RegExp): Promise<string> {
  const command = `${JSON.stringify(process.execPath)} --import tsx src/main.ts`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no match for ${until} within 30 s:\n${output}`)), 30_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (until.test(output.replace(COLOURS, ''))) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`exited (${code}):\n${output}`)));
    });
  } finally {
    // The whole group: `script`, its shell and the service under it.
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await once(child, 'exit').catch(() => undefined);
  }
  return output.replace(COLOURS, '');
}

describe('logs on a terminal', () => {
  it('are readable lines in development, with the GraphiQL address on one of them', async () => {
    const output = await terminalOutput({}, /GraphiQL at http:\/\/127\.0\.0\.1:\d+\/graphql/);
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: tradegraph is serving; GraphiQL at http:\/\/127\.0\.0\.1:\d+\/graphql\r?$/m);
    expect(output).not.toMatch(/^\{"level"/m);
  }, 60_000);

  it('stay JSON in production, terminal or not', async () => {
    const output = await terminalOutput({ NODE_ENV: 'production', PARTNER_SIMULATOR: 'embedded' }, /tradegraph is serving.*\r?\n/);
    const serving = output.split(/\r?\n/).find((line) => line.includes('tradegraph is serving'))!;
    expect(JSON.parse(serving)).toEqual(expect.objectContaining({ level: 30, msg: 'tradegraph is serving' }));
  }, 60_000);
});
