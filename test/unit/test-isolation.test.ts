// Files share a fork's module cache (test/vitest.config.ts), except those that replace a module:
// a vi.mock in any other file would leak its stand-in into the files after it in the same fork.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { glob } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { MOCKS_MODULES } from '../vitest.config.js';

const ROOT = join(import.meta.dirname, '../..');

it('runs every test file that calls vi.mock or vi.doMock isolated, and only those', async () => {
  const mocking: string[] = [];
  for await (const file of glob('test/**/*.test.ts', { cwd: ROOT })) {
    if (/\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(ROOT, file), 'utf8'))) mocking.push(file);
  }
  expect(mocking.sort()).toEqual([...MOCKS_MODULES].sort());
});
