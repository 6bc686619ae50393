import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

const INCLUDE = ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/property/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/deploy/**/*.test.ts'];
/** Scans the log lines of every test file's services for the secrets they were given (one scan per project). */
const SECRET_SCAN = ['test/support/secret-scan.ts'];
/** Test files that replace a module with vi.mock; test/unit/test-isolation.test.ts checks the list. */
export const MOCKS_MODULES = ['test/integration/compiled-execution.test.ts'];

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports" map: Node loads its CommonJS build for Yoga, while Vite would
    // pick the ESM build for our sources. Two copies break `instanceof GraphQLError`, so tests
    // load the one Node loads.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    // Integration tests start real servers; give slow shared machines room without hiding hangs.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits on a condition: its 1 s default is too short on a loaded machine.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Most files spend their time waiting on sockets, child processes, Redis and podman, not on a
    // core: vitest's default (one fork fewer than the cores, so one on a 2-core machine) runs them
    // one after another. Four forks overlap the waits, and the suite still passes with a busy loop
    // on one of the two cores. Each file starts its own servers on free loopback ports. `--maxWorkers=1` runs them one at a time to chase an interaction.
    maxWorkers: 4,
    // Hive Gateway's entry loads localforage, which probes globalThis.localStorage as it loads: on
    // Node 26 that prints an ExperimentalWarning (no --localstorage-file) into every gateway test's
    // output. Nothing here uses Web Storage, so it is off, as in `npm run fleet`.
    execArgv: ['--no-experimental-webstorage'],
    // Each fork loads the service's modules (Yoga, graphql, the gateway) once for all its files,
    // not once per file: every file starts its own servers and keeps no state in a module. A file
    // that replaces a module (vi.mock) runs isolated, so that its stand-in reaches no other file.
    projects: [
      { extends: true, test: { name: 'shared-modules', isolate: false, include: INCLUDE, exclude: MOCKS_MODULES, globalSetup: SECRET_SCAN } },
      { extends: true, test: { name: 'isolated', include: MOCKS_MODULES, globalSetup: SECRET_SCAN } },
    ],
  },
});
