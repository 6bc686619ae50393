// Hive Gateway's entry loads localforage, which reads globalThis.localStorage as it loads; Node 26
// answers that read with an ExperimentalWarning unless Web Storage is off. `npm run fleet` and the
// test workers turn it off, so neither prints the warning.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WARNING = /localStorage|localstorage-file/;

/** The flags `npm run fleet` gives node: the words between `node` and the entry file. */
function fleetNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
  const words = scripts.fleet!.split(/\s+/);
  return words.slice(words.indexOf('node') + 1, -1);
}

/** stderr of a node that loads Hive Gateway's entry with `flags`, as the fleet does. */
function stderrLoadingGateway(flags: string[]): string {
  const run = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', "await import('@graphql-hive/gateway');"], {
    cwd: ROOT,
    encoding: 'utf8',
    // Loading the gateway's entry is seconds of one core's work; beside other test files it takes longer.
    timeout: 60_000,
  });
  expect(run.status).toBe(0);
  return run.stderr;
}

describe("the localStorage ExperimentalWarning Hive Gateway's entry would print", () => {
  it('is printed by a node with Web Storage on, which is what the flag below is for', () => {
    expect(stderrLoadingGateway(fleetNodeFlags().filter((flag) => flag !== '--no-experimental-webstorage'))).toMatch(WARNING);
  }, 90_000);

  it('is not printed with the flags of `npm run fleet`', () => {
    expect(stderrLoadingGateway(fleetNodeFlags())).not.toMatch(WARNING);
  }, 90_000);

  it('is not printed in a test worker that loads the gateway', async () => {
    const warnings: string[] = [];
    const listener = (warning: Error) => warnings.push(warning.message);
    process.on('warning', listener);
    try {
      await import('@graphql-hive/gateway');
      // Node emits a process warning on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listener);
    }
    expect(warnings.filter((message) => WARNING.test(message))).toEqual([]);
  });
});
