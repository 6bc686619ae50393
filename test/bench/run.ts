// `npm run bench`: the facade against a hand-written baseline over the same partner simulator,
// each its own process, driven by autocannon in alternating rounds; prints medians and ratios per
// scenario, counts upstream calls per operation and writes test/bench/results/latest.json.
// `npm run bench -- --soak` also runs 100,000 requests of scenario (e) and samples the facade's RSS
// (the facade with the response cache on, as scenario (f) runs it).
// A benchmark, not a test: nothing here fails on a figure; it reports them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { DEMO_APP_KEY } from '../../src/simulator/data.js';
import { cpuMsOf, freePort, killAllNow, memoryOf, sampleRss, startBaseline, startFloor, startNode, startSimulatorProcess, stopAll, type Child } from './processes.js';
import { productionCommand, type ProductionCommand } from '../support/production-command.js';
import {
  benchFacadeEnv,
  buildScenarios,
  FLOOR_SCENARIOS,
  FLOOR_TARGET,
  hundredFeesRequest,
  LISTING_FEE_BATCH_MAX,
  nodeFlagsOf,
  PEER_SCENARIOS,
  PEER_TARGET,
  trustedDocumentsManifest,
  type BenchRequest,
  type Scenario,
} from './scenarios.js';
import { drive, type RoundResult } from './drive.js';
import { drivePaced } from './paced.js';
import { atMinimum, type Calls, type Figures } from './report.js';
import { median, ratio, round, slope } from './stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Checkouts made for --compare; removed however the run ends. */
const tempDirs: string[] = [];

const { values: args } = parseArgs({
  options: {
    soak: { type: 'boolean', default: false },
    'soak-only': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '3' },
    scenarios: { type: 'string', default: 'a,a32,ad,b,c,d,e,f,g,i' },
    // Another revision of the facade, run side by side as a third target (e.g. HEAD~1), so that
    // one run measures what a change gained.
    compare: { type: 'string', multiple: true, default: [] },
    // Another revision with the environment of the scenarios that have one (the response cache's),
    // side by side in those scenarios only.
    'compare-own-env': { type: 'string', multiple: true, default: [] },
    // This revision again with other Node flags (e.g. a heap limit), as one more target.
    'compare-node-options': { type: 'string', multiple: true, default: [] },
    // This revision again without one of start:prod's flags (named without its value, e.g.
    // --max-old-space-size), so that V8's default is measured against it side by side.
    'compare-without-flag': { type: 'string', multiple: true, default: [] },
    // This revision's bundle and flags again on another Node binary (e.g. an older LTS installed
    // from the registry's `node` package into a scratch directory), as one more target.
    'compare-node-binary': { type: 'string', multiple: true, default: [] },
    // The Yoga floor (test/bench/yoga-floor.ts) as one more target, in the scenarios it answers
    // (--no-floor leaves it out).
    floor: { type: 'boolean', default: true },
    // The peer, Apollo Server with a RESTDataSource (test/bench/apollo-peer.ts), in (a) and (a32)
    // (--no-peer leaves it out).
    peer: { type: 'boolean', default: true },
    out: { type: 'string', default: join(ROOT, 'test/bench/results/latest.json') },
    'soak-requests': { type: 'string', default: String(100_000) },
    // Requests each target gets of each scenario before the measured rounds.
    'warmup-requests': { type: 'string', default: String(5_000) },
    // Extra Node flags for the facade processes only (e.g. GC settings under study).
    'facade-node-options': { type: 'string', default: '' },
  },
  allowNegative: true,
});
const ROUNDS = Number(args.rounds);
const DURATION_S = Number(args.duration);
const SOAK_REQUESTS = Number(args['soak-requests']);
const WARMUP_REQUESTS = Number(args['warmup-requests']);

interface Target {
  name: string;
  child: Child;
  /**
   * A facade answers GraphQL, the baseline plain requests, the floor GraphQL in FLOOR_SCENARIOS,
   * the peer (a)'s query.
   */
  kind: 'facade' | 'baseline' | 'floor' | 'peer';
  /** Node's flags for the process (a facade's are start:prod's, then any given to the bench). */
  nodeArgs: string[];
  /** Runs with the environment of the scenarios that have one, and only in those. */
  ownEnv?: boolean;
}

