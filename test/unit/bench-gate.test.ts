// The CI performance gate's decision (test/bench/gate.ts): the facade's instructions per request
// over the floor's against the committed budget. The counts themselves come from callgrind in CI.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUDGET_FILE, countOf, gateVerdict, type InstructionBudget } from '../bench/gate.js';

const budget: InstructionBudget = { scenario: 'a', ratio: 1.1, tolerance: 0.05, reason: 'test' };

describe('bench:gate', () => {
  it('passes a ratio up to 5 % over the budget, and says so in one line', () => {
    const verdict = gateVerdict({ facade: 1_155_000, floor: 1_000_000 }, budget);
    expect(verdict.pass).toBe(true);
    expect(verdict.line).toBe(
      'bench:gate PASS: (a) facade/floor instructions per request, less compiler and GC, 1.155 (facade 1,155,000, floor 1,000,000); budget 1.100 + 5 % = 1.155',
    );
  });

  it('fails a ratio more than 5 % over the budget', () => {
    const verdict = gateVerdict({ facade: 1_156_000, floor: 1_000_000 }, budget);
    expect(verdict.pass).toBe(false);
    expect(verdict.line).toMatch(/^bench:gate FAIL: \(a\) facade\/floor instructions per request, less compiler and GC, 1\.156 .* = 1\.155 — /);
    expect(verdict.line).not.toContain('\n');
  });

  it('refuses a missing count rather than passing it', () => {
    expect(() => gateVerdict({ facade: 0, floor: 1_000_000 }, budget)).toThrow(/positive/);
    expect(() => gateVerdict({ facade: Number.NaN, floor: 1_000_000 }, budget)).toThrow(/positive/);
  });

  it("reads the count less compiler and GC from instructions.sh's output", () => {
    const output =
      'floor (a): 2846932 instructions per request (300 requests answered after 3000)\n' +
      '{"instructionsPerRequest":2846933,"withoutCompilerAndGc":2639057,"byCategory":{"compiler":191808,"gc":16067}}\n';
    expect(countOf(output, 'floor')).toBe(2_639_057);
    expect(() => countOf(output, 'facade')).toThrow(/no count for facade/);
    expect(() => countOf('floor (a): 1 instructions per request\n', 'floor')).toThrow(/no count for floor/);
  });

  it('has a committed budget with its reason', () => {
    const committed = JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as InstructionBudget;
    expect(committed.scenario).toBe('a');
    expect(committed.ratio).toBeGreaterThan(1);
    expect(committed.tolerance).toBe(0.05);
    expect(committed.reason.length).toBeGreaterThan(20);
  });

  it('says at once that it needs valgrind when there is none, before building or starting anything', () => {
    // A PATH with a shell and nothing else: no valgrind on it.
    const bin = mkdtempSync(join(tmpdir(), 'tradegraph-no-valgrind-'));
    try {
      symlinkSync('/bin/sh', join(bin, 'sh'));
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/bench/gate.ts'], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        env: { ...process.env, PATH: bin },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('bench:gate needs valgrind');
      expect(run.stderr).toContain('apt-get install valgrind');
      expect(run.stderr).not.toContain('building dist/');
      expect(run.stdout.trim()).toBe('bench:gate ERROR: the instruction counts of (a) could not be taken: no valgrind');
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
