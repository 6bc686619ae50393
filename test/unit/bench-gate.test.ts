// The CI performance gate's decisions (test/bench/gate.ts): the facade's instructions per request
// over the floor's against each count's committed budget, (a) one request at a time and (a32-many)
// with 32 in flight. The counts themselves come from callgrind in CI.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUDGET_FILE, CONCURRENT_BUDGET_FILE, GATE_COUNTS, countOf, exitStatusOf, gateVerdict, type InstructionBudget } from '../bench/gate.js';

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

  it('judges the count with 32 in flight against its own budget, GC included, and names that budget when it fails', () => {
    const concurrent: InstructionBudget = { scenario: 'a32-many', ratio: 1.2, tolerance: 0.05, reason: 'test' };
    const within = gateVerdict({ facade: 1_260_000, floor: 1_000_000 }, concurrent, GATE_COUNTS.concurrent);
    expect(within.pass).toBe(true);
    expect(within.line).toBe(
      'bench:gate PASS: (a32-many) facade/floor instructions per request, 32 in flight, GC included, less compiler, 1.260 (facade 1,260,000, floor 1,000,000); budget 1.200 + 5 % = 1.260',
    );
    const over = gateVerdict({ facade: 1_261_000, floor: 1_000_000 }, concurrent, GATE_COUNTS.concurrent);
    expect(over.pass).toBe(false);
    expect(over.line).toMatch(/^bench:gate FAIL: \(a32-many\) .* 1\.261 .* = 1\.260 — .*raise test\/bench\/instruction-budget-concurrent\.json with the reason$/);
    // The one-at-a-time count's failure names its own file, not the other's.
    expect(gateVerdict({ facade: 1_156_000, floor: 1_000_000 }, budget).line).toContain('raise test/bench/instruction-budget.json with');
  });

  it("reads the count with the collector's work from instructions.sh's output for the concurrent count", () => {
    const output =
      'facade (a32-many): 3100000 instructions per request (1000 requests answered after 6000)\n' +
      '{"instructionsPerRequest":3100000,"withoutCompilerAndGc":2700000,"withoutCompiler":2950000,"byCategory":{"gc":250000,"compiler":150000}}\n';
    expect(countOf(output, 'facade', GATE_COUNTS.concurrent.field)).toBe(2_950_000);
    expect(countOf(output, 'facade', GATE_COUNTS.sequential.field)).toBe(2_700_000);
    // An older categories line without the field is no count.
    expect(() => countOf('facade (a32-many): 1 instructions per request\n{"instructionsPerRequest":1,"withoutCompilerAndGc":1}\n', 'facade', 'withoutCompiler')).toThrow(
      /no count for facade/,
    );
  });

  it('exits 2 when a count could not be taken, else 1 when either is over budget, else 0', () => {
    expect(exitStatusOf([true, true])).toBe(0);
    expect(exitStatusOf([true, false])).toBe(1);
    expect(exitStatusOf([false, true])).toBe(1);
    expect(exitStatusOf([false, null])).toBe(2);
    expect(exitStatusOf([true, null])).toBe(2);
  });

  it('has a committed budget for each count, with its reason', () => {
    const committed = JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as InstructionBudget;
    expect(committed.scenario).toBe('a');
    expect(committed.ratio).toBeGreaterThan(1);
    expect(committed.tolerance).toBe(0.05);
    expect(committed.reason.length).toBeGreaterThan(20);
    const concurrent = JSON.parse(readFileSync(CONCURRENT_BUDGET_FILE, 'utf8')) as InstructionBudget;
    // Like for like: the rotation over distinct callers and inventories at 32 connections.
    expect(concurrent.scenario).toBe('a32-many');
    expect(GATE_COUNTS.concurrent.connections).toBe(32);
    expect(GATE_COUNTS.concurrent.field).toBe('withoutCompiler');
    expect(concurrent.ratio).toBeGreaterThan(0.5);
    expect(concurrent.ratio).toBeLessThan(3);
    expect(concurrent.tolerance).toBe(0.05);
    // The reason gives the counts' spread: a GC-included count varies more between runs.
    expect(concurrent.reason).toMatch(/spread/);
    expect(Object.keys(concurrent).sort()).toEqual(Object.keys(committed).sort());
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
      // One line per count.
      expect(run.stdout.trim().split('\n')).toEqual([
        'bench:gate ERROR: the instruction counts of (a), less compiler and GC, could not be taken: no valgrind',
        'bench:gate ERROR: the instruction counts of (a32-many), 32 in flight, GC included, less compiler, could not be taken: no valgrind',
      ]);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
