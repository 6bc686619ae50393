// Renders a bench results file (default test/bench/results/latest.json) as the current table of
// docs/performance.md and checks the performance issue's targets against it:
// `npm run bench:report` prints it, `npm run bench:report -- --write` puts it into the doc between
// its markers. test/unit/performance-doc.test.ts fails when the doc's table is not what this
// renders from the results file.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { GrowthResults } from './growth.js';
import { FLOOR_TARGET, GROWTH_TABLE, GROWTH_TABLE_MANY, LIKE_FOR_LIKE, PEER_TARGET } from './scenarios.js';

/**
 * The scenarios where the facade is held to the Yoga floor (issue 53: like for like, where no call
 * is shared; issue 43's shared-call ones after them), with the least req/s ratio each asks.
 */
const FLOOR_SCENARIOS_AT_FLOOR: ReadonlyArray<[string, number]> = [
  ...(['a-many', 'a32-many', 'b-many', 'c-many', 'd-many', 'e-many', 'm100-many'] as const).map((id): [string, number] => [id, 0.97]),
  ['e-new', 0.9],
  ...(['a', 'a32', 'ad', 'b', 'c', 'd'] as const).map((id): [string, number] => [id, 0.97]),
];

/** One target's medians, or the ratios of two targets' figures. */
export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
  peakRssMiB?: number;
  bytesPerResponse?: number;
  partnerCallsPerRequest?: number;
}
/** Partner calls per operation. */
export interface Calls {
  readInventory: number;
  calculateListingFee: number;
}

/**
 * Whether a target's calls per operation are no more than the least a scenario can cost without
 * joining the calls of separate operations (a facade that joins them makes fewer).
 */
export const withinMinimum = (calls: Calls, least: Calls): boolean =>
  calls.readInventory <= least.readInventory && calls.calculateListingFee <= least.calculateListingFee;

