// The in-process response cache weighs each entry at the heap it takes, not at its JSON: a full
// cache of the smallest answers (`{ __typename }`, 31 bytes of JSON, a new variable each from one
// made-up token) grows the heap by no more than its budget times CACHE_HEAP_FACTOR, the figure the
// start check refuses an oversized budget by. Measured in a process of its own with --expose-gc
// (test/support/cache-heap-probe.ts), the answers sent over HTTP.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CACHE_HEAP_FACTOR } from '../../src/config.js';
import { entryHeapBytes } from '../../src/plugins/response-cache/in-process-store.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUDGET = 1024 * 1024;
const SMALLEST_JSON = Buffer.byteLength('{"data":{"__typename":"Query"}}');
/** Twice what the budget holds of them, so that it is full and dropping the oldest. */
const ANSWERS = 2 * Math.ceil(BUDGET / entryHeapBytes(SMALLEST_JSON));

describe('the in-process response cache full of the smallest answers', () => {
  it('grows the heap by no more than its budget times CACHE_HEAP_FACTOR', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'test/support/cache-heap-probe.ts', String(BUDGET), String(ANSWERS)],
      { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 1024 * 1024 },
    );
    const figures = JSON.parse(stdout.trim().split('\n').at(-1)!) as { heapGrowth: number; bytes: number; entries: number; maxBytes: number };
    // Full: within one entry of its budget, and it reports that budget.
    expect(figures.maxBytes).toBe(BUDGET);
    expect(figures.bytes).toBeLessThanOrEqual(BUDGET);
    expect(figures.bytes).toBeGreaterThan(BUDGET - entryHeapBytes(SMALLEST_JSON));
    expect(figures.entries).toBe(Math.floor(figures.bytes / entryHeapBytes(SMALLEST_JSON)));
    expect(figures.heapGrowth).toBeLessThanOrEqual(BUDGET * CACHE_HEAP_FACTOR);
  }, 300_000);
});
