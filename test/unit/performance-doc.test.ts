// docs/performance.md's table is what the report script renders from the latest results file, so
// that the doc cannot drift from the figures it quotes; history is in git, not in the doc or the
// results folder.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERFORMANCE_DOC, RESULTS_FILE, renderReport, withReport, type BenchResults, type Figures } from '../bench/report.js';
import { FLOOR_TARGET } from '../bench/scenarios.js';

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

type Scenario = NonNullable<BenchResults['scenarios']>[number];

/** A made-up run of one scenario, with what every scenario has filled in. */
const runOf = (scenario: Pick<Scenario, 'id' | 'medians' | 'ratioFacadeToBaseline'> & Partial<Scenario>): BenchResults => ({
  date: '2026-11-26T00:00:00.000Z',
  machine: { cores: 2, cpuModel: 'test', memoryGiB: 1, node: 'v26.10.0' },
  settings: { rounds: 3, durationS: 3 },
  scenarios: [
    {
      title: `scenario ${scenario.id}`,
      connections: 10,
      upstreamCallsPerOperation: { facade: { readInventory: 1, calculateListingFee: 0 } },
      minimumUpstreamCalls: { readInventory: 1, calculateListingFee: 0 },
      facadePeakRssMiB: 100,
      ...scenario,
    },
  ],
});

/** The line of the rendered report's list that starts with `- ${start}`. */
const reportLine = (results: BenchResults, start: string) => renderReport(results).split('\n').find((text) => text.startsWith(`- ${start}`));

describe('the report of (g)', () => {
  const figures = (p50: number, p99: number) => ({ rps: 200, p50, p99, cpuMsPerRequest: 1 });
  const run = (rounds: Record<string, number[]>): BenchResults =>
    runOf({
      id: 'g',
      medians: { facade: figures(55, 70), baseline: figures(54, 62), [FLOOR_TARGET]: figures(54.5, 65) },
      ratioFacadeToBaseline: figures(1, 1),
      rounds: Object.fromEntries(Object.entries(rounds).map(([target, p99s]) => [target, p99s.map((p99) => ({ p50: 50, p99 }))])),
    });

  it("gives the floor's own added latency and the range of the rounds' p99 differences beside the verdict", () => {
    const line = reportLine(run({ facade: [70, 100, 64], baseline: [62, 61, 75] }), '(g)');
    expect(line).toBe(
      "- (g) p50 within 3 ms of the baseline's: +1.0 ms, met; p99 within 10 ms: +8.0 ms, met " +
        "(the rounds' own p99 differences ran from -11.0 ms to +39.0 ms; the Yoga floor itself: +0.5 ms at p50, +3.0 ms at p99)",
    );
  });
});

describe('the report of (f)', () => {
  const figures = (rps: number, cpuMsPerRequest: number) => ({ rps, p50: 3, p99: 10, cpuMsPerRequest });
  /** The (f) line of a run whose facade reads `againstCache` × Yoga's cache on the floor. */
  const lineOf = (againstCache: Figures, floorAgain?: Figures) =>
    reportLine(
      runOf({
        id: 'f',
        medians: { facade: figures(3300, 0.3), baseline: figures(1300, 0.7), [FLOOR_TARGET]: figures(2500, 0.4) },
        ratioFacadeToBaseline: figures(2.54, 0.43),
        ratioFacadeToCompared: { [FLOOR_TARGET]: againstCache },
        ...(floorAgain ? { ratioFloorToFloorAgain: floorAgain } : {}),
      }),
      '(f)',
    );

  it("reads the facade's cached repeat against Yoga's own response cache on the floor", () => {
    expect(lineOf(figures(1.32, 0.75))).toBe("- (f) req/s ≥ 1.15 × Yoga's own response cache on the floor: 1.32, met (CPU per request 0.75 × its)");
  });

  it("gives Yoga's cache against a second copy of itself, where the run had one", () => {
    expect(lineOf(figures(0.9, 1.1), { rps: 1.04, p50: 1, p99: 0.95, cpuMsPerRequest: 0.97 })).toBe(
      "- (f) req/s ≥ 1.15 × Yoga's own response cache on the floor: 0.90, **missed** (CPU per request 1.10 × its); the floor against a second floor in the same rounds: req/s 1.04, p99 0.95",
    );
  });
});

