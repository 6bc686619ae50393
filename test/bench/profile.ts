// `npx tsx test/bench/profile.ts`: where each target's CPU time goes in one bench scenario, from
// V8's sampling profiler (`node --cpu-prof`), per request and side by side: the facade as
// `npm run start:prod` runs it, the Yoga floor (in the scenarios it answers) and the baseline.
// Instruction counts (instructions.sh) are steadier but blind to cache misses and to the time a
// collection takes; a profile shows the time itself, split by package and function.
//
// Each target gets the CPU alone in turn: warm-up, then the counted requests. Only samples taken
// between the counted run's first and last request are kept: V8's profile timestamps and this
// process's `process.hrtime` read the same monotonic clock (Linux). The facade first answers the
// hundred-fee operations, as in the bench (a facade that has served large operations stays in
// another state). The partner body's `JSON.parse` has no frame of its own in a sampling profile: it
// counts as the self time of its caller (undici's `consumeEnd` in every target, or the facade's
// `readCapped` for a body streamed without a length). V8's `--trace-gc-nvp` lines of the counted
// requests give what each target allocates and what survives a scavenge and is promoted to the old
// generation, per request: promoted objects are what the collector's helper threads mark and sweep
// later, off the main thread. A tool for finding costs, not a benchmark; it asserts nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_APP_KEY } from '../../src/simulator/data.js';
import { productionCommand } from '../support/production-command.js';
import { drive } from './drive.js';
import { killAllNow, runTool, startBaseline, startBenchFacade, startFloor, startSimulatorProcess, stopAll, type Child } from './processes.js';
import { buildScenarios, FLOOR_SCENARIOS, FLOOR_TARGET, floorEnvOf, hundredFeesRequest, nodeFlagsOf, trustedDocumentsManifest, type ScenarioId } from './scenarios.js';
import { round } from './stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'a' },
    requests: { type: 'string', default: '30000' },
    'warmup-requests': { type: 'string', default: '5000' },
    // More Node flags for the facade, after start:prod's (a V8 flag given again takes the later value).
    'facade-node-options': { type: 'string', default: '' },
    top: { type: 'string', default: '25' },
    // Not into results/, which keeps only the latest bench run.
    out: { type: 'string', default: join(tmpdir(), 'tradegraph-profile.json') },
  },
});

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Busy ms per request of one target, by group (package, the service's own code, GC, ...) and by function. */
interface Split {
  busyMsPerRequest: number;
  gc: GcPerRequest;
  groups: Record<string, number>;
  functions: Record<string, number>;
}

/** The collector's work during the counted requests, from V8's `--trace-gc-nvp` lines. */
interface GcPerRequest {
  scavenges: number;
  fullCollections: number;
  allocatedKiB: number;
  survivedScavengeKiB: number;
  promotedKiB: number;
}

function gcPerRequest(lines: string[], requests: number): GcPerRequest {
  let scavenges = 0;
  let full = 0;
  let allocated = 0;
  let survived = 0;
  let promoted = 0;
  for (const line of lines) {
    const fields = gcFields(line);
    if (!fields) continue;
    if (fields.gc === 's') {
      scavenges++;
      allocated += Number(fields.allocated ?? 0);
      survived += Number(fields.new_space_survived ?? 0);
      promoted += Number(fields.promoted ?? 0);
    } else full++;
  }
  const kib = (bytes: number) => round(bytes / 1024 / requests, 2);
  return { scavenges, fullCollections: full, allocatedKiB: kib(allocated), survivedScavengeKiB: kib(survived), promotedKiB: kib(promoted) };
}

/**
 * One `--trace-gc-nvp` line's fields: Node 26's V8 prints them as JSON after `GC: `, earlier ones
 * as `name=value` pairs. Null for a line that is no collection.
 */
function gcFields(line: string): Record<string, string | number | boolean> | null {
  const json = line.indexOf('GC: {');
  if (json !== -1) {
    try {
      return JSON.parse(line.slice(json + 4)) as Record<string, string | number | boolean>;
    } catch {
      return null;
    }
  }
  if (!/\bgc=\w/.test(line)) return null;
  return Object.fromEntries([...line.matchAll(/\b(\w+)=([^ ]+)/g)].map(([, name, value]) => [name!, value!]));
}

/** What a sample's frame belongs to: a package, the service's own code, Node's internals, or V8's own entries. */
function groupOf(url: string, functionName: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes('/dist/') || url.includes('/src/') || url.includes('/test/bench/')) return 'own code';
  if (functionName.startsWith('(')) return functionName;
  return 'native';
}

