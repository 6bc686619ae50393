// Prints the figures of a bench results file (default test/bench/results/latest.json) as the
// Markdown table docs/performance.md quotes: `npx tsx test/bench/report.ts [file]`.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLOOR_TARGET } from './scenarios.js';

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
  /** Sampled during the scenario's rounds; missing in results from before every target was sampled. */
  peakRssMiB?: number;
}
interface ScenarioResult {
  id: string;
  title: string;
  connections: number;
  medians: Record<string, Figures>;
  ratioFacadeToBaseline: Figures;
  ratioFacadeToCompared?: Record<string, Figures>;
  /** Present when the run had the Yoga floor (`--floor`) and the scenario is one it answers. */
  ratioFloorToBaseline?: Figures;
  upstreamCallsPerOperation: Record<string, { readInventory: number; calculateListingFee: number }>;
  minimumUpstreamCalls: { readInventory: number; calculateListingFee: number };
  facadePeakRssMiB: number;
}

const file = process.argv[2] ?? join(resolve(dirname(fileURLToPath(import.meta.url))), 'results/latest.json');
const report = JSON.parse(readFileSync(file, 'utf8')) as {
  date: string;
  commit: string;
  machine: { cores: number; cpuModel: string; memoryGiB: number; node: string };
  settings: { rounds: number; durationS: number; nodeArgs?: Record<string, string[]> };
  scenarios?: ScenarioResult[];
  soak?: { facadeEnv?: Record<string, string>; requests: number; rps: number; peakRssMiB: number; slopeSecondHalfMiBPer10kRequests: number; samples: { requests: number; rssMiB: number }[] };
};