interface ScenarioResult {
  id: string;
  title: string;
  connections: number;
  medians: Record<string, Figures>;
  ratioFacadeToBaseline: Figures;
  ratioFacadeToCompared?: Record<string, Figures>;
  ratioFloorToBaseline?: Figures;
  /** A second floor's figures over the first's, in the same rounds (`--floor-again`): the machine's own noise. */
  ratioFloorToFloorAgain?: Figures;
  upstreamCallsPerOperation: Record<string, Calls>;
  minimumUpstreamCalls: Calls;
  facadePeakRssMiB: number;
  /** Each target's figures round by round, in the order the rounds ran. */
  rounds?: Record<string, Pick<Figures, 'p50' | 'p99'>[]>;
}
export interface BenchResults {
  date: string;
  machine: { cores: number; cpuModel: string; memoryGiB: number; node: string; loadAverage?: { atStart: number[]; atEnd: number[] } };
  settings: { rounds: number; durationS: number; nodeArgs?: Record<string, string[]>; pinned?: boolean; generator?: string };
  scenarios?: ScenarioResult[];
  soak?: {
    facadeEnv?: Record<string, string>;
    requests: number;
    rps: number;
    peakRssMiB: number;
    slopeSecondHalfMiBPer10kRequests: number;
    heapAfterGc?: { everyMs: number; phases: Array<{ samples: number; slopeKiBPer10kRequests: number; low: number; high: number }> };
  };
  growth?: GrowthResults;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const RESULTS_FILE = join(ROOT, 'test/bench/results/latest.json');
export const PERFORMANCE_DOC = join(ROOT, 'docs/performance.md');
export const BEGIN_MARKER = '<!-- bench:report begin (npm run bench:report -- --write) -->';
export const END_MARKER = '<!-- bench:report end -->';

const fixed = (value: number, digits: number) => value.toFixed(digits);
const verdict = (met: boolean) => (met ? 'met' : '**missed**');

/** The Markdown the doc carries between its markers, from one results file. */
export function renderReport(results: BenchResults): string {
  const { machine, settings } = results;
  const lines: string[] = [];
  const load = machine.loadAverage;
  const how =
    settings.pinned === false
      ? `unpinned (every process on any core), load from ${settings.generator ?? 'autocannon'}`
      : settings.pinned
        ? `pinned: each target alone on core 0, ${settings.generator ?? 'wrk'} and the simulator on core 1`
        : 'unpinned, load from autocannon';
  lines.push(
    `Taken ${results.date.slice(0, 10)} on ${machine.cores} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}; ${how}; ` +
      `${settings.rounds} rounds of ${settings.durationS} s per target and scenario` +
      (load ? `; 1-minute load average ${fixed(load.atStart[0]!, 1)} at the start, ${fixed(load.atEnd[0]!, 1)} at the end` : '') +
      (settings.nodeArgs?.facade ? `; facade and floor under \`${settings.nodeArgs.facade.join(' ')}\`.` : '.'),
  );
  const scenarios = results.scenarios ?? [];
  const or = (value: number | undefined, digits: number) => (value === undefined ? '–' : fixed(value, digits));
  const likeForLike = new Set<string>(LIKE_FOR_LIKE);
  const many = scenarios.filter((s) => likeForLike.has(s.id));
  const shared = scenarios.filter((s) => !likeForLike.has(s.id));
  lines.push('');
  lines.push('Like for like: each request its own caller and inventory, so that no two requests in flight can share a partner call:');
  lines.push('');
  if (many.length) scenarioTable(many);
  else lines.push('No like-for-like scenario in this run.');
  if (shared.length) {
    lines.push('');
    lines.push('Work avoided: one caller reading one inventory, where identical requests in flight share a partner call:');
    lines.push('');
    scenarioTable(shared);
  }
  function scenarioTable(rows: ScenarioResult[]) {
    lines.push('| Scenario | CPU ms/req facade / floor / baseline | facade ÷ floor | facade ÷ baseline | req/s facade / floor / baseline | p99 ms facade / baseline | partner calls/op (min) |');
    lines.push('|---|---|---|---|---|---|---|');
    for (const s of rows) tableRow(s);
  }
  function tableRow(s: ScenarioResult) {
    const f = s.medians.facade!;
    const b = s.medians.baseline!;
    const floor = s.medians[FLOOR_TARGET];
    const calls = s.upstreamCallsPerOperation.facade!;
    const min = s.minimumUpstreamCalls;
    lines.push(
      `| (${s.id}) | ${fixed(f.cpuMsPerRequest, 3)} / ${or(floor?.cpuMsPerRequest, 3)} / ${fixed(b.cpuMsPerRequest, 3)} | ` +
        `${or(s.ratioFacadeToCompared?.[FLOOR_TARGET]?.cpuMsPerRequest, 2)} | ${fixed(s.ratioFacadeToBaseline.cpuMsPerRequest, 2)} | ` +
        `${fixed(f.rps, 0)} / ${or(floor?.rps, 0)} / ${fixed(b.rps, 0)} | ${fixed(f.p99, 1)} / ${fixed(b.p99, 1)} | ` +
        `${calls.readInventory} + ${calls.calculateListingFee} (${min.readInventory} + ${min.calculateListingFee}) |`,
    );
  }
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  for (const [table, which] of [
    [GROWTH_TABLE_MANY, 'like for like'],
    [GROWTH_TABLE, 'shared calls'],
  ] as const) {
    if (!table.some(({ cells }) => Object.values(cells).some((id) => id && byId.has(id)))) continue;
    lines.push('');
    lines.push(`Cost as work grows, ${which}, CPU ms per request facade / floor (scenario):`);
    lines.push('');
    lines.push('| | no fees | 20 fees | 100 fees |');
    lines.push('|---|---|---|---|');
    for (const { row, cells } of table) {
      const cell = (id: string | null) => {
        const s = id ? byId.get(id) : undefined;
        if (!s) return '–';
        return `${fixed(s.medians.facade!.cpuMsPerRequest, 3)} / ${or(s.medians[FLOOR_TARGET]?.cpuMsPerRequest, 3)} (${s.id})`;
      };
      lines.push(`| ${row} | ${cell(cells[0])} | ${cell(cells[20])} | ${cell(cells[100])} |`);
    }
  }
  const others = scenarios.flatMap((s) =>
    Object.entries(s.ratioFacadeToCompared ?? {})
      .filter(([name]) => name !== FLOOR_TARGET)
      .map(([name, ratio]) => ({ s, name, m: s.medians[name]!, ratio })),
  );
  if (others.length) {
    lines.push('');
    lines.push('Other targets in the same rounds:');
    lines.push('');
    lines.push('| Scenario | target | CPU ms/req | facade ÷ target, CPU per request | req/s | bytes/response |');
    lines.push('|---|---|---|---|---|---|');
    for (const { s, name, m, ratio } of others) {
      lines.push(`| (${s.id}) | ${name} | ${fixed(m.cpuMsPerRequest, 3)} | ${fixed(ratio.cpuMsPerRequest, 2)} | ${fixed(m.rps, 0)} | ${or(m.bytesPerResponse, 0)} |`);
    }
  }
  for (const s of scenarios.filter((scenario) => scenario.medians.facade?.partnerCallsPerRequest !== undefined)) {
    const calls = (name: string) => or(s.medians[name]?.partnerCallsPerRequest, 3);
    lines.push('');
    lines.push(
      `(${s.id}) partner calls per operation under its load (3,000 requests): facade ${calls('facade')}, floor ${calls(FLOOR_TARGET)}, baseline ${calls('baseline')}; ` +
        `req/s ${fixed(s.ratioFacadeToBaseline.rps, 2)} × the baseline's.`,
    );
  }
  if (results.growth) growthTable(results.growth);
  function growthTable(growth: GrowthResults) {
    const names = ['facade', FLOOR_TARGET];
    const both = (step: GrowthResults['steps'][number], figure: 'cpuMsPerRequest' | 'rssMiB' | 'heapMiB', digits: number) =>
      names.map((name) => or(step.targets[name]?.[figure], digits)).join(' / ');
    const perCaller = (callers: number, figure: 'heapBytes' | 'rssBytes') =>
      names.map((name) => or(growth.perCaller[name]?.find((p) => p.toCallers === callers)?.[figure], 0)).join(' / ');
    lines.push('');
    lines.push(
      `Cost as callers grow: (a-many)'s page at ${growth.connections} connections over that many distinct callers (each its own token) and 500 inventories, ` +
        'facade / floor, each a fresh process; memory after the step and a full collection; bytes per caller: the difference from the step before over the callers added:',
    );
    lines.push('');
    lines.push('| Distinct callers | requests | CPU ms/req | RSS MiB | heap MiB | heap bytes per new caller | RSS bytes per new caller |');
    lines.push('|---|---|---|---|---|---|---|');
    for (const step of growth.steps) {
      lines.push(
        `| ${step.callers.toLocaleString('en-US')} | ${step.requests.toLocaleString('en-US')} | ${both(step, 'cpuMsPerRequest', 3)} | ${both(step, 'rssMiB', 1)} | ${both(step, 'heapMiB', 1)} | ` +
          `${perCaller(step.callers, 'heapBytes')} | ${perCaller(step.callers, 'rssBytes')} |`,
      );
    }
    if (growth.soak) {
      const { soak } = growth;
      lines.push('');
      lines.push(
        `Soak at ${soak.callers.toLocaleString('en-US')} callers: ${soak.requests} requests to the ${soak.target} at ${fixed(soak.rps, 0)} req/s, RSS peak ${fixed(soak.peakRssMiB, 1)} MiB; ` +
          `heap after a full collection, slope per 10,000 requests with its 95 % interval, by phase: ` +
          `${soak.phases.map((p) => `${fixed(p.slopeKiBPer10kRequests, 1)} KiB (${fixed(p.low, 1)} to ${fixed(p.high, 1)})`).join(', ')}.`,
      );
    }
  }
  const targets = checkTargets(results);
  if (targets.length) {
    lines.push('');
    lines.push('Targets, from this run:');
    lines.push('');
    for (const target of targets) lines.push(`- ${target}`);
  }
  if (results.soak) {
    const { soak } = results;
    const phases = soak.heapAfterGc?.phases ?? [];
    lines.push('');
    lines.push(
      `Soak: ${soak.requests} requests of (e)${soak.facadeEnv ? ` against the facade with ${Object.entries(soak.facadeEnv).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''} ` +
        `at ${fixed(soak.rps, 0)} req/s; RSS peak ${soak.peakRssMiB} MiB` +
        (phases.length
          ? `; heap in use after a full collection, least-squares slope per 10,000 requests with its 95 % interval, by phase: ` +
            `${phases.map((p) => `${fixed(p.slopeKiBPer10kRequests, 1)} KiB (${fixed(p.low, 1)} to ${fixed(p.high, 1)})`).join(', ')}.`
          : `; RSS slope over the second half ${soak.slopeSecondHalfMiBPer10kRequests} MiB per 10,000 requests.`),
    );
  }
  return lines.join('\n');
}

/**
 * Where the run had a second floor (`--floor-again`), what the first reads against it: two servers
 * alike, so any distance is the machine's, and a target closer than that cannot be told apart.
 */
function floorAgainstItself(scenario: ScenarioResult): string {
  const again = scenario.ratioFloorToFloorAgain;
  return again ? `; the floor against a second floor in the same rounds: req/s ${fixed(again.rps, 2)}, p99 ${fixed(again.p99, 2)}` : '';
}

/** The performance issue's targets, each checked against one run's figures. */
function checkTargets(results: BenchResults): string[] {
  const byId = new Map((results.scenarios ?? []).map((s) => [s.id, s]));
  const out: string[] = [];
  // At the floor: the facade's req/s and p99 against Yoga's own in the same rounds. Where the facade
  // shares one partner call among identical operations its figure includes that saving, so the
  // like-for-like figure is the instruction count (one request at a time) in the prose above.
  for (const [id, least] of FLOOR_SCENARIOS_AT_FLOOR) {
    const s = byId.get(id);
    const r = s?.ratioFacadeToCompared?.[FLOOR_TARGET];
    if (!s || !r) continue;
    const p99Met = r.p99 <= 1.1;
    // A p99 of one 3 s round moves with every stall of a shared machine: where it misses, the
    // rounds' own p99s say how far the medians can be read.
    const range = (target: string) => {
      const p99s = (s.rounds?.[target] ?? []).map((round) => round.p99);
      return p99s.length > 1 ? `${fixed(Math.min(...p99s), 1)} to ${fixed(Math.max(...p99s), 1)} ms` : null;
    };
    const [facadeRange, floorRange] = p99Met ? [null, null] : [range('facade'), range(FLOOR_TARGET)];
    const spread = facadeRange && floorRange ? ` (the rounds' p99s: facade ${facadeRange}, floor ${floorRange})` : '';
    out.push(
      `(${id}) req/s ≥ ${least} × the Yoga floor's: ${fixed(r.rps, 2)}, ${verdict(r.rps >= least)}; p99 ≤ 1.1 × its p99: ${fixed(r.p99, 2)}, ${verdict(p99Met)}${spread}` +
        floorAgainstItself(s),
    );
  }
  const f = byId.get('f');
  const cached = f?.ratioFacadeToCompared?.[FLOOR_TARGET];
  if (f && cached) {
    // In (f) the floor answers from Yoga's own response cache.
    out.push(
      `(f) req/s ≥ 1.15 × Yoga's own response cache on the floor: ${fixed(cached.rps, 2)}, ${verdict(cached.rps >= 1.15)} (CPU per request ${fixed(cached.cpuMsPerRequest, 2)} × its)` +
        floorAgainstItself(f),
    );
  }
  const a = byId.get('a');
  if (a) {
    const floor = a.ratioFloorToBaseline;
    out.push(
      `(a) req/s ≥ 0.65 × the passthrough's: ${fixed(a.ratioFacadeToBaseline.rps, 2)}, ${verdict(a.ratioFacadeToBaseline.rps >= 0.65)}` +
        (floor ? ` (the Yoga floor itself: ${fixed(floor.rps, 2)})` : ''),
    );
  }
  for (const id of ['a-many', 'a32-many', 'a', 'a32']) {
    const peer = byId.get(id)?.ratioFacadeToCompared?.[PEER_TARGET];
    if (peer) out.push(`(${id}) req/s ≥ 3 × Apollo Server's: ${fixed(peer.rps, 2)}, ${verdict(peer.rps >= 3)}`);
  }
  const ad = byId.get('ad');
  if (a && ad) {
    // Not the same rounds, so each is read against the baseline of its own rounds: its CPU per
    // request as a multiple of the baseline's cancels how busy the machine was at the time, which
    // moves the bare figures of two scenarios of one run apart by more than the difference sought.
    const asText = a.ratioFacadeToBaseline.cpuMsPerRequest;
    const asId = ad.ratioFacadeToBaseline.cpuMsPerRequest;
    out.push(`(ad) a documentId costs no more than the text: CPU per request ${fixed(asId, 2)} × the baseline's against (a)'s ${fixed(asText, 2)} ×, ${verdict(asId <= asText * 1.05)} (within 5 %)`);
  }
  const g = byId.get('g');
  if (g) {
    const ms = (value: number) => `${value >= 0 ? '+' : ''}${fixed(value, 1)} ms`;
    const added = (target: string, quantile: 'p50' | 'p99') => g.medians[target]![quantile] - g.medians.baseline![quantile];
    const p50 = added('facade', 'p50');
    const p99 = added('facade', 'p99');
    // A p99 of a few hundred requests a round moves with every stall of a shared machine: the
    // rounds' own differences, and the floor's, say how far one run's figure can be read.
    const perRound = (g.rounds?.facade ?? []).map((round, i) => round.p99 - g.rounds!.baseline![i]!.p99);
    const notes = [
      ...(perRound.length > 1 ? [`the rounds' own p99 differences ran from ${ms(Math.min(...perRound))} to ${ms(Math.max(...perRound))}`] : []),
      ...(g.medians[FLOOR_TARGET] ? [`the Yoga floor itself: ${ms(added(FLOOR_TARGET, 'p50'))} at p50, ${ms(added(FLOOR_TARGET, 'p99'))} at p99`] : []),
    ];
    out.push(
      `(g) p50 within 3 ms of the baseline's: ${ms(p50)}, ${verdict(p50 <= 3)}; p99 within 10 ms: ${ms(p99)}, ${verdict(p99 <= 10)}` +
        (notes.length ? ` (${notes.join('; ')})` : ''),
    );
  }
  const scenarios = results.scenarios ?? [];
  if (scenarios.length) {
    const above = scenarios.filter((s) => !withinMinimum(s.upstreamCallsPerOperation.facade!, s.minimumUpstreamCalls));
    out.push(`partner calls per operation at most the minimum in every scenario: ${above.length ? `not in ${above.map((s) => `(${s.id})`).join(', ')}` : 'yes'}, ${verdict(above.length === 0)}`);
  }
  // The target is in MB (10^6 bytes), the samples in MiB: 200 MB is 190.7 MiB.
  if (results.soak) {
    const peakMB = (results.soak.peakRssMiB * 1024 * 1024) / 1e6;
    out.push(`soak RSS < 200 MB: peak ${results.soak.peakRssMiB} MiB (${fixed(peakMB, 0)} MB), ${verdict(peakMB < 200)}`);
    const last = results.soak.heapAfterGc?.phases.at(-1);
    if (last) {
      // A leak is a heap that grows: an interval wholly above zero. One wholly below is a heap that
      // gave memory back in the last phase (answers of the response cache's TTL dropped), not a leak.
      const growing = last.low > 0;
      out.push(`soak heap after GC, last phase's slope not above zero: ${fixed(last.low, 1)} to ${fixed(last.high, 1)} KiB per 10,000 requests, ${verdict(!growing)}`);
    }
  }
  const growth = results.growth;
  const most = growth?.steps.at(-1);
  const facadeAtMost = most?.targets.facade;
  if (most && facadeAtMost) {
    const mb = (facadeAtMost.rssMiB * 2 ** 20) / 1e6;
    out.push(`RSS after ${most.callers.toLocaleString('en-US')} distinct callers < 300 MB: ${fixed(facadeAtMost.rssMiB, 1)} MiB (${fixed(mb, 0)} MB), ${verdict(mb < 300)}`);
  }
  const lastPhase = growth?.soak?.phases.at(-1);
  if (growth?.soak && lastPhase) {
    // As the soak's: a heap that grows has an interval wholly above zero.
    out.push(
      `heap after GC at ${growth.soak.callers.toLocaleString('en-US')} callers, last soak phase's slope not above zero: ` +
        `${fixed(lastPhase.low, 1)} to ${fixed(lastPhase.high, 1)} KiB per 10,000 requests, ${verdict(!(lastPhase.low > 0))}`,
    );
  }
  return out;
}

/** The doc with the part between its markers replaced by `rendered`. */
export function withReport(doc: string, rendered: string): string {
  const begin = doc.indexOf(BEGIN_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (begin === -1 || end < begin) throw new Error(`docs/performance.md has no ${BEGIN_MARKER} ... ${END_MARKER} section`);
  return `${doc.slice(0, begin + BEGIN_MARKER.length)}\n${rendered}\n${doc.slice(end)}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ options: { write: { type: 'boolean', default: false } }, allowPositionals: true });
  const results = JSON.parse(readFileSync(positionals[0] ?? RESULTS_FILE, 'utf8')) as BenchResults;
  const rendered = renderReport(results);
  if (values.write) writeFileSync(PERFORMANCE_DOC, withReport(readFileSync(PERFORMANCE_DOC, 'utf8'), rendered));
  else console.log(rendered);
}
