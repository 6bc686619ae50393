// `npm run bench:gate`: CI's performance regression gate. Counts instructions per request of
// scenario (a), less V8's compiler and collector, under valgrind's callgrind (test/bench/instructions.sh) for the facade and for the
// Yoga floor, and fails when the facade's count over the floor's rises more than the budget's
// tolerance over the ratio committed in test/bench/instruction-budget.json. A count does not move
// with the machine's load as req/s and CPU time do, and the ratio to the floor cancels what Node,
// Yoga and graphql-jit cost, so what it catches is the service's own code growing.
// Prints one line on stdout, and its progress on stderr (a run takes minutes); exits 0 (within
// budget), 1 (over it) or 2 (the count could not be taken, valgrind missing included).
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';

/** A progress line on stderr, so that stdout keeps the verdict's one line. */
const progress = (line: string) => process.stderr.write(`bench:gate: ${line}\n`);
/** How often a run that has said nothing new says it is still going. */
const HEARTBEAT_MS = 60_000;

/** Whether valgrind is on the PATH: without it nothing can be counted. */
export function hasValgrind(env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v valgrind'], { env, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const NO_VALGRIND =
  'bench:gate needs valgrind (callgrind counts the instructions): on Debian, apt-get install valgrind; .ci/run installs it';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BUDGET_FILE = join(ROOT, 'test/bench/instruction-budget.json');

export interface InstructionBudget {
  scenario: string;
  /** The facade's instructions per request over the floor's (less compiler and GC), as last accepted. */
  ratio: number;
  /** How far above `ratio` the gate lets a count go, as a fraction (0.05: 5 %). */
  tolerance: number;
  /** Why the ratio is what it is: the change that set it, in a sentence. */
  reason: string;
}

export interface GateVerdict {
  pass: boolean;
  ratio: number;
  limit: number;
  line: string;
}

/** The gate's decision and its one line, from the two counts and the committed budget. */
export function gateVerdict(counts: { facade: number; floor: number }, budget: InstructionBudget): GateVerdict {
  if (!(counts.facade > 0 && counts.floor > 0)) throw new Error(`instruction counts must be positive: ${JSON.stringify(counts)}`);
  const ratio = counts.facade / counts.floor;
  const limit = budget.ratio * (1 + budget.tolerance);
  const pass = ratio <= limit;
  const thousands = (n: number) => Math.round(n).toLocaleString('en-US');
  const line =
    `bench:gate ${pass ? 'PASS' : 'FAIL'}: (${budget.scenario}) facade/floor instructions per request, less compiler and GC, ${ratio.toFixed(3)} ` +
    `(facade ${thousands(counts.facade)}, floor ${thousands(counts.floor)}); budget ${budget.ratio.toFixed(3)} + ${Math.round(budget.tolerance * 100)} % = ${limit.toFixed(3)}` +
    (pass ? '' : ` — the facade's own code costs more per request; if that is meant, raise test/bench/instruction-budget.json with the reason`);
  return { pass, ratio, limit, line };
}

/**
 * Instructions per request less V8's optimising compiler and garbage collector, from
 * instructions.sh's categories line (instruction-categories.ts). Those two run on their own
 * clocks: how much of their work lands in the counted window moves from run to run (a major
 * collection in it or not), while the rest, the code a request runs, repeats.
 */
export function countOf(output: string, target: string): number {
  const named = new RegExp(`^${target}\\b.*instructions per request`, 'm').exec(output);
  const categories = /^\{"instructionsPerRequest":\d+,"withoutCompilerAndGc":(\d+)/m.exec(output);
  if (!named || !categories) throw new Error(`no count for ${target} in:\n${output.slice(-2000)}`);
  return Number(categories[1]);
}

/** Counts one target; the two run at once, each on its own ports (a count does not depend on the other's load). */
async function count(target: 'facade' | 'floor', scenario: string, requests: number, port: number): Promise<number> {
  // V8 without its background threads: code is compiled and garbage collected on the main thread
  // at points the requests decide, not when another thread gets the (valgrind-serialised) CPU, so
  // which code is optimised by the counted requests does not move with the machine's load.
  const running = promisify(execFile)('bash', [join(ROOT, 'test/bench/instructions.sh'), target, String(requests), '--single-threaded'], {
    cwd: ROOT,
    encoding: 'utf8',
    // One request at a time: with several in flight, how many one turn of the event loop takes
    // depends on the machine's timing, and so does the count per request.
    env: { ...process.env, SCENARIO: scenario, SIMULATOR_PORT: String(port), CONNECTIONS: '1' },
    // Valgrind's Node is slow, and far slower on a busy machine; a stuck run must not hang CI.
    timeout: 20 * 60_000,
    killSignal: 'SIGTERM',
    maxBuffer: 16 * 2 ** 20,
  });
  // instructions.sh's steps, as they happen, each with the target's name.
  createInterface({ input: running.child.stderr! }).on('line', (line) => progress(line));
  const { stdout } = await running;
  return countOf(stdout, target);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { requests: { type: 'string', default: '300' }, port: { type: 'string', default: '4981' }, 'no-build': { type: 'boolean', default: false } },
  });
  const budget = JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as InstructionBudget;
  if (!hasValgrind()) {
    console.error(NO_VALGRIND);
    console.log(`bench:gate ERROR: the instruction counts of (${budget.scenario}) could not be taken: no valgrind`);
    process.exit(2);
  }
  const started = Date.now();
  const heartbeat = setInterval(() => progress(`still counting, ${Math.round((Date.now() - started) / 60_000)} min in`), HEARTBEAT_MS);
  heartbeat.unref();
  try {
    if (!values['no-build']) {
      progress('building dist/ (npm run build)');
      execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const requests = Number(values.requests);
    const port = Number(values.port);
    progress(`counting (${budget.scenario}) on the facade and the Yoga floor at once under callgrind, ${requests} requests each after the warm-up: several minutes`);
    const [facade, floor] = await Promise.all([count('facade', budget.scenario, requests, port), count('floor', budget.scenario, requests, port + 10)]);
    const counts = { facade, floor };
    const verdict = gateVerdict(counts, budget);
    console.log(verdict.line);
    process.exit(verdict.pass ? 0 : 1);
  } catch (error) {
    const detail = error as { stderr?: string; message?: string };
    console.error(detail.stderr || detail.message || error);
    console.log(`bench:gate ERROR: the instruction counts of (${budget.scenario}) could not be taken (see above)`);
    process.exit(2);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