/** The pause before each target's round (see the rounds below). */
const SETTLE_MS = 1_000;
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, SETTLE_MS));

async function post(url: string, request: BenchRequest): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url + request.path, { method: request.method, headers: request.headers, body: request.body });
  return { status: response.status, body: await response.json() };
}

interface UpstreamCount extends Calls {
  feeBatchSizes: number[];
}

/**
 * Sends `ops` operations at once and answers the partner calls they cost, per operation. Repeated
 * operations are counted after one of each request has been answered (and cached).
 */
async function countUpstream(
  simulatorUrl: string,
  targetUrl: string,
  requests: BenchRequest[],
  ops: number,
  repeated = false,
): Promise<UpstreamCount> {
  if (repeated) for (const request of requests) await post(targetUrl, request);
  await fetch(`${simulatorUrl}/__simulator/reset`, { method: 'POST' }).then((r) => r.arrayBuffer());
  const answers = await Promise.all(Array.from({ length: ops }, (_, i) => post(targetUrl, requests[i % requests.length]!)));
  for (const answer of answers) {
    const errors = (answer.body as { errors?: unknown }).errors;
    if (answer.status !== 200 || errors) throw new Error(`counting upstream calls: an operation failed: ${JSON.stringify(answer.body).slice(0, 500)}`);
  }
  const { calls } = (await (await fetch(`${simulatorUrl}/__simulator/calls`)).json()) as {
    calls: Array<{ operation: string; batchSize?: number }>;
  };
  const of = (operation: string) => calls.filter((call) => call.operation === operation);
  return {
    readInventory: round(of('readInventory').length / ops, 3),
    calculateListingFee: round(of('calculateListingFee').length / ops, 3),
    feeBatchSizes: [...new Set(of('calculateListingFee').map((call) => call.batchSize ?? 0))].sort((a, b) => a - b),
  };
}

/** The facade's `data` must equal the baseline's answer: both serve the same page, same fields. */
async function checkSameAnswer(scenario: Scenario, facade: Target, baseline: Target): Promise<void> {
  const a = await post(facade.child.url, scenario.facade[0]!);
  const b = await post(baseline.child.url, scenario.baseline[0]!);
  if (a.status !== 200 || (a.body as { errors?: unknown }).errors) {
    throw new Error(`scenario ${scenario.id}: the facade failed: ${JSON.stringify(a.body).slice(0, 500)}`);
  }
  if (!isDeepStrictEqual(a.body, b.body)) {
    throw new Error(
      `scenario ${scenario.id}: facade and baseline answer differently:\n${JSON.stringify(a.body).slice(0, 400)}\n${JSON.stringify(b.body).slice(0, 400)}`,
    );
  }
}

/** Extracts the facade's sources at a git revision into a temporary directory that shares node_modules. */
function checkoutRevision(ref: string): { dir: string; sha: string } {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), `tradegraph-bench-${sha}-`));
  const archive = execFileSync('git', ['archive', ref, 'src', 'schema', 'package.json'], { cwd: ROOT });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, sha };
}

function machine() {
  const cores = cpus();
  return {
    cores: cores.length,
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    // How busy the shared machine was: the figures of a run are only as steady as this.
    loadAverage: { atStart: loadavg().map((value) => round(value, 2)), atEnd: [] as number[] },
  };
}

function gitCommit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    // What the facade runs: its sources, and package.json, whose start:prod flags it runs with.
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'package.json'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}

/** Each checkout is built once, however many targets run it (this revision with other flags, the floor's flags). */
const builds = new Map<string, ProductionCommand>();

/**
 * The facade runs as production runs it: `npm run build`, then `npm run start:prod`'s Node flags
 * and bundle (read from that checkout's package.json), not under tsx (whose transpiled sources and
 * source maps take memory that production does not spend). A checkout without a build script runs
 * under tsx.
 */
