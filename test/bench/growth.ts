// Cost as callers grow (issue 53, Must 5): the facade and the Yoga floor, each a fresh process,
// read by requests rotating over 10, then 1,000, then 100,000 distinct callers (each its own
// token; inventories rotating too). After each step: CPU per request (from /proc), RSS, and the
// heap in use after a full collection (through the inspector, heap.ts); what each caller added is
// the difference between two steps over the callers added. Then a soak at 100,000 callers whose
// last phase's heap slope says whether anything still grows once every caller is known.
// `npm run bench -- --growth` runs it (a full run includes it); report.ts renders it.
import { drive } from './drive.js';
import { soakInPhases, type HeapProbe } from './heap.js';
import { cpuMsOf, memoryOf } from './processes.js';
import { rotatingCallersRequests, rotatingCallerToken } from './scenarios.js';
import { median, round } from './stats.js';

/** The distinct callers of each step, each step's including the last's (`--growth-callers` sets others). */
export const GROWTH_CALLERS: readonly number[] = [10, 1_000, 100_000];

/** `--growth-callers`' list: whole numbers, each above the last. */
export function growthCallersOf(text: string): number[] {
  const callers = text.split(',').map(Number);
  if (callers.length < 2 || callers.some((n, i) => !Number.isSafeInteger(n) || n < 1 || (i > 0 && n <= callers[i - 1]!))) {
    throw new Error(`--growth-callers must be two or more rising whole numbers, e.g. 10,1000,100000; got ${text}`);
  }
  return callers;
}
/** Scenario (a-many)'s connections: any 10 requests in a row are of distinct callers and inventories. */
export const GROWTH_CONNECTIONS = 10;
/** The soak at the last step's callers, in phases; the last phase's heap slope is the verdict. */
export const GROWTH_SOAK_PHASES = 3;

/** One target's figures at the end of one step. */
export interface GrowthFigures {
  cpuMsPerRequest: number;
  rps: number;
  p99: number;
  /** RSS after the step's full collection, in MiB. */
  rssMiB: number;
  /** Heap in use after a full collection, in MiB. */
  heapMiB: number;
}
export interface GrowthStep {
  callers: number;
  requests: number;
  targets: Record<string, GrowthFigures>;
}
/** What each caller added between two steps, in bytes. */
export interface PerCaller {
  fromCallers: number;
  toCallers: number;
  heapBytes: number;
  rssBytes: number;
}
export interface HeapPhase {
  samples: number;
  slopeKiBPer10kRequests: number;
  low: number;
  high: number;
}
export interface GrowthResults {
  connections: number;
  steps: GrowthStep[];
  perCaller: Record<string, PerCaller[]>;
  soak?: { target: string; callers: number; requests: number; rps: number; peakRssMiB: number; phases: HeapPhase[] };
}

/** A step sends each of its callers at least once, and at least `minimum` requests. */
export const stepRequestsOf = (callers: number, minimum: number): number => Math.max(callers, minimum);

/**
 * Bytes each new caller added to `target`'s heap and RSS from one step to the next: the
 * difference of the two steps' figures (MiB) over the callers added.
 */
export function perCallerGrowth(steps: readonly GrowthStep[], target: string): PerCaller[] {
  const out: PerCaller[] = [];
  for (let i = 1; i < steps.length; i++) {
    const before = steps[i - 1]!;
    const after = steps[i]!;
    const a = before.targets[target];
    const b = after.targets[target];
    if (!a || !b) continue;
    const added = after.callers - before.callers;
    out.push({
      fromCallers: before.callers,
      toCallers: after.callers,
      heapBytes: Math.round(((b.heapMiB - a.heapMiB) * 2 ** 20) / added),
      rssBytes: Math.round(((b.rssMiB - a.rssMiB) * 2 ** 20) / added),
    });
  }
  return out;
}

/** A process under measurement: its name, pid, URL and a heap probe on its inspector. */
export interface GrowthTarget {
  name: string;
  pid: number;
  url: string;
  probe: HeapProbe;
}