const { machine, settings } = report;
console.log(
  `Taken ${report.date.slice(0, 16).replace('T', ' ')} UTC at commit ${report.commit} on ${machine.cores} × ${machine.cpuModel}, ` +
    `${machine.memoryGiB} GiB, Node ${machine.node}; ${settings.rounds} rounds of ${settings.durationS} s per target and scenario` +
    (settings.nodeArgs?.facade ? `; the facade ran as \`node ${[...settings.nodeArgs.facade, 'dist/main.js'].join(' ')}\`.\n` : '.\n'),
);
console.log('| Scenario | conns | facade req/s | baseline req/s | ratio req/s | facade p50 / p99 ms | baseline p50 / p99 ms | ratio p50 / p99 | CPU ms/req facade / baseline | upstream calls/op (min) | peak RSS facade / baseline |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const s of report.scenarios ?? []) {
  const f = s.medians.facade!;
  const b = s.medians.baseline!;
  const r = s.ratioFacadeToBaseline;
  const calls = s.upstreamCallsPerOperation.facade!;
  const min = s.minimumUpstreamCalls;
  console.log(
    `| (${s.id}) ${s.title} | ${s.connections} | ${f.rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${r.rps.toFixed(2)} | ` +
      `${f.p50.toFixed(1)} / ${f.p99.toFixed(1)} | ${b.p50.toFixed(1)} / ${b.p99.toFixed(1)} | ${r.p50.toFixed(2)} / ${r.p99.toFixed(2)} | ` +
      `${f.cpuMsPerRequest.toFixed(2)} / ${b.cpuMsPerRequest.toFixed(2)} | ` +
      `${calls.readInventory} GET + ${calls.calculateListingFee} POST (${min.readInventory} + ${min.calculateListingFee}) | ` +
      `${s.facadePeakRssMiB.toFixed(0)} / ${b.peakRssMiB === undefined ? '?' : b.peakRssMiB.toFixed(0)} MiB |`,
  );
}
const withFloor = (report.scenarios ?? []).filter((s) => s.ratioFloorToBaseline && s.medians[FLOOR_TARGET]);
if (withFloor.length) {
  console.log('\nThe Yoga floor (`--floor`), medians of per-round ratios in the same run:\n');
  console.log('| Scenario | floor req/s | floor / baseline: req/s, p99, CPU per request | facade / floor: req/s, p99, CPU per request |');
  console.log('|---|---|---|---|');
  for (const s of withFloor) {
    const floor = s.ratioFloorToBaseline!;
    const own = s.ratioFacadeToCompared?.[FLOOR_TARGET];
    const triple = (r: Figures) => `${r.rps.toFixed(2)}, ${r.p99.toFixed(2)}, ${r.cpuMsPerRequest.toFixed(2)}`;
    console.log(`| (${s.id}) | ${s.medians[FLOOR_TARGET]!.rps.toFixed(0)} | ${triple(floor)} | ${own ? triple(own) : '?'} |`);
  }
}
// The performance issue's targets, each checked against this run's figures.
const byId = new Map((report.scenarios ?? []).map((s) => [s.id, s]));
const verdict = (met: boolean) => (met ? 'met' : 'missed');
const targets: string[] = [];
const a = byId.get('a');
if (a) {
  const r = a.ratioFacadeToBaseline;
  targets.push(`(a) req/s ≥ 0.68 × baseline: ${r.rps.toFixed(2)}, ${verdict(r.rps >= 0.68)}`);
  targets.push(`(a) p99 ≤ 1.6 × baseline: ${r.p99.toFixed(2)}, ${verdict(r.p99 <= 1.6)}`);
}
const f = byId.get('f');
if (f) {
  const r = f.ratioFacadeToBaseline;
  const calls = f.upstreamCallsPerOperation.facade!;
  const none = calls.readInventory === 0 && calls.calculateListingFee === 0;
  targets.push(`(f) req/s ≥ 2 × baseline: ${r.rps.toFixed(2)}, ${verdict(r.rps >= 2)}`);
  targets.push(`(f) 0 partner calls per repeated operation: ${calls.readInventory + calls.calculateListingFee}, ${verdict(none)}`);
}
const g = byId.get('g');
if (g) {
  const p50 = g.medians.facade!.p50 - g.medians.baseline!.p50;
  const p99 = g.medians.facade!.p99 - g.medians.baseline!.p99;
  const calls = g.upstreamCallsPerOperation.facade!;
  const atMinimum = calls.readInventory === g.minimumUpstreamCalls.readInventory && calls.calculateListingFee === g.minimumUpstreamCalls.calculateListingFee;
  targets.push(`(g) p50 within 3 ms of the baseline's: ${p50.toFixed(1)} ms, ${verdict(p50 <= 3)}`);
  targets.push(`(g) p99 within 10 ms of the baseline's: ${p99.toFixed(1)} ms, ${verdict(p99 <= 10)}`);
  targets.push(`(g) partner calls per operation at the minimum: ${verdict(atMinimum)}`);
  // What the target asks of the service's own code is only meetable if the floor itself meets it.
  const floor = g.medians[FLOOR_TARGET];
  if (floor) {
    targets.push(
      `(g) the Yoga floor in the same run, for comparison: p50 ${(floor.p50 - g.medians.baseline!.p50).toFixed(1)} ms, ` +
        `p99 ${(floor.p99 - g.medians.baseline!.p99).toFixed(1)} ms from the baseline's`,
    );
  }
}
// (g) at full load is no target of its own: its latency is connections / throughput, (a)'s question.
const full = byId.get('i');
if (full) {
  targets.push(
    `(i), (g) at full load, for comparison: p50 ${(full.medians.facade!.p50 - full.medians.baseline!.p50).toFixed(1)} ms, ` +
      `p99 ${(full.medians.facade!.p99 - full.medians.baseline!.p99).toFixed(1)} ms from the baseline's, req/s ${full.ratioFacadeToBaseline.rps.toFixed(2)} × the baseline's`,
  );
}
// The target is in MB (10^6 bytes), the samples in MiB: 200 MB is 190.7 MiB.
if (report.soak) {
  const peakMB = (report.soak.peakRssMiB * 1024 * 1024) / 1e6;
  targets.push(`soak RSS < 200 MB: peak ${report.soak.peakRssMiB} MiB (${peakMB.toFixed(0)} MB), ${verdict(peakMB < 200)}`);
}
if (targets.length) console.log(`\nTargets, from this run:\n\n${targets.map((t) => `- ${t}`).join('\n')}`);
if (report.soak) {
  const { soak } = report;
  const every = Math.max(1, Math.floor(soak.samples.length / 12));
  const shown = soak.samples.filter((_, i) => i % every === 0 || i === soak.samples.length - 1);
  console.log(
    `\nSoak: ${soak.requests} requests of (e)${soak.facadeEnv ? ` (facade with ${Object.entries(soak.facadeEnv).map(([k, v]) => `${k}=${v}`).join(' ')})` : ''} at ${soak.rps.toFixed(0)} req/s; RSS peak ${soak.peakRssMiB} MiB, ` +
      `second-half slope ${soak.slopeSecondHalfMiBPer10kRequests} MiB per 10,000 requests. RSS (MiB) by requests served: ` +
      shown.map((s) => `${s.requests}: ${s.rssMiB.toFixed(0)}`).join(', '),
  );
}