function buildForProduction(cwd: string): ProductionCommand {
  let built = builds.get(cwd);
  if (built) return built;
  // start:prod runs the bundle the build script makes: a checkout has both or neither.
  const command = productionCommand(cwd);
  if (command) execFileSync('npm', ['run', '--silent', 'build'], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  built = command ?? { entry: 'src/main.ts', nodeArgs: [] };
  builds.set(cwd, built);
  return built;
}

async function main(): Promise<void> {
  const wanted = new Set(args.scenarios.split(','));
  const scenarios = buildScenarios().filter((scenario) => wanted.has(scenario.id));
  const info = machine();
  console.log(`tradegraph bench on ${info.cores} x ${info.cpuModel}, Node ${info.node}, commit ${gitCommit()}`);

  const simulator = await startSimulatorProcess(ROOT);
  // Every facade knows (a)'s query as a trusted document, for scenario (ad); text still runs.
  const manifestDir = mkdtempSync(join(tmpdir(), 'tradegraph-bench-manifest-'));
  tempDirs.push(manifestDir);
  const manifestPath = join(manifestDir, 'persisted-documents.json');
  writeFileSync(manifestPath, JSON.stringify(trustedDocumentsManifest()));
  const facadeEnv = (port: number, extra: Record<string, string> = {}) => benchFacadeEnv(port, simulator.url, manifestPath, extra);
  // Extra Node flags go after start:prod's own, so that a flag given here wins over the same flag there.
  const startFacade = async (
    name: string,
    cwd: string,
    nodeOptions = args['facade-node-options'],
    env: Record<string, string> = {},
    variant: { withoutFlag?: string; nodeBinary?: string } = {},
  ): Promise<Target> => {
    const port = await freePort();
    const { entry: script, nodeArgs } = buildForProduction(cwd);
    const kept = nodeArgs.filter((arg) => arg.split('=')[0] !== variant.withoutFlag);
    if (variant.withoutFlag && kept.length === nodeArgs.length) throw new Error(`start:prod has no flag ${variant.withoutFlag}`);
    const execArgv = [...kept, ...nodeFlagsOf(nodeOptions)];
    const child = await startNode({ name, cwd, script, port, env: facadeEnv(port, env), readyPath: '/health', execArgv, nodeBinary: variant.nodeBinary });
    return { name, child, kind: 'facade', nodeArgs: execArgv };
  };
  const facade = await startFacade('facade', ROOT);
  // The facade of scenarios with an environment of their own (the response cache's), also the
  // soak's; it shares the name `facade` in their figures. One such environment is supported.
  const ownEnv = buildScenarios().find((scenario) => scenario.facadeEnv)!.facadeEnv!;
  const ownEnvFacade =
    args.soak || args['soak-only'] || scenarios.some((scenario) => scenario.facadeEnv)
      ? await startFacade('facade', ROOT, undefined, ownEnv)
      : null;
  const facadeOf = (scenario: Scenario) => (scenario.facadeEnv ? ownEnvFacade! : facade);
  // The environment of the floor beside that facade, when the floor runs in such a scenario.
  const floorEnv = args.floor ? scenarios.find((scenario) => scenario.floorEnv && FLOOR_SCENARIOS.has(scenario.id))?.floorEnv : undefined;
  const baseline: Target = {
    name: 'baseline',
    kind: 'baseline',
    nodeArgs: [],
    child: await startBaseline(ROOT, simulator.url, DEMO_APP_KEY),
  };
  const compared: Target[] = [];
  for (const ref of args.compare) {
    const { dir, sha } = checkoutRevision(ref);
    tempDirs.push(dir);
    compared.push(await startFacade(`facade@${sha}`, dir));
  }
  for (const ref of args['compare-own-env']) {
    const { dir, sha } = checkoutRevision(ref);
    tempDirs.push(dir);
    compared.push({ ...(await startFacade(`facade@${sha}`, dir, undefined, ownEnv)), ownEnv: true });
  }
  for (const nodeOptions of args['compare-node-options']) {
    compared.push(await startFacade(`facade[${nodeOptions}]`, ROOT, nodeOptions));
  }
  for (const flag of args['compare-without-flag']) {
    compared.push(await startFacade(`facade[without ${flag}]`, ROOT, undefined, {}, { withoutFlag: flag }));
  }
  for (const nodeBinary of args['compare-node-binary']) {
    const version = execFileSync(nodeBinary, ['--version'], { encoding: 'utf8' }).trim();
    compared.push(await startFacade(`facade[node ${version}]`, ROOT, undefined, {}, { nodeBinary }));
  }
  if (args.floor) {
    // Under start:prod's Node flags, as the facade: its young generation and heap limit set the
    // collector's share of a request, and the floor is there to tell the service's code apart.
    const { nodeArgs } = buildForProduction(ROOT);
    if (scenarios.some((scenario) => !scenario.facadeEnv && FLOOR_SCENARIOS.has(scenario.id))) {
      compared.push({ name: FLOOR_TARGET, kind: 'floor', nodeArgs, child: await startFloor(ROOT, FLOOR_TARGET, simulator.url, DEMO_APP_KEY, { execArgv: nodeArgs }) });
    }
    // The floor of the scenarios with an environment of their own (Yoga's response cache for (f)),
    // under the same name: no scenario has both floors.
    if (floorEnv) {
      const child = await startFloor(ROOT, FLOOR_TARGET, simulator.url, DEMO_APP_KEY, { execArgv: nodeArgs, env: floorEnv });
      compared.push({ name: FLOOR_TARGET, kind: 'floor', nodeArgs, child, ownEnv: true });
    }
  }
  if (args.peer) {
    const port = await freePort();
    compared.push({
      name: PEER_TARGET,
      kind: 'peer',
      nodeArgs: [],
      child: await startNode({
        name: PEER_TARGET,
        cwd: ROOT,
        script: 'test/bench/apollo-peer.ts',
        port,
        env: { NODE_ENV: 'production', PEER_PORT: String(port), PARTNER_API_URL: simulator.url },
        // Apollo Server has no health route; its docs' check is this query, with a header that passes CSRF prevention.
        readyPath: '/?query=%7B__typename%7D',
        readyHeaders: { 'apollo-require-preflight': 'true' },
      }),
    });
  }
  const targets = [facade, baseline, ...compared];
  const requestsOf = (target: Target, scenario: Scenario) => (target.kind === 'baseline' ? scenario.baseline : scenario.facade);
  // A scenario with a facade of its own compares it with the baseline and the revisions compared with that environment.
  const targetsOf = (scenario: Scenario) =>
    scenario.facadeEnv
      ? [facadeOf(scenario), baseline, ...compared.filter((t) => t.ownEnv && (t.kind !== 'floor' || FLOOR_SCENARIOS.has(scenario.id)))]
      : targets.filter(
          (t) =>
            !t.ownEnv && (t.kind !== 'floor' || FLOOR_SCENARIOS.has(scenario.id)) && (t.kind !== 'peer' || PEER_SCENARIOS.has(scenario.id)),
        );
  /** The simulator's latency for a scenario's rounds and warm-up; back to none afterwards. */
  const simulatorLatency = (latencyMs: number) =>
    fetch(`${simulator.url}/__simulator/configure`, { method: 'POST', body: JSON.stringify({ latencyMs }) }).then((r) => r.arrayBuffer());

  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine: info,
    settings: { rounds: ROUNDS, durationS: DURATION_S, warmupRequests: WARMUP_REQUESTS, facadeNodeOptions: args['facade-node-options'], listingFeeBatchMax: LISTING_FEE_BATCH_MAX, order: targets.map((t) => t.name), nodeArgs: Object.fromEntries(targets.map((t) => [t.name, t.nodeArgs])), ...(ownEnvFacade ? { ownEnvFacadeEnv: ownEnv } : {}), ...(floorEnv ? { ownEnvFloorEnv: floorEnv } : {}) },
  };

  if (!args['soak-only']) {
    // Correctness first: a fast wrong answer is not a result.
    for (const scenario of scenarios) {
      for (const target of targetsOf(scenario)) if (target !== baseline) await checkSameAnswer(scenario, target, baseline);
    }
    console.log('answers: facade data equals the baseline answer in every scenario');

    // Upstream calls per operation, 20 operations at once (so per-request loaders are shown not to
    // merge across operations), plus 100 listingFee fields to show the chunking.
    const upstream: Record<string, Record<string, UpstreamCount>> = {};
    for (const scenario of scenarios) {
      upstream[scenario.id] = {};
      for (const target of targetsOf(scenario)) {
        upstream[scenario.id]![target.name] = await countUpstream(
          simulator.url,
          target.child.url,
          requestsOf(target, scenario),
          20,
          scenario.repeated && target.kind !== 'baseline',
        );
        // The floor is the least a facade can cost only while it makes the least calls: its fee
        // loader must batch, and its response cache must answer, or its figures are of something else.
        const calls = upstream[scenario.id]![target.name]!;
        if (target.kind === 'floor' && !atMinimum(calls, scenario.minimumUpstream)) {
          throw new Error(`scenario ${scenario.id}: the floor made ${JSON.stringify(calls)} partner calls per operation, not the least (${JSON.stringify(scenario.minimumUpstream)})`);
        }
      }
    }
    // Every facade target answers these too, not only the one reported: a facade that has served
    // large operations runs the rest of the bench in another state (V8's allocation-site
    // pretenuring decides on them), and side by side targets must be in the same one.
    const hundredFees = await countUpstream(simulator.url, facade.child.url, [hundredFeesRequest()], 5);
    for (const target of compared) if (target.kind === 'facade') await countUpstream(simulator.url, target.child.url, [hundredFeesRequest()], 5);

    // Warm-up (JIT, pools, caches), not measured: the rounds measure the steady state a
    // long-running service is in. V8 keeps optimising the facade's larger code for its first few
    // thousand requests (node --trace-opt shows it), so the warm-up is a request count, not a second.
    for (const scenario of scenarios) {
      await simulatorLatency(scenario.simulatorLatencyMs ?? 0);
      for (const target of targetsOf(scenario)) {
        await drive(target.child.url, requestsOf(target, scenario), scenario.connections, { amount: WARMUP_REQUESTS });
      }
    }
    await simulatorLatency(0);

    const results = [];
    for (const scenario of scenarios) {
      const scenarioTargets = targetsOf(scenario);
      const scenarioFacade = facadeOf(scenario);
      await simulatorLatency(scenario.simulatorLatencyMs ?? 0);
      const rounds: Record<string, RoundResult[]> = Object.fromEntries(scenarioTargets.map((t) => [t.name, []]));
      const rssPeaks: Record<string, number[]> = Object.fromEntries(scenarioTargets.map((t) => [t.name, []]));
      for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
        // Every target gets every round, so drift hits all alike; the order turns each round (A B,
        // B A, ...) and each target starts after a pause, so that the garbage collection and
        // compilation a target still does after its own round land in no other target's round.
        const order = scenarioTargets.map((_, i) => scenarioTargets[(i + roundIndex) % scenarioTargets.length]!);
        for (const target of order) {
          await settle();
          const sampler = sampleRss(target.child.process.pid!, 200);
          const cpuBefore = cpuMsOf(target.child.process.pid!);
          const simulatorCpuBefore = cpuMsOf(simulator.process.pid!);
          const result: RoundResult = scenario.offeredRate
            ? await drivePaced(target.child.url, requestsOf(target, scenario), scenario.connections, scenario.offeredRate, DURATION_S, roundIndex + 1)
            : await drive(target.child.url, requestsOf(target, scenario), scenario.connections, { durationS: DURATION_S });
          result.cpuMsPerRequest = round((cpuMsOf(target.child.process.pid!) - cpuBefore) / result.requests, 3);
          result.simulatorCpuMsPerRequest = round((cpuMsOf(simulator.process.pid!) - simulatorCpuBefore) / result.requests, 3);
          rssPeaks[target.name]!.push(Math.max(...sampler.stop()));
          rounds[target.name]!.push(result);
        }
      }
      const medians = Object.fromEntries(
        scenarioTargets.map((t) => {
          const list = rounds[t.name]!;
          return [
            t.name,
            {
              rps: round(median(list.map((r) => r.rps)), 1),
              p50: round(median(list.map((r) => r.p50)), 3),
              p99: round(median(list.map((r) => r.p99)), 3),
              cpuMsPerRequest: round(median(list.map((r) => r.cpuMsPerRequest!)), 3),
              simulatorCpuMsPerRequest: round(median(list.map((r) => r.simulatorCpuMsPerRequest!)), 3),
              // The highest RSS sampled (every 200 ms) during this scenario's rounds.
              peakRssMiB: round(Math.max(...rssPeaks[t.name]!), 1),
            },
          ];
        }),
      );
      // The ratio of each round's pair, then the median: robust against one noisy round.
      await simulatorLatency(0);
      const pairRatios = (other: string, of = scenarioFacade.name) => {
        const a = rounds[of]!;
        const b = rounds[other]!;
        return {
          rps: round(median(a.map((r, i) => ratio(r.rps, b[i]!.rps))), 3),
          p50: round(median(a.map((r, i) => ratio(r.p50, b[i]!.p50))), 3),
          p99: round(median(a.map((r, i) => ratio(r.p99, b[i]!.p99))), 3),
          cpuMsPerRequest: round(median(a.map((r, i) => ratio(r.cpuMsPerRequest!, b[i]!.cpuMsPerRequest!))), 3),
        };
      };
      const entry = {
        id: scenario.id,
        title: scenario.title,
        connections: scenario.connections,
        medians,
        ratioFacadeToBaseline: pairRatios(baseline.name),
        ...(scenario.facadeEnv ? { facadeEnv: scenario.facadeEnv } : {}),
        ...(scenario.simulatorLatencyMs ? { simulatorLatencyMs: scenario.simulatorLatencyMs } : {}),
        ...(scenario.offeredRate ? { offeredRate: scenario.offeredRate } : {}),
        ratioFacadeToCompared: Object.fromEntries(
          compared.filter((c) => scenarioTargets.includes(c)).map((c) => [c.name, pairRatios(c.name)]),
        ),
        ...(rounds[FLOOR_TARGET] ? { ratioFloorToBaseline: pairRatios(baseline.name, FLOOR_TARGET) } : {}),
        upstreamCallsPerOperation: upstream[scenario.id],
        minimumUpstreamCalls: scenario.minimumUpstream,
        facadePeakRssMiB: medians[scenarioFacade.name]!.peakRssMiB,
        rounds,
      };
      results.push(entry);
      printScenario(entry, scenarioTargets);
    }
    report.scenarios = results;
    report.hundredListingFees = {
      note: `100 listingFee fields in one operation; minimum ceil(100 / ${LISTING_FEE_BATCH_MAX}) = ${Math.ceil(100 / LISTING_FEE_BATCH_MAX)} fee POSTs`,
      ...hundredFees,
    };
    console.log(
      `\n100 listingFee fields in one operation: ${hundredFees.readInventory} GET + ${hundredFees.calculateListingFee} fee POSTs per operation (batch sizes ${hundredFees.feeBatchSizes.join(', ')})`,
    );
  }

  if (ownEnvFacade && (args.soak || args['soak-only'])) {
    report.soak = { facadeEnv: ownEnv, ...(await soak(simulator.url, ownEnvFacade, buildScenarios().find((s) => s.id === 'e')!)) };
  }
  // The highest of the facade processes'.
  report.facadeLifetimePeakRssMiB = round(
    Math.max(...[facade, ownEnvFacade].flatMap((target) => (target ? [memoryOf(target.child.process.pid!).peakRssMiB] : []))),
    1,
  );

  info.loadAverage.atEnd = loadavg().map((value) => round(value, 2));
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nfacade lifetime peak RSS ${report.facadeLifetimePeakRssMiB} MiB; results written to ${args.out}`);
}

/** SOAK_REQUESTS (100,000) requests of scenario (e) against the facade alone, RSS sampled each second. */
async function soak(simulatorUrl: string, facade: Target, scenario: Scenario) {
  console.log(`\nsoak: ${SOAK_REQUESTS} requests of scenario (e) against the facade, RSS sampled every second`);
  const pid = facade.child.process.pid!;
  let done = 0;
  const samples: Array<{ seconds: number; requests: number; rssMiB: number }> = [];
  const started = Date.now();
  const take = () => samples.push({ seconds: round((Date.now() - started) / 1000, 1), requests: done, rssMiB: round(memoryOf(pid).rssMiB, 1) });
  take();
  const timer = setInterval(take, 1000);
  // The simulator keeps a bounded list of call records; start it from empty.
  await fetch(`${simulatorUrl}/__simulator/reset`, { method: 'POST' }).then((r) => r.arrayBuffer());
  const result = await drive(facade.child.url, scenario.facade, scenario.connections, { amount: SOAK_REQUESTS }, () => (done += 1));
  clearInterval(timer);
  take();
  // The trend after warm-up: the slope over the second half, in MiB per 10,000 requests.
  const secondHalf = samples.filter((s) => s.requests >= SOAK_REQUESTS / 2).map((s) => [s.requests / 10_000, s.rssMiB] as const);
  const summary = {
    requests: result.requests,
    non2xx: result.non2xx,
    errors: result.errors,
    rps: result.rps,
    peakRssMiB: Math.max(...samples.map((s) => s.rssMiB)),
    slopeSecondHalfMiBPer10kRequests: round(slope(secondHalf), 2),
    samples,
  };
  console.log(
    `soak: ${summary.requests} requests at ${summary.rps} req/s, ${summary.non2xx} non-2xx, ${summary.errors} errors; ` +
      `RSS peak ${summary.peakRssMiB} MiB, second-half slope ${summary.slopeSecondHalfMiBPer10kRequests} MiB per 10k requests`,
  );
  console.log(`soak RSS samples (requests: MiB): ${samples.map((s) => `${s.requests}: ${s.rssMiB}`).join(', ')}`);
  return summary;
}

function printScenario(
  entry: {
    id: string;
    title: string;
    medians: Record<string, Figures & { simulatorCpuMsPerRequest: number; peakRssMiB: number }>;
    ratioFacadeToBaseline: Figures;
    ratioFacadeToCompared: Record<string, Figures>;
    ratioFloorToBaseline?: Figures;
    upstreamCallsPerOperation: Record<string, UpstreamCount> | undefined;
    facadePeakRssMiB: number;
  },
  targets: Target[],
): void {
  console.log(`\n(${entry.id}) ${entry.title}`);
  for (const target of targets) {
    const m = entry.medians[target.name]!;
    const calls = entry.upstreamCallsPerOperation?.[target.name];
    console.log(
      `  ${target.name.padEnd(18)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50.toFixed(2).padStart(7)} ms  p99 ${m.p99
        .toFixed(2)
        .padStart(7)} ms  CPU/req ${m.cpuMsPerRequest.toFixed(3)} ms (simulator ${m.simulatorCpuMsPerRequest.toFixed(3)})  RSS peak ${m.peakRssMiB.toFixed(0)} MiB  upstream/op: ${calls?.readInventory} GET + ${calls?.calculateListingFee} POST`,
    );
  }
  const r = entry.ratioFacadeToBaseline;
  console.log(
    `  facade/baseline (median of round ratios): req/s ${r.rps}  p50 ${r.p50}  p99 ${r.p99}  CPU/req ${r.cpuMsPerRequest};  facade peak RSS ${entry.facadePeakRssMiB} MiB`,
  );
  for (const [name, c] of Object.entries(entry.ratioFacadeToCompared)) {
    console.log(`  facade/${name}: req/s ${c.rps}  p50 ${c.p50}  p99 ${c.p99}  CPU/req ${c.cpuMsPerRequest}`);
  }
  const f = entry.ratioFloorToBaseline;
  if (f) console.log(`  ${FLOOR_TARGET}/baseline: req/s ${f.rps}  p50 ${f.p50}  p99 ${f.p99}  CPU/req ${f.cpuMsPerRequest}`);
}

let finished = false;
const shutdown = async (code: number) => {
  if (finished) return;
  finished = true;
  await stopAll();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  process.exit(code);
};
process.once('SIGINT', () => void shutdown(130));
process.once('SIGTERM', () => void shutdown(143));
process.once('exit', killAllNow);
main().then(
  () => shutdown(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    return shutdown(1);
  },
);
