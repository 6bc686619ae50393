// docs/performance.md's table is what the report script renders from the latest results file, so
// that the doc cannot drift from the figures it quotes; history is in git, not in the doc or the
// results folder.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERFORMANCE_DOC, RESULTS_FILE, renderReport, withReport, type BenchResults } from '../bench/report.js';

const doc = () => readFileSync(PERFORMANCE_DOC, 'utf8');
const results = () => JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as BenchResults;

describe('docs/performance.md', () => {
  it('carries the table that `npm run bench:report` renders from test/bench/results/latest.json', () => {
    const current = doc();
    expect(current).toBe(withReport(current, renderReport(results())));
  });

  it('names no commit (git keeps the history)', () => {
    expect(doc()).not.toMatch(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/);
  });

  it('has only the latest run in test/bench/results/', () => {
    expect(readdirSync(dirname(RESULTS_FILE))).toEqual(['latest.json']);
  });
});