function split(profile: CpuProfile, fromUs: number, toUs: number, requests: number, gcLines: string[]): Split {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < fromUs || at > toUs) continue;
    const frame = byId.get(profile.samples[i]!)!;
    if (frame.functionName === '(idle)') continue;
    const us = profile.timeDeltas[i + 1] ?? 0;
    busy += us;
    const group = groupOf(frame.url, frame.functionName);
    groups.set(group, (groups.get(group) ?? 0) + us);
    // The service's own functions by name alone (the facade runs bundled, the floor from source),
    // but for anonymous ones, which only their place tells apart.
    const place = `${frame.url.replace(/^.*(node_modules|dist|src|test)\//, '$1/')}:${frame.lineNumber + 1}`;
    const where = group === 'own code' ? (frame.functionName ? '(own code)' : `(own code, ${place})`) : frame.url ? place.replace(/^node_modules\//, '') : '';
    const name = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const perRequest = (us: number) => round(us / 1000 / requests, 4);
  const sorted = (map: Map<string, number>) => Object.fromEntries([...map].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, perRequest(v)]));
  return { busyMsPerRequest: perRequest(busy), gc: gcPerRequest(gcLines, requests), groups: sorted(groups), functions: sorted(functions) };
}

/** The main thread's profile of a process (a loader thread, as tsx starts one, writes its own). */
function mainThreadProfile(dir: string, pid: number): CpuProfile {
  const file = readdirSync(dir).find((name) => name.includes(`.${pid}.0.`));
  if (!file) throw new Error(`no main-thread profile of pid ${pid} in ${dir}`);
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function main(): Promise<void> {
  const scenario = buildScenarios().find((s) => s.id === args.scenario);
  if (!scenario || scenario.offeredRate) throw new Error(`--scenario must be a closed-load scenario, not ${args.scenario}`);
  const requests = Number(args.requests);
  const warmup = Number(args['warmup-requests']);
  const dir = mkdtempSync(join(tmpdir(), 'tradegraph-profile-'));
  process.once('exit', () => {
    killAllNow();
    rmSync(dir, { recursive: true, force: true });
  });
  const prod = productionCommand(ROOT)!;
  // Flags given here go after start:prod's own, so that a flag given again wins, as in the bench.
  const facadeNodeArgs = [...prod.nodeArgs, ...nodeFlagsOf(args['facade-node-options'])];
  const manifestPath = join(dir, 'persisted-documents.json');
  writeFileSync(manifestPath, JSON.stringify(trustedDocumentsManifest()));
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const profiled = (name: string) => ['--cpu-prof', `--cpu-prof-dir=${join(dir, name)}`, '--trace-gc-nvp'];
  // The GC lines of the target being counted, while it is counted.
  let counting: string[] | null = null;
  const gcLines = new Map<string, string[]>();
  // Output arrives in chunks that may end mid-line: a line is kept once its newline has come.
  const partial = new Map<string, string>();
  const hearGc = (name: string) => (text: string) => {
    const lines = ((partial.get(name) ?? '') + text).split('\n');
    partial.set(name, lines.pop()!);
    if (counting) counting.push(...lines.filter((line) => line.includes(' gc=') || line.includes('GC: {')));
  };

  const simulator = await startSimulatorProcess(ROOT, scenario.simulatorLatencyMs);
  const targets: { name: string; child: Child; facade: boolean }[] = [];
  targets.push({
    name: 'facade',
    facade: true,
    // (f)'s facade is one of its own, with the response cache on.
    child: await startBenchFacade(ROOT, prod.entry, simulator.url, manifestPath, {
      env: scenario.facadeEnv,
      execArgv: [...facadeNodeArgs, ...profiled('facade')],
      onStdout: hearGc('facade'),
    }),
  });
  if (FLOOR_SCENARIOS.has(scenario.id as ScenarioId)) {
    targets.push({
      name: FLOOR_TARGET,
      facade: false,
      // Under start:prod's flags and with the scenario's own floor environment (Yoga's response
      // cache in (f)) and the manifest (Yoga's persisted operations in (ad)), as in the bench.
      child: await startFloor(ROOT, FLOOR_TARGET, simulator.url, DEMO_APP_KEY, {
        execArgv: [...prod.nodeArgs, ...profiled(FLOOR_TARGET)],
        onStdout: hearGc(FLOOR_TARGET),
        env: floorEnvOf(scenario, manifestPath),
      }),
    });
  }
  targets.push({
    name: 'baseline',
    facade: false,
    child: await startBaseline(ROOT, simulator.url, DEMO_APP_KEY, { execArgv: profiled('baseline'), onStdout: hearGc('baseline') }),
  });

  const windows = new Map<string, { fromUs: number; toUs: number; pid: number }>();
  for (const target of targets) {
    const own = target.name === 'baseline' ? scenario.baseline : scenario.facade;
    if (target.facade) {
      const fees = hundredFeesRequest();
      for (let i = 0; i < 5; i++) await (await fetch(target.child.url + fees.path, { method: fees.method, headers: fees.headers, body: fees.body })).arrayBuffer();
    }
    await drive(target.child.url, own, scenario.connections, { amount: warmup });
    counting = [];
    gcLines.set(target.name, counting);
    const fromUs = nowUs();
    const result = await drive(target.child.url, own, scenario.connections, { amount: requests });
    windows.set(target.name, { fromUs, toUs: nowUs(), pid: target.child.process.pid! });
    // A line written at the window's end may still be on its way.
    await new Promise((resolve) => setTimeout(resolve, 200));
    counting = null;
    if (result.non2xx || result.errors) throw new Error(`${target.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    console.log(`${target.name}: ${requests} requests of (${scenario.id}) counted`);
  }
  await stopAll(10_000);

  const splits: Record<string, Split> = {};
  for (const [name, { fromUs, toUs, pid }] of windows) splits[name] = split(mainThreadProfile(join(dir, name), pid), fromUs, toUs, requests, gcLines.get(name)!);
  writeFileSync(
    args.out,
    `${JSON.stringify({ date: new Date().toISOString(), scenario: scenario.id, requests, warmupRequests: warmup, facadeNodeArgs, unit: 'busy ms of the main thread per request', targets: splits }, null, 2)}\n`,
  );

  const names = Object.keys(splits);
  const cell = (name: string, key: string, of: 'groups' | 'functions') => (splits[name]![of][key] ?? 0).toFixed(4);
  console.log(`\n(${scenario.id}), busy ms of the main thread per request: ${names.map((n) => `${n} ${splits[n]!.busyMsPerRequest}`).join(', ')}\n`);
  console.log('The collector, per request of the counted run:\n');
  console.log('| target | scavenges | full collections | allocated KiB | survived a scavenge KiB | promoted KiB |\n|---|---|---|---|---|---|');
  for (const n of names) {
    const gc = splits[n]!.gc;
    console.log(`| ${n} | ${gc.scavenges} | ${gc.fullCollections} | ${gc.allocatedKiB} | ${gc.survivedScavengeKiB} | ${gc.promotedKiB} |`);
  }
  console.log('');
  const other = names.includes(FLOOR_TARGET) ? FLOOR_TARGET : 'baseline';
  for (const of of ['groups', 'functions'] as const) {
    const keys = [...new Set(names.flatMap((n) => Object.keys(splits[n]![of])))];
    const gap = (key: string) => (splits.facade![of][key] ?? 0) - (splits[other]![of][key] ?? 0);
    keys.sort((x, y) => Math.abs(gap(y)) - Math.abs(gap(x)));
    console.log(`${of === 'groups' ? 'By group' : 'By function'}, largest differences facade − ${other} first:\n`);
    console.log(`| ${of === 'groups' ? 'group' : 'function'} | ${names.join(' | ')} |\n|---|${names.map(() => '---').join('|')}|`);
    for (const key of keys.slice(0, Number(args.top))) console.log(`| ${key} | ${names.map((n) => cell(n, key, of)).join(' | ')} |`);
    console.log('');
  }
  console.log(`written to ${args.out}`);
}

runTool(main);