describe('the report of the scenarios held to the floor', () => {
  const figures = (rps: number, p99: number) => ({ rps, p50: 1, p99, cpuMsPerRequest: 1 });
  /** The (d) line of a run whose facade reads `rps` and `p99` × the floor's, with `more` of the run. */
  const line = (rps: number, p99: number, more: Partial<Scenario> = {}) =>
    reportLine(
      runOf({ id: 'd', medians: { facade: figures(1, 1), baseline: figures(1, 1) }, ratioFacadeToBaseline: figures(1, 1), ratioFacadeToCompared: { [FLOOR_TARGET]: figures(rps, p99) }, ...more }),
      '(d)',
    );

  it('misses when the req/s falls under 0.97 × the floor, or the p99 rises over 1.1 × its', () => {
    expect(line(0.96, 1.1)).toBe("- (d) req/s ≥ 0.97 × the Yoga floor's: 0.96, **missed**; p99 ≤ 1.1 × its p99: 1.10, met");
    expect(line(0.97, 1.11)).toBe("- (d) req/s ≥ 0.97 × the Yoga floor's: 0.97, met; p99 ≤ 1.1 × its p99: 1.11, **missed**");
  });

  it("gives the rounds' own p99s beside a missed p99", () => {
    const p99s = (values: number[]) => values.map((p99) => ({ p50: 1, p99 }));
    expect(line(1, 1.2, { rounds: { facade: p99s([4.7, 28.1, 24.8]), [FLOOR_TARGET]: p99s([8.7, 24.7, 20.5]) } })).toBe(
      "- (d) req/s ≥ 0.97 × the Yoga floor's: 1.00, met; p99 ≤ 1.1 × its p99: 1.20, **missed** (the rounds' p99s: facade 4.7 to 28.1 ms, floor 8.7 to 24.7 ms)",
    );
  });

  it('gives the floor against a second floor of the same rounds, where the run had one, beside the verdict it leaves as it is', () => {
    expect(line(1, 1.2, { ratioFloorToFloorAgain: figures(0.99, 1.31) })).toBe(
      "- (d) req/s ≥ 0.97 × the Yoga floor's: 1.00, met; p99 ≤ 1.1 × its p99: 1.20, **missed**; the floor against a second floor in the same rounds: req/s 0.99, p99 1.31",
    );
  });
});

describe('the report of the soak', () => {
  const soak = (low: number, high: number): BenchResults => ({
    ...runOf({ id: 'a', medians: { facade: { rps: 1, p50: 1, p99: 1, cpuMsPerRequest: 1 }, baseline: { rps: 1, p50: 1, p99: 1, cpuMsPerRequest: 1 } }, ratioFacadeToBaseline: { rps: 1, p50: 1, p99: 1, cpuMsPerRequest: 1 } }),
    soak: {
      requests: 150_000,
      rps: 1000,
      peakRssMiB: 150,
      slopeSecondHalfMiBPer10kRequests: 0,
      heapAfterGc: { everyMs: 1000, phases: [{ samples: 50, slopeKiBPer10kRequests: 40, low: 10, high: 70 }, { samples: 50, slopeKiBPer10kRequests: (low + high) / 2, low, high }] },
    },
  });
  const heapLine = (results: BenchResults) => reportLine(results, 'soak heap');

  it("calls the heap not growing when the last phase's interval holds zero, whatever an earlier phase did", () => {
    expect(heapLine(soak(-12.5, 20.5))).toBe("- soak heap after GC, last phase's slope not above zero: -12.5 to 20.5 KiB per 10,000 requests, met");
  });

  it('calls a heap that shrank in the last phase not growing', () => {
    expect(heapLine(soak(-189.1, -63.7))).toMatch(/-189\.1 to -63\.7 KiB per 10,000 requests, met$/);
  });

  it('calls it growing when the interval lies above zero', () => {
    expect(heapLine(soak(3, 9))).toMatch(/3\.0 to 9\.0 KiB per 10,000 requests, \*\*missed\*\*$/);
  });

  it('gives every phase with its interval', () => {
    expect(renderReport(soak(-1, 1))).toContain('by phase: 40.0 KiB (10.0 to 70.0), 0.0 KiB (-1.0 to 1.0).');
  });
});

