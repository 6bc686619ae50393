// The benchmark's child processes: start each server as its own Node process, wait until it
// answers, read its memory, and make sure every child is gone when the run ends, however it ends.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import getPort from 'get-port';
import { benchFacadeEnv } from './scenarios.js';

export interface Child {
  name: string;
  process: ChildProcess;
  url: string;
}

const children = new Set<ChildProcess>();

/** A free loopback port. */
export const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' });

/**
 * Starts an entry point as the server's own process (RSS is read from its pid): a built `.js`
 * file with plain node, a TypeScript one as `node --import tsx <script>`. Waits until
 * `readyPath` answers 200.
 */
export async function startNode(options: {
  name: string;
  cwd: string;
  script: string;
  port: number;
  env: Record<string, string>;
  readyPath: string;
  /** Headers of the readiness request (Apollo Server's CSRF prevention wants one on a GET). */
  readyHeaders?: Record<string, string>;
  execArgv?: string[];
  /** The Node binary; this process's own unless given (a second runtime measured side by side). */
  nodeBinary?: string;
  /** The cores the process may run on (taskset's list, e.g. '0'); any core when omitted. */
  cpus?: string;
  /** Hears the process's standard output (e.g. V8's `--trace-gc-nvp` lines); it is discarded otherwise. */
  onStdout?: (text: string) => void;
}): Promise<Child> {
  const argv = [...(options.execArgv ?? []), ...(options.script.endsWith('.js') ? [options.script] : ['--import', 'tsx', options.script])];
  const node = options.nodeBinary ?? process.execPath;
  // taskset execs the command, so the pid read for CPU time and memory is Node's own.
  const [command, args] = options.cpus === undefined ? [node, argv] : ['taskset', ['-c', options.cpus, node, ...argv]];
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', options.onStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  if (options.onStdout) child.stdout!.setEncoding('utf8').on('data', options.onStdout);
  children.add(child);
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk.toString('utf8'));
    if (stderr.length > 50) stderr.shift();
  });
  child.once('exit', () => children.delete(child));
  const url = `http://127.0.0.1:${options.port}`;
  // Generous: on a busy shared machine a server takes far longer to start than alone.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(url + options.readyPath, { headers: options.readyHeaders });
      await response.arrayBuffer();
      if (response.ok) return { name: options.name, process: child, url };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${options.name} did not start (exit code ${child.exitCode}):\n${stderr.join('')}`);
}

/** What a comparison target's process may be given besides its partner: Node flags, a listener on its output. */
type TargetOptions = Pick<Parameters<typeof startNode>[0], 'execArgv' | 'onStdout' | 'cpus'>;

/** The hand-written baseline (baseline.ts) on a free port, calling the partner at `partnerUrl` with `appKey`. */
export async function startBaseline(cwd: string, partnerUrl: string, appKey: string, options: TargetOptions = {}): Promise<Child> {
  const port = await freePort();
  return startNode({
    ...options,
    name: 'baseline',
    cwd,
    script: 'test/bench/baseline.ts',
    port,
    env: { BASELINE_PORT: String(port), PARTNER_API_URL: partnerUrl, PARTNER_APP_KEY: appKey },
    readyPath: '/health',
  });
}

/**
 * The facade as the bench runs it (benchFacadeEnv: production, the trusted-documents manifest at
 * `manifestPath`, a scenario's own `env` on top) on a free port: `entry` under `options.execArgv`,
 * start:prod's flags among them (productionCommand).
 */
export async function startBenchFacade(
  cwd: string,
  entry: string,
  partnerUrl: string,
  manifestPath: string,
  options: TargetOptions & { env?: Record<string, string> } = {},
): Promise<Child> {
  const port = await freePort();
  return startNode({
    ...options,
    name: 'facade',
    cwd,
    script: entry,
    port,
    env: benchFacadeEnv(port, partnerUrl, manifestPath, options.env),
    readyPath: '/health',
  });
}

/** The Yoga floor (yoga-floor.ts) on a free port, named `name`, calling the partner at `partnerUrl` with the merchant's `appKey`. */
export async function startFloor(
  cwd: string,
  name: string,
  partnerUrl: string,
  appKey: string,
  options: TargetOptions & { env?: Record<string, string> } = {},
): Promise<Child> {
  const port = await freePort();
  return startNode({
    ...options,
    name,
    cwd,
    script: 'test/bench/yoga-floor.ts',
    port,
    env: { ...options.env, NODE_ENV: 'production', FLOOR_PORT: String(port), PARTNER_API_URL: partnerUrl, PARTNER_APP_KEY: appKey },
    readyPath: '/health',
  });
}

/**
 * Moves this process, every thread of it, to `cpus` (taskset's list); the processes it starts
 * afterwards inherit the affinity unless started with cpus of their own.
 */
export function pinSelf(cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
}

/** The partner simulator as a process of its own, on a free port, answering after `latencyMs`. */
export async function startSimulatorProcess(cwd: string, latencyMs = 0): Promise<Child> {
  const port = await freePort();
  return startNode({
    name: 'simulator',
    cwd,
    script: 'src/simulator/main.ts',
    port,
    env: { SIMULATOR_PORT: String(port), SIMULATOR_LATENCY_MS: String(latencyMs), SIMULATOR_ADMIN_ROUTES: 'true' },
    readyPath: '/__simulator/calls',
  });
}

export interface Memory {
  /** Resident set size now, in MiB. */
  rssMiB: number;
  /** The highest resident set size of the process's life so far (Linux VmHWM), in MiB. */
  peakRssMiB: number;
}

/** Reads a process's memory from /proc (Linux); the bench runs on the project's Linux machines. */
export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024 };
}

/**
 * CPU time (user + system) a process has used so far, in ms. On a shared machine this is steadier
 * than throughput: CPU per request does not change when another process takes a core away.
 */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** USER_HZ, 100 on every Linux the project runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Samples a process's RSS at an interval until stopped; answers the samples in MiB. */
export function sampleRss(pid: number, everyMs: number) {
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(memoryOf(pid).rssMiB), everyMs);
  return {
    stop() {
      clearInterval(timer);
      samples.push(memoryOf(pid).rssMiB);
      return samples;
    },
  };
}

/** SIGTERM to every child still running, SIGKILL to any that is still there after a grace period. */
export async function stopAll(graceMs = 3_000): Promise<void> {
  const running = [...children];
  for (const child of running) child.kill('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && running.some((child) => child.exitCode === null && child.signalCode === null)) await sleep(50);
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Kills every child synchronously; for `exit` handlers, where nothing can be awaited. */
export function killAllNow(): void {
  for (const child of children) child.kill('SIGKILL');
}

/** Runs a bench tool to its end: exit 0 when it is done, 1 with its error printed. */
export function runTool(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
