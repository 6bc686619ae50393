// `npx tsx test/bench/after-idle.ts`: what a quiet period costs the requests that follow it. Two
// facades as `npm run start:prod` runs them, one of them with V8's memory reducer turned back on
// (`--memory-reducer` after start:prod's flags), answer scenario (a); then both sit idle, and each
// answers a window of requests in turn. Per window and target: the CPU time per request (from
// /proc), how many functions V8 optimised in it (`--trace-opt`), and the RSS the quiet period left.
// A tool for one decision (docs/decisions/heap-limit.md), not a benchmark; it asserts nothing.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_APP_KEY } from '../../src/simulator/data.js';
import { productionCommand } from '../support/production-command.js';
import { drive } from './drive.js';
import { cpuMsOf, freePort, killAllNow, memoryOf, runTool, startNode, startSimulatorProcess, stopAll, type Child } from './processes.js';
import { buildScenarios, hundredFeesRequest } from './scenarios.js';
import { round } from './stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    // Seconds of quiet before each window; 0 is a window straight after the last.
    idle: { type: 'string', default: '0,70,0,70,0' },
    requests: { type: 'string', default: '5000' },
    // Not into results/, which keeps only the latest bench run: a decision quotes its figures.
    out: { type: 'string', default: join(tmpdir(), 'tradegraph-after-idle.json') },
  },
});

interface Target {
  name: string;
  child: Child;
  /** `--trace-opt` lines of the window being counted. */
  optimised: number;
  counting: boolean;
}

async function main(): Promise<void> {
  process.once('exit', killAllNow);
  const scenario = buildScenarios().find((s) => s.id === 'a')!;
  const requests = Number(args.requests);
  const prod = productionCommand(ROOT)!;
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const simulator = await startSimulatorProcess(ROOT);
  const targets: Target[] = [];
  for (const [name, extra] of [
    ['facade', []],
    ['facade[--memory-reducer]', ['--memory-reducer']],
  ] as const) {
    const port = await freePort();
    const target: Target = { name, child: undefined as never, optimised: 0, counting: false };
    target.child = await startNode({
      name,
      cwd: ROOT,
      script: prod.entry,
      port,
      env: { NODE_ENV: 'production', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), PARTNER_API_URL: simulator.url, PARTNER_APP_KEY: DEMO_APP_KEY },
      readyPath: '/health',
      execArgv: [...prod.nodeArgs, ...extra, '--trace-opt'],
      onStdout: (text) => {
        if (target.counting) target.optimised += text.split('[compiling method').length - 1;
      },
    });
    const fees = hundredFeesRequest();
    for (let i = 0; i < 5; i++) await (await fetch(target.child.url + fees.path, { method: fees.method, headers: fees.headers, body: fees.body })).arrayBuffer();
    await drive(target.child.url, scenario.facade, scenario.connections, { amount: requests });
    targets.push(target);
  }

  const windows: Record<string, unknown>[] = [];
  const idles = args.idle.split(',').map(Number);
  for (const [index, idleS] of idles.entries()) {
    await new Promise((done) => setTimeout(done, idleS * 1000));
    // Each target goes first in turn, so that neither always has the longer quiet.
    const order = index % 2 === 0 ? targets : [...targets].reverse();
    const rssAfterIdle = Object.fromEntries(order.map((t) => [t.name, round(memoryOf(t.child.process.pid!).rssMiB, 1)]));
    const perTarget: Record<string, { cpuMsPerRequest: number; optimised: number }> = {};
    for (const target of order) {
      const pid = target.child.process.pid!;
      target.optimised = 0;
      target.counting = true;
      const before = cpuMsOf(pid);
      const result = await drive(target.child.url, scenario.facade, scenario.connections, { amount: requests });
      const cpu = cpuMsOf(pid) - before;
      // A line written as the window ends may still be on its way.
      await new Promise((done) => setTimeout(done, 200));
      target.counting = false;
      if (result.non2xx || result.errors) throw new Error(`${target.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      perTarget[target.name] = { cpuMsPerRequest: round(cpu / requests, 3), optimised: target.optimised };
    }
    windows.push({ idleS, rssMiBAfterIdle: rssAfterIdle, ...perTarget });
    console.log(
      `after ${idleS} s idle: ${targets.map((t) => `${t.name} ${perTarget[t.name]!.cpuMsPerRequest} ms CPU/req, ${perTarget[t.name]!.optimised} functions optimised, RSS ${rssAfterIdle[t.name]} MiB`).join('; ')}`,
    );
  }
  await stopAll(10_000);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  writeFileSync(
    args.out,
    `${JSON.stringify({ date: new Date().toISOString(), commit, scenario: 'a', requestsPerWindow: requests, facadeNodeArgs: prod.nodeArgs, windows }, null, 2)}\n`,
  );
  console.log(`written to ${args.out}`);
}

runTool(main);
