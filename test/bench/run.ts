// `npm run bench`: what a request costs the facade, the Yoga floor, a hand-written baseline and a
// peer over the same partner simulator, each its own process, in alternating rounds. By default the
// target under load runs alone on core 0 (taskset) and the load generator (wrk) and the simulator on
// core 1, and each target's CPU per request is read from /proc; prints medians and ratios per
// scenario, counts upstream calls per operation and writes test/bench/results/latest.json.
// `npm run bench -- --soak` also runs scenario (e) at length against the facade with the response
// cache on (as (f) runs it): its RSS, and the slope of its heap after a full collection in three phases.
// `npm run bench -- --growth` (part of a full run) measures cost as callers grow (growth.ts).
// `npm run bench -- --help` lists the options. A benchmark, not a test: it reports figures, fails on none.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { DEMO_APP_KEY } from '../../src/simulator/data.js';
import { cpuMsOf, freePort, killAllNow, memoryOf, pinSelf, sampleRss, startBaseline, startFloor, startNode, startSimulatorProcess, stopAll, type Child } from './processes.js';
import { productionCommand, type ProductionCommand } from '../support/production-command.js';
import {
  ALL_SCENARIOS,
  benchFacadeEnv,
  buildScenarios,
  FLOOR_SCENARIOS,
  FLOOR_AGAIN_TARGET,
  FLOOR_TARGET,
  floorEnvOf,
  hundredFeesRequest,
  LISTING_FEE_BATCH_MAX,
  nodeFlagsOf,
  PEER_SCENARIOS,
  PEER_TARGET,
  trustedDocumentsManifest,
  type BenchRequest,
  type Scenario,
  type ScenarioId,
} from './scenarios.js';
import { drive, type RoundResult } from './drive.js';
import { drivePaced } from './paced.js';
import { withinMinimum, type Calls, type Figures } from './report.js';
import { median, ratio, round, slope } from './stats.js';
import { HEAP_SAMPLE_MS, openHeapProbe, soakInPhases } from './heap.js';
import { GROWTH_CALLERS, growthCallersOf, measureGrowth, stepRequestsOf, type GrowthTarget } from './growth.js';
import { driveWrk, WRK } from './wrk.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Checkouts made for --compare; removed however the run ends. */
const tempDirs: string[] = [];

const USAGE = `npm run bench -- [options]

Measures the CPU each request costs the facade, the Yoga floor (test/bench/yoga-floor.ts), the
hand-written baseline and the Apollo peer, in alternating rounds; writes test/bench/results/latest.json
(npm run bench:report renders it). A full run prints its expected length and its progress.

  --scenarios a,b,...            scenarios to run (default: all, ${ALL_SCENARIOS.join(',')})
  --rounds N --duration S        rounds per scenario and target, seconds each (default 5 and 3)
  --warmup-requests N            unmeasured requests per target and scenario first (default 20000)
  --no-pin                       run every process on any core (default: the target alone on core 0,
                                 the generator and the simulator on core 1)
  --generator wrk|autocannon     the closed load's generator (default wrk; autocannon without --pin)
  --no-floor --no-peer           leave the Yoga floor or the Apollo peer out
  --floor-again                  a second Yoga floor in the same rounds (A/A: the machine's own noise)
  --accept-encoding <value>      also send (a) and (c) with this Accept-Encoding, as a target of its own
  --compare <rev>                another revision of the facade side by side (e.g. HEAD~1)
  --compare-own-env <rev>        the same, in the scenarios with an environment of their own only
  --compare-without-plugin <n>   this facade without the entries of PLUGIN_ORDER named (comma-separated)
  --compare-node-options <flags> this facade again with more Node flags
  --compare-without-flag <flag>  this facade again without one of start:prod's flags
  --compare-node-binary <path>   this facade again on another Node binary
  --facade-node-options <flags>  extra Node flags for every facade process
  --soak                         also the soak: (e) against the response-cache facade, RSS and heap slope
  --soak-only --soak-requests N  only the soak; its length (default 150000, three phases)
  --growth                       also cost as callers grow: fresh facade and floor read by 10, 1,000 and
                                 100,000 distinct callers, then a heap soak at 100,000 (default in a
                                 full run, that is without --scenarios; --no-growth leaves it out)
  --growth-only                  only that
  --growth-callers 10,1000,...   the steps' distinct callers (default 10,1000,100000)
  --growth-requests N            requests of each step at the least (default 20000; a step sends
                                 each of its callers once at the least)
  --growth-soak-requests N       the soak at 100,000 callers, three phases (default 150000; 0: none)
  --out <file>                   where the results go (default test/bench/results/latest.json)
  -h, --help                     this text
`;