describe('the growth table', () => {
  it('puts each scenario in its cell, facade over floor, and leaves the rest empty', () => {
    const figures = (cpuMsPerRequest: number) => ({ rps: 1, p50: 1, p99: 1, cpuMsPerRequest });
    const results = runOf({ id: 'p100f', medians: { facade: figures(2.5), baseline: figures(1), [FLOOR_TARGET]: figures(2) }, ratioFacadeToBaseline: figures(2.5) });
    expect(renderReport(results)).toContain('| page of 100 items | – | – | 2.500 / 2.000 (p100f) |');
  });
});

describe('the like-for-like tables (issue 53)', () => {
  const figures = (rps: number, cpuMsPerRequest = 1) => ({ rps, p50: 1, p99: 1, cpuMsPerRequest });
  /** A run of (a) and (a-many), and of `more` scenarios, each held to the floor at `rps` × its req/s. */
  const run = (rps: number, more: string[] = []): BenchResults => {
    const one = (id: string) =>
      runOf({
        id,
        medians: { facade: figures(1000, 0.5), baseline: figures(1000), [FLOOR_TARGET]: figures(1000, 0.4) },
        ratioFacadeToBaseline: figures(1),
        ratioFacadeToCompared: { [FLOOR_TARGET]: figures(rps) },
      }).scenarios![0]!;
    return { ...runOf({ id: 'a', medians: {}, ratioFacadeToBaseline: figures(1) }), scenarios: ['a', 'a-many', ...more].map(one) };
  };

  it('come first: the like-for-like table, then the shared calls as work avoided', () => {
    const rendered = renderReport(run(1));
    const likeForLike = rendered.indexOf('Like for like:');
    const shared = rendered.indexOf('Work avoided:');
    expect(likeForLike).toBeGreaterThan(-1);
    expect(shared).toBeGreaterThan(likeForLike);
    expect(rendered.indexOf('| (a-many) |')).toBeGreaterThan(likeForLike);
    expect(rendered.indexOf('| (a-many) |')).toBeLessThan(shared);
    expect(rendered.indexOf('| (a) |')).toBeGreaterThan(shared);
  });

  it('say so where a run has no like-for-like scenario', () => {
    const results = run(1);
    results.scenarios = results.scenarios!.filter((s) => s.id === 'a');
    expect(renderReport(results)).toContain('Like for like: each request its own caller and inventory, so that no two requests in flight can share a partner call:\n\nNo like-for-like scenario in this run.');
  });

  it('put the like-for-like growth table before the shared one', () => {
    const rendered = renderReport(run(1, ['b-many']));
    expect(rendered).toContain('| page of 20 items | 0.500 / 0.400 (a-many) | 0.500 / 0.400 (b-many) | – |');
    expect(rendered.indexOf('Cost as work grows, like for like')).toBeLessThan(rendered.indexOf('Cost as work grows, shared calls'));
  });

  it('hold (a-many) to 0.97 × the floor and (e-new) to 0.90 ×', () => {
    expect(reportLine(run(0.96), '(a-many)')).toBe("- (a-many) req/s ≥ 0.97 × the Yoga floor's: 0.96, **missed**; p99 ≤ 1.1 × its p99: 1.00, met");
    expect(reportLine(run(0.91, ['e-new']), '(e-new)')).toBe("- (e-new) req/s ≥ 0.9 × the Yoga floor's: 0.91, met; p99 ≤ 1.1 × its p99: 1.00, met");
  });
});
