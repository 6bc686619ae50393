// `npx tsx test/bench/survivors.ts --target facade --scenario e`: what lives through a scavenge in
// one target under one bench scenario, by the call stack that allocated it. profile.ts says how much
// a target promotes per request; this says what. V8's sampling heap profiler, told to forget what
// the young generation's collector frees (`includeObjectsCollectedByMinorGC: false`) but to keep
// what full collections free, samples only objects that were still referenced at a scavenge: a
// request's objects held past their request by something old (docs/decisions/request-lifetimes.md)
// show up here under the code that made them. The target runs as the bench runs it (the facade as
// `start:prod` runs it, or the Yoga floor), with its inspector on a loopback port. A tool for
// finding what to fix, not a benchmark; it asserts nothing. With `--all` it samples every allocation,
// what scavenges free included: where a request's garbage comes from.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_APP_KEY } from '../../src/simulator/data.js';
import { productionCommand } from '../support/production-command.js';
import { drive } from './drive.js';
import { openHeapProbe } from './heap.js';
import { freePort, killAllNow, runTool, startBenchFacade, startFloor, startSimulatorProcess, stopAll } from './processes.js';
import { buildScenarios, FLOOR_TARGET, floorEnvOf, trustedDocumentsManifest } from './scenarios.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    target: { type: 'string', default: 'facade' },
    scenario: { type: 'string', default: 'a' },
    requests: { type: 'string', default: '10000' },
    'warmup-requests': { type: 'string', default: '5000' },
    // A stack is told by its innermost frames, this many.
    frames: { type: 'string', default: '6' },
    top: { type: 'string', default: '20' },
    // Every allocation sampled, what scavenges free included: where a request's garbage comes from.
    all: { type: 'boolean', default: false },
  },
});

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

async function main(): Promise<void> {
  const scenario = buildScenarios().find((s) => s.id === args.scenario);
  if (!scenario || scenario.offeredRate) throw new Error(`--scenario must be a closed-load scenario, not ${args.scenario}`);
  if (args.target !== 'facade' && args.target !== 'floor') throw new Error(`--target must be facade or floor, not ${args.target}`);
  const requests = Number(args.requests);
  const dir = mkdtempSync(join(tmpdir(), 'tradegraph-survivors-'));
  process.once('exit', () => {
    killAllNow();
    rmSync(dir, { recursive: true, force: true });
  });
  const manifestPath = join(dir, 'persisted-documents.json');
  writeFileSync(manifestPath, JSON.stringify(trustedDocumentsManifest()));
  const prod = productionCommand(ROOT)!;
  const simulator = await startSimulatorProcess(ROOT, scenario.simulatorLatencyMs);
  const inspectorPort = await freePort();
  const execArgv = [...prod.nodeArgs, `--inspect=127.0.0.1:${inspectorPort}`];
  // The bundle of the code as it is now, as profile.ts builds it.
  if (args.target === 'facade') execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const child =
    args.target === 'facade'
      ? await startBenchFacade(ROOT, prod.entry, simulator.url, manifestPath, { env: scenario.facadeEnv, execArgv })
      : await startFloor(ROOT, FLOOR_TARGET, simulator.url, DEMO_APP_KEY, { execArgv, env: floorEnvOf(scenario, manifestPath) });
  const probe = await openHeapProbe(inspectorPort);
  await drive(child.url, scenario.facade, scenario.connections, { amount: Number(args['warmup-requests']) });
  await probe.call('HeapProfiler.enable');
  await probe.call('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMinorGC: args.all, includeObjectsCollectedByMajorGC: true });
  await drive(child.url, scenario.facade, scenario.connections, { amount: requests });
  const { profile } = (await probe.call('HeapProfiler.stopSampling')) as { profile: { head: SamplingNode } };
  probe.close();
  await stopAll(10_000);

  const bytesByStack = new Map<string, number>();
  const frames = Number(args.frames);
  const walk = (node: SamplingNode, stack: string[]) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const here = [...stack, `${functionName || '(anonymous)'} ${url.replace(/^.*(node_modules|dist|src|test)\//, '$1/')}:${lineNumber + 1}`];
    if (node.selfSize > 0) {
      const key = here.slice(-frames).reverse().join(' < ');
      bytesByStack.set(key, (bytesByStack.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(profile.head, []);
  const kibPerRequest = (bytes: number) => (bytes / 1024 / requests).toFixed(3);
  const all = [...bytesByStack.values()].reduce((sum, bytes) => sum + bytes, 0);
  console.log(`${args.target}, (${scenario.id}), ${requests} requests: ${kibPerRequest(all)} KiB per request ${args.all ? 'allocated' : 'lived through a scavenge'} (sampled)\n`);
  console.log('| KiB/request | allocated at (innermost first) |\n|---|---|');
  for (const [stack, bytes] of [...bytesByStack].sort((x, y) => y[1] - x[1]).slice(0, Number(args.top))) console.log(`| ${kibPerRequest(bytes)} | ${stack} |`);
}

runTool(main);