export async function measureGrowth(options: {
  targets: readonly GrowthTarget[];
  /** The distinct callers of each step (GROWTH_CALLERS). */
  callers: readonly number[];
  /** The target the soak runs against (the facade). */
  soakTarget: string;
  /** Requests of a step at the least (stepRequestsOf). */
  minimumRequests: number;
  /** Unmeasured requests of the first step's callers first (JIT, pools). */
  warmupRequests: number;
  /** The soak's requests, all phases together; 0 for none. */
  soakRequests: number;
  log: (line: string) => void;
}): Promise<GrowthResults> {
  const { targets, log } = options;
  const first = options.callers[0]!;
  // A fast wrong answer is not a result: each target answers one growth request with data.
  for (const target of targets) {
    const request = rotatingCallersRequests(first)[0]!;
    const headers = { ...request.headers, authorization: `Bearer ${rotatingCallerToken(request.rotatingCaller!.prefix, 0)}` };
    const response = await fetch(target.url + request.path, { method: request.method, headers, body: request.body });
    const body = (await response.json()) as { data?: unknown; errors?: unknown };
    if (response.status !== 200 || body.errors || !body.data) throw new Error(`growth: ${target.name} failed: ${JSON.stringify(body).slice(0, 500)}`);
  }
  for (const target of targets) await drive(target.url, rotatingCallersRequests(first), GROWTH_CONNECTIONS, { amount: options.warmupRequests });
  const steps: GrowthStep[] = [];
  for (const [index, callers] of options.callers.entries()) {
    const requests = stepRequestsOf(callers, options.minimumRequests);
    const step: GrowthStep = { callers, requests, targets: {} };
    // The order turns each step, so that drift hits both alike.
    const order = targets.map((_, i) => targets[(i + index) % targets.length]!);
    for (const target of order) {
      const cpuBefore = cpuMsOf(target.pid);
      const result = await drive(target.url, rotatingCallersRequests(callers), GROWTH_CONNECTIONS, { amount: requests });
      const cpuMs = cpuMsOf(target.pid) - cpuBefore;
      if (result.non2xx || result.errors) throw new Error(`growth: ${target.name} answered ${result.non2xx} non-2xx and ${result.errors} errors at ${callers} callers`);
      const heap = await target.probe.usedAfterGc();
      step.targets[target.name] = {
        cpuMsPerRequest: round(cpuMs / result.requests, 3),
        rps: result.rps,
        p99: result.p99,
        rssMiB: round(memoryOf(target.pid).rssMiB, 1),
        heapMiB: round(heap / 2 ** 20, 3),
      };
      const f = step.targets[target.name]!;
      log(`growth: ${callers} callers, ${target.name}: ${requests} requests at ${f.rps} req/s, CPU/req ${f.cpuMsPerRequest} ms, RSS ${f.rssMiB} MiB, heap after GC ${f.heapMiB} MiB`);
    }
    steps.push(step);
  }
  const perCaller = Object.fromEntries(targets.map((target) => [target.name, perCallerGrowth(steps, target.name)]));
  const soakTarget = targets.find((target) => target.name === options.soakTarget);
  const soak = soakTarget && options.soakRequests > 0 ? await heapSoak(soakTarget, options.callers.at(-1)!, options.soakRequests, log) : undefined;
  return { connections: GROWTH_CONNECTIONS, steps, perCaller, ...(soak ? { soak } : {}) };
}

/**
 * `requests` requests over `callers` callers already known, in GROWTH_SOAK_PHASES phases, each
 * caller in turn from where the last phase left off; the heap after a full collection sampled each
 * second, and each phase's least-squares slope of it against requests with its 95 % interval.
 */
async function heapSoak(target: GrowthTarget, callers: number, requests: number, log: (line: string) => void) {
  let peakRssMiB = 0;
  const { results, phases } = await soakInPhases(
    target.probe,
    GROWTH_SOAK_PHASES,
    requests,
    (amount, done, count) => drive(target.url, rotatingCallersRequests(callers, done % callers), GROWTH_CONNECTIONS, { amount }, count),
    {
      onSample: () => (peakRssMiB = Math.max(peakRssMiB, memoryOf(target.pid).rssMiB)),
      afterPhase: (phase, done) =>
        log(`growth soak: phase ${phase + 1}/${GROWTH_SOAK_PHASES} at ${callers} callers, ${done} requests, RSS ${round(memoryOf(target.pid).rssMiB, 1)} MiB`),
    },
  );
  return {
    target: target.name,
    callers,
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    rps: round(median(results.map((r) => r.rps)), 1),
    peakRssMiB: round(peakRssMiB, 1),
    phases,
  };
}
