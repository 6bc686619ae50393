// The runtime is pinned: the registry's `node` package in the lock file, `engines` and `.nvmrc`
// name one maintained LTS, and the suite itself runs on it (npm puts the pinned binary first on
// npm scripts' PATH, whatever Node the machine has).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const packageJson = JSON.parse(read('package.json')) as {
  dependencies: Record<string, string>;
  engines: { node: string };
  overrides?: unknown;
};
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { version?: string }> };

describe('the pinned runtime', () => {
  const pinned = packageJson.dependencies.node!;

  it('is one exact version of a maintained LTS line (26), the same in package.json, the lock file and .nvmrc', () => {
    expect(pinned).toMatch(/^26\.\d+\.\d+$/);
    expect(lock.packages['node_modules/node']?.version).toBe(pinned);
    expect(read('.nvmrc').trim()).toBe(pinned);
    expect(packageJson.engines.node).toBe(`>=${pinned} <27`);
  });

  it('runs this suite', () => {
    expect(process.versions.node).toBe(pinned);
  });

  it('needs no overrides to install', () => {
    expect(packageJson.overrides).toBeUndefined();
  });
});