const { values: args } = parseArgs({
  options: {
    help: { type: 'boolean', short: 'h', default: false },
    pin: { type: 'boolean', default: true },
    generator: { type: 'string' },
    'accept-encoding': { type: 'string' },
    'compare-without-plugin': { type: 'string', multiple: true, default: [] },
    soak: { type: 'boolean', default: false },
    // No default: a full run (no --scenarios) includes it unless --no-growth.
    growth: { type: 'boolean' },
    'growth-only': { type: 'boolean', default: false },
    'growth-requests': { type: 'string', default: String(20_000) },
    'growth-callers': { type: 'string', default: GROWTH_CALLERS.join(',') },
    'growth-soak-requests': { type: 'string', default: String(150_000) },
    'soak-only': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '3' },
    // No default, so that a full run (every scenario) can be told from one that names them.
    scenarios: { type: 'string' },
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
    // A second floor beside the first (an A/A comparison): how far apart two identical servers'
    // figures fall in the same rounds on this machine.
    'floor-again': { type: 'boolean', default: false },
    // The peer, Apollo Server with a RESTDataSource (test/bench/apollo-peer.ts), in (a) and (a32)
    // (--no-peer leaves it out).
    peer: { type: 'boolean', default: true },
    out: { type: 'string', default: join(ROOT, 'test/bench/results/latest.json') },
    'soak-requests': { type: 'string', default: String(150_000) },
    // Requests each target gets of each scenario before the measured rounds.
    'warmup-requests': { type: 'string', default: String(20_000) },
    // Extra Node flags for the facade processes only (e.g. GC settings under study).
    'facade-node-options': { type: 'string', default: '' },
  },
  allowNegative: true,
});
if (args.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const PINNED = args.pin;
const GENERATOR = args.generator ?? (PINNED ? 'wrk' : 'autocannon');
if (GENERATOR !== 'wrk' && GENERATOR !== 'autocannon') throw new Error(`--generator must be wrk or autocannon, not ${GENERATOR}`);
/** The core of the target under load, and the core of the generator, the simulator and this process. */
const TARGET_CPUS = PINNED ? '0' : undefined;
const GENERATOR_CPUS = '1';
const ROUNDS = Number(args.rounds);
const DURATION_S = Number(args.duration);
const SOAK_REQUESTS = Number(args['soak-requests']);
const WARMUP_REQUESTS = Number(args['warmup-requests']);
const GROWTH_STEPS = growthCallersOf(args['growth-callers']);
const GROWTH = args['growth-only'] || (args.growth ?? (args.scenarios === undefined && !args['soak-only']));

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
  /** Headers added to every request this target is sent (the same process as another target). */
  extraHeaders?: Record<string, string>;
  /** Only in the scenarios that say they are compressible. */
  compressedOnly?: boolean;
}

/** Requests of each target counted for partner calls under a scenario's load (below the simulator's 10,000 records). */
const CALLS_UNDER_LOAD_REQUESTS = 3_000;

/** What the expected length assumes of a warm-up's pace, in requests per second. */
const WARMUP_GUESS_RPS = 800;
const minutes = (seconds: number) => (seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`);

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
  // The facade's extensions (cost, and the budget when rate limits are on) are its own: the data is compared.
  if (!isDeepStrictEqual((a.body as { data?: unknown }).data, (b.body as { data?: unknown }).data)) {
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
  const wanted = new Set(args['growth-only'] ? [] : (args.scenarios ?? ALL_SCENARIOS.join(',')).split(','));
  const unknown = [...wanted].filter((id) => !ALL_SCENARIOS.includes(id as ScenarioId));
  if (unknown.length) throw new Error(`no scenario ${unknown.join(', ')} (there are ${ALL_SCENARIOS.join(', ')})`);
  const scenarios = buildScenarios().filter((scenario) => wanted.has(scenario.id));
  const info = machine();
  if (PINNED) {
    if (info.cores < 2) throw new Error('the pinned bench needs two cores (or --no-pin)');
    // This process (the autocannon and paced generators, the soak's) and every process it starts
    // without cores of its own (the simulator, wrk) run on core 1; the targets on core 0.
    pinSelf(GENERATOR_CPUS);
  }
  if (GENERATOR === 'wrk' && !existsSync(WRK)) throw new Error(`${WRK} is missing (Debian: apt-get install wrk), or pass --generator autocannon`);
  console.log(
    `tradegraph bench on ${info.cores} x ${info.cpuModel}, Node ${info.node}, commit ${gitCommit()}; ` +
      (PINNED ? `targets on core ${TARGET_CPUS}, ${GENERATOR} and the simulator on core ${GENERATOR_CPUS}` : `unpinned, ${GENERATOR}`),
  );

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
    variant: { withoutFlag?: string; nodeBinary?: string; entry?: string; inspectPort?: number } = {},
  ): Promise<Target> => {
    const port = await freePort();
    const { entry, nodeArgs } = buildForProduction(cwd);
    const kept = nodeArgs.filter((arg) => arg.split('=')[0] !== variant.withoutFlag);
    if (variant.withoutFlag && kept.length === nodeArgs.length) throw new Error(`start:prod has no flag ${variant.withoutFlag}`);
    const execArgv = [...kept, ...nodeFlagsOf(nodeOptions), ...(variant.inspectPort ? [`--inspect=127.0.0.1:${variant.inspectPort}`] : [])];
    const child = await startNode({
      name,
      cwd,
      script: variant.entry ?? entry,
      port,
      env: facadeEnv(port, env),
      readyPath: '/health',
      execArgv,
      nodeBinary: variant.nodeBinary,
      cpus: TARGET_CPUS,
    });
    return { name, child, kind: 'facade', nodeArgs: execArgv };
  };
  const facade = await startFacade('facade', ROOT);
  // The facade of scenarios with an environment of their own (the response cache's), also the
  // soak's; it shares the name `facade` in their figures. One such environment is supported.
  const ownEnv = buildScenarios().find((scenario) => scenario.facadeEnv)!.facadeEnv!;
  // The soak reads this facade's heap through its inspector (heap.ts).
  const soakInspectorPort = args.soak || args['soak-only'] ? await freePort() : undefined;
  const ownEnvFacade =
    args.soak || args['soak-only'] || scenarios.some((scenario) => scenario.facadeEnv)
      ? await startFacade('facade', ROOT, undefined, ownEnv, { inspectPort: soakInspectorPort })
      : null;
  const facadeOf = (scenario: Scenario) => (scenario.facadeEnv ? ownEnvFacade! : facade);
  // The environment of the floor beside that facade, when the floor runs in such a scenario.
  const floorEnvScenario = args.floor ? scenarios.find((scenario) => scenario.floorEnv && FLOOR_SCENARIOS.has(scenario.id)) : undefined;
  const floorEnv = floorEnvScenario?.floorEnv;
  const baseline: Target = {
    name: 'baseline',
    kind: 'baseline',
    nodeArgs: [],
    child: await startBaseline(ROOT, simulator.url, DEMO_APP_KEY, { cpus: TARGET_CPUS }),
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
  for (const names of args['compare-without-plugin']) {
    // The facade's bundle with an entry that takes those plugins out first (without-plugins.ts).
    execFileSync(
      'npx',
      ['esbuild', 'test/bench/without-plugins.ts', '--bundle', '--splitting', '--platform=node', '--format=esm', '--packages=external', '--log-level=warning', '--outdir=dist'],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    compared.push(await startFacade(`facade[without ${names}]`, ROOT, undefined, { BENCH_WITHOUT_PLUGINS: names }, { entry: 'dist/without-plugins.js' }));
  }
  for (const nodeBinary of args['compare-node-binary']) {
    const version = execFileSync(nodeBinary, ['--version'], { encoding: 'utf8' }).trim();
    compared.push(await startFacade(`facade[node ${version}]`, ROOT, undefined, {}, { nodeBinary }));
  }
  if (args.floor) {
    // Under start:prod's Node flags, as the facade: its young generation and heap limit set the
    // collector's share of a request, and the floor is there to tell the service's code apart.
    const { nodeArgs } = buildForProduction(ROOT);
    const plain = scenarios.find((scenario) => !scenario.facadeEnv && FLOOR_SCENARIOS.has(scenario.id));
    // The floor of the scenarios with an environment of their own (Yoga's response cache for (f))
    // goes under the same name as the plain one: no scenario has both floors.
    const floorsOf = [
      { scenario: plain, ownEnv: false },
      { scenario: floorEnvScenario, ownEnv: true },
    ];
    for (const name of args['floor-again'] ? [FLOOR_TARGET, FLOOR_AGAIN_TARGET] : [FLOOR_TARGET]) {
      for (const { scenario, ownEnv } of floorsOf) {
        if (!scenario) continue;
        const child = await startFloor(ROOT, name, simulator.url, DEMO_APP_KEY, { execArgv: nodeArgs, env: floorEnvOf(scenario, manifestPath), cpus: TARGET_CPUS });
        compared.push({ name, kind: 'floor', nodeArgs, child, ...(ownEnv && { ownEnv }) });
      }
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
        cpus: TARGET_CPUS,
      }),
    });
  }
  // The facade's process again with an Accept-Encoding header, in the compressible scenarios: what a
  // compressed answer costs is this target's CPU per request less the facade's, in the same rounds.
  const acceptEncoding = args['accept-encoding'];
  if (acceptEncoding) {
    compared.push({ ...facade, name: `facade[accept-encoding: ${acceptEncoding}]`, extraHeaders: { 'accept-encoding': acceptEncoding }, compressedOnly: true });
  }
  const targets = [facade, baseline, ...compared];
  const requestsOf = (target: Target, scenario: Scenario) => {
    const requests = target.kind === 'baseline' ? scenario.baseline : scenario.facade;
    const extra = target.extraHeaders;
    return extra ? requests.map((request) => ({ ...request, headers: { ...request.headers, ...extra } })) : requests;
  };
  // A scenario with a facade of its own compares it with the baseline and the revisions compared with that environment.
  const targetsOf = (scenario: Scenario) =>
    scenario.facadeEnv
      ? [facadeOf(scenario), baseline, ...compared.filter((t) => t.ownEnv && (t.kind !== 'floor' || FLOOR_SCENARIOS.has(scenario.id)))]
      : targets.filter(
          (t) =>
            !t.ownEnv &&
            (t.kind !== 'floor' || FLOOR_SCENARIOS.has(scenario.id)) &&
            (t.kind !== 'peer' || PEER_SCENARIOS.has(scenario.id)) &&
            (!t.compressedOnly || scenario.compressible === true),
        );
  /** The simulator's latency for a scenario's rounds and warm-up; back to none afterwards. */
  const simulatorLatency = (latencyMs: number) =>
    fetch(`${simulator.url}/__simulator/configure`, { method: 'POST', body: JSON.stringify({ latencyMs }) }).then((r) => r.arrayBuffer());

  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine: info,
    settings: { pinned: PINNED, generator: GENERATOR, rounds: ROUNDS, durationS: DURATION_S, warmupRequests: WARMUP_REQUESTS, facadeNodeOptions: args['facade-node-options'], listingFeeBatchMax: LISTING_FEE_BATCH_MAX, order: targets.map((t) => t.name), nodeArgs: Object.fromEntries(targets.map((t) => [t.name, t.nodeArgs])), ...(ownEnvFacade ? { ownEnvFacadeEnv: ownEnv } : {}), ...(floorEnv ? { ownEnvFloorEnv: floorEnv } : {}) },
  };

  if (!args['soak-only'] && !args['growth-only']) {
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
        if (target.kind === 'floor' && !withinMinimum(calls, scenario.minimumUpstream)) {
          throw new Error(`scenario ${scenario.id}: the floor made ${JSON.stringify(calls)} partner calls per operation, not the least (${JSON.stringify(scenario.minimumUpstream)})`);
        }
      }
    }
    // Every facade target answers these too, not only the one reported: a facade that has served
    // large operations runs the rest of the bench in another state (V8's allocation-site
    // pretenuring decides on them), and side by side targets must be in the same one.
    const hundredFees = await countUpstream(simulator.url, facade.child.url, [hundredFeesRequest()], 5);
    for (const target of compared) if (target.kind === 'facade') await countUpstream(simulator.url, target.child.url, [hundredFeesRequest()], 5);

    // The expected length, from the rounds' fixed lengths and a guess at the warm-up's pace.
    const targetRounds = scenarios.reduce((sum, scenario) => sum + targetsOf(scenario).length * ROUNDS, 0);
    const warmups = scenarios.reduce((sum, scenario) => sum + targetsOf(scenario).length, 0);
    const roundsS = targetRounds * (DURATION_S + SETTLE_MS / 1000);
    const growthRequests = GROWTH
      ? (args.floor ? 2 : 1) * (WARMUP_REQUESTS + GROWTH_STEPS.reduce((sum, callers) => sum + stepRequestsOf(callers, Number(args['growth-requests'])), 0)) +
        Number(args['growth-soak-requests'])
      : 0;
    const expectedS = roundsS + (warmups * WARMUP_REQUESTS + growthRequests) / WARMUP_GUESS_RPS + (args.soak ? SOAK_REQUESTS / WARMUP_GUESS_RPS : 0);
    console.log(
      `bench: ${scenarios.length} scenarios, ${targetRounds} target rounds of ${DURATION_S} s and ${warmups} warm-ups of ${WARMUP_REQUESTS} requests; ` +
        `expect about ${minutes(expectedS)} (rounds alone ${minutes(roundsS)})`,
    );
    const benchStarted = Date.now();
    let warmupsDone = 0;
    let roundsStarted = 0;
    let roundsDone = 0;
    const progress = (what: string) => {
      const elapsedS = (Date.now() - benchStarted) / 1000;
      // From the pace so far: the warm-ups' until the rounds start, then the rounds' own.
      const leftS =
        roundsDone === 0
          ? ((warmups - warmupsDone) * elapsedS) / Math.max(1, warmupsDone) + roundsS
          : ((targetRounds - roundsDone) * (Date.now() - roundsStarted)) / 1000 / roundsDone;
      console.log(`  [${minutes(elapsedS)} elapsed, ${roundsDone}/${targetRounds} rounds, about ${minutes(Math.max(0, leftS))} left] ${what}`);
    };

    // Warm-up (JIT, pools, caches), not measured: the rounds measure the steady state a
    // long-running service is in. V8 keeps optimising the facade's larger code for its first tens of
    // thousands of requests (node --trace-opt shows it; a facade warmed by fewer got cheaper round
    // after round in (f)), so the warm-up is a request count, not a second.
    for (const scenario of scenarios) {
      await simulatorLatency(scenario.simulatorLatencyMs ?? 0);
      for (const target of targetsOf(scenario)) {
        await drive(target.child.url, requestsOf(target, scenario), scenario.connections, { amount: WARMUP_REQUESTS });
        warmupsDone += 1;
      }
      progress(`warmed up (${scenario.id})`);
    }
    await simulatorLatency(0);

    const results = [];
    roundsStarted = Date.now();
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
          const requests = requestsOf(target, scenario);
          const result: RoundResult = scenario.offeredRate
            ? await drivePaced(target.child.url, requests, scenario.connections, scenario.offeredRate, DURATION_S, roundIndex + 1)
            : GENERATOR === 'wrk'
              ? await driveWrk(target.child.url, requests, scenario.connections, DURATION_S)
              : await drive(target.child.url, requests, scenario.connections, { durationS: DURATION_S });
          result.cpuMsPerRequest = round((cpuMsOf(target.child.process.pid!) - cpuBefore) / result.requests, 3);
          result.simulatorCpuMsPerRequest = round((cpuMsOf(simulator.process.pid!) - simulatorCpuBefore) / result.requests, 3);
          rssPeaks[target.name]!.push(Math.max(...sampler.stop()));
          rounds[target.name]!.push(result);
          roundsDone += 1;
        }
        progress(`(${scenario.id}) round ${roundIndex + 1}/${ROUNDS}`);
      }
      // Partner calls per operation under the scenario's load: a fixed count of requests, so that
      // none is still in flight when the simulator's records are read (a timed round ends with a
      // connection's worth of calls made for requests it never counts).
      const callsUnderLoad: Record<string, number> = {};
      if (scenario.callsInRounds) {
        for (const target of scenarioTargets) {
          await fetch(`${simulator.url}/__simulator/reset`, { method: 'POST' }).then((r) => r.arrayBuffer());
          const result = await drive(target.child.url, requestsOf(target, scenario), scenario.connections, { amount: CALLS_UNDER_LOAD_REQUESTS });
          const { calls } = (await (await fetch(`${simulator.url}/__simulator/calls`)).json()) as { calls: Array<{ operation: string }> };
          callsUnderLoad[target.name] = round(calls.filter((call) => call.operation === 'readInventory').length / (result.requests - result.non2xx), 3);
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
              ...(list[0]?.bytesPerResponse === undefined ? {} : { bytesPerResponse: median(list.map((r) => r.bytesPerResponse!)) }),
              ...(scenario.callsInRounds ? { partnerCallsPerRequest: callsUnderLoad[t.name] } : {}),
            },
          ];
        }),
      );
      // The ratio of the two targets' medians over the same alternating rounds.
      await simulatorLatency(0);
      const pairRatios = (other: string, of = scenarioFacade.name) => {
        const a = medians[of]!;
        const b = medians[other]!;
        return { rps: ratio(a.rps, b.rps), p50: ratio(a.p50, b.p50), p99: ratio(a.p99, b.p99), cpuMsPerRequest: ratio(a.cpuMsPerRequest, b.cpuMsPerRequest) };
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
        ...(rounds[FLOOR_TARGET] && rounds[FLOOR_AGAIN_TARGET] ? { ratioFloorToFloorAgain: pairRatios(FLOOR_AGAIN_TARGET, FLOOR_TARGET) } : {}),
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
    report.soak = { facadeEnv: ownEnv, ...(await soak(simulator.url, ownEnvFacade, buildScenarios().find((s) => s.id === 'e')!, soakInspectorPort!)) };
  }
  if (GROWTH) {
    // Fresh processes, so that each step's callers are all the callers they have seen; each with
    // an inspector, whose full collection gives the heap each step leaves behind.
    const growthTargets: Array<GrowthTarget & { child: Child }> = [];
    const withProbe = async (name: string, child: Child, port: number) =>
      growthTargets.push({ name, child, pid: child.process.pid!, url: child.url, probe: await openHeapProbe(port) });
    const facadePort = await freePort();
    await withProbe('facade', (await startFacade('facade', ROOT, undefined, {}, { inspectPort: facadePort })).child, facadePort);
    if (args.floor) {
      const floorPort = await freePort();
      const { nodeArgs } = buildForProduction(ROOT);
      const child = await startFloor(ROOT, FLOOR_TARGET, simulator.url, DEMO_APP_KEY, {
        execArgv: [...nodeArgs, `--inspect=127.0.0.1:${floorPort}`],
        env: { FLOOR_TRUSTED_DOCUMENTS: manifestPath },
        cpus: TARGET_CPUS,
      });
      await withProbe(FLOOR_TARGET, child, floorPort);
    }
    console.log(`\ngrowth: ${growthTargets.map((t) => t.name).join(' and ')} read by ${GROWTH_STEPS.join(', ')} distinct callers, then a soak of ${args['growth-soak-requests']} requests at ${GROWTH_STEPS.at(-1)}`);
    // The simulator keeps a bounded list of call records; start it from empty.
    await fetch(`${simulator.url}/__simulator/reset`, { method: 'POST' }).then((r) => r.arrayBuffer());
    report.growth = await measureGrowth({
      targets: growthTargets,
      callers: GROWTH_STEPS,
      soakTarget: 'facade',
      minimumRequests: Number(args['growth-requests']),
      warmupRequests: WARMUP_REQUESTS,
      soakRequests: Number(args['growth-soak-requests']),
      log: (line) => console.log(line),
    });
    for (const target of growthTargets) {
      target.probe.close();
      target.child.process.kill('SIGTERM');
    }
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

/** The soak's phases: the heap's slope is read in each, so that a leak shows as one that does not flatten. */
const SOAK_PHASES = 3;

/**
 * SOAK_REQUESTS requests of scenario (e) against the facade with the response cache, in three
 * phases. RSS is sampled each second; the heap in use after a full collection (through the
 * inspector) each second too, and each phase's least-squares slope of it against requests is
 * given with its 95 % confidence interval: a service that keeps nothing per request has an
 * interval that holds zero, phase after phase.
 */
async function soak(simulatorUrl: string, facade: Target, scenario: Scenario, inspectorPort: number) {
  console.log(`\nsoak: ${SOAK_REQUESTS} requests of scenario (e) against the facade in ${SOAK_PHASES} phases; RSS and the heap after a full collection sampled every second`);
  const pid = facade.child.process.pid!;
  const probe = await openHeapProbe(inspectorPort);
  let done = 0;
  const samples: Array<{ seconds: number; requests: number; rssMiB: number }> = [];
  const started = Date.now();
  const take = () => samples.push({ seconds: round((Date.now() - started) / 1000, 1), requests: done, rssMiB: round(memoryOf(pid).rssMiB, 1) });
  take();
  const timer = setInterval(take, 1000);
  // The simulator keeps a bounded list of call records; start it from empty.
  await fetch(`${simulatorUrl}/__simulator/reset`, { method: 'POST' }).then((r) => r.arrayBuffer());
  const { results, heap, phases } = await soakInPhases(
    probe,
    SOAK_PHASES,
    SOAK_REQUESTS,
    // Counted here too, for the RSS samples taken each second beside the heap's.
    (amount, _done, count) => drive(facade.child.url, scenario.facade, scenario.connections, { amount }, () => (count(), (done += 1))),
    { afterPhase: (phase, done) => console.log(`soak: phase ${phase + 1}/${SOAK_PHASES} done, ${done} requests, RSS ${round(memoryOf(pid).rssMiB, 1)} MiB`) },
  );
  clearInterval(timer);
  take();
  probe.close();
  const summary = {
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    rps: round(median(results.map((r) => r.rps)), 1),
    peakRssMiB: Math.max(...samples.map((s) => s.rssMiB)),
    slopeSecondHalfMiBPer10kRequests: round(slope(samples.filter((s) => s.requests >= SOAK_REQUESTS / 2).map((s) => [s.requests / 10_000, s.rssMiB] as const)), 2),
    heapAfterGc: { everyMs: HEAP_SAMPLE_MS, phases },
    samples,
    heapSamples: heap,
  };
  console.log(
    `soak: ${summary.requests} requests at ${summary.rps} req/s, ${summary.non2xx} non-2xx, ${summary.errors} errors; RSS peak ${summary.peakRssMiB} MiB; ` +
      `heap after GC, KiB per 10,000 requests (95 % interval) by phase: ${phases.map((p) => `${p.slopeKiBPer10kRequests} (${p.low} to ${p.high})`).join(', ')}`,
  );
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
    `  facade/baseline (ratio of medians): req/s ${r.rps}  p50 ${r.p50}  p99 ${r.p99}  CPU/req ${r.cpuMsPerRequest};  facade peak RSS ${entry.facadePeakRssMiB} MiB`,
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
