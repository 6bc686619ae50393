// `npm run bench:gate`: CI's performance regression gate. Counts instructions per request under
// valgrind's callgrind (test/bench/instructions.sh) for the facade and for the Yoga floor, twice:
// scenario (a) one request at a time, less V8's compiler and collector; and (a32-many), 32 requests
// in flight over distinct callers and inventories, the collector's work included, since what
// requests in flight together keep alive shows as that work. Each count fails when the facade's
// count over the floor's rises more than its budget's tolerance over the ratio committed in its
// budget file (GATE_COUNTS). A count does not move with the machine's load as req/s and CPU time
// do, and the ratio to the floor cancels what Node, Yoga and graphql-jit cost, so what it catches is
// the service's own code growing.
// Prints one line per count on stdout, and its progress on stderr (a run takes minutes); exits 0
// (both within budget), 1 (either over it) or 2 (a count could not be taken, valgrind missing included).
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

/** What categories line field a count reads (instruction-categories.ts). */
type CountedField = 'withoutCompilerAndGc' | 'withoutCompiler';

export interface GateCount {
  /** The budget file, from the repository's root. */
  budgetFile: string;
  /** Connections of the load generator: 1 is one request at a time. */
  connections: number;
  /** Requests counted after the warm-up, unless --requests says otherwise. */
  requests: number;
  field: CountedField;
  /** What the count is, in the verdict line. */
  what: string;
  /** The simulator's port of the facade's count; the floor's is 10 above, and instructions.sh takes the one above each. */
  port: number;
}

export const GATE_COUNTS = {
  sequential: {
    budgetFile: 'test/bench/instruction-budget.json',
    // One request at a time: with several in flight, how many one turn of the event loop takes
    // depends on the machine's timing, and so does the count per request.
    connections: 1,
    requests: 300,
    field: 'withoutCompilerAndGc',
    what: 'less compiler and GC',
    port: 4981,
  },
  concurrent: {
    budgetFile: 'test/bench/instruction-budget-concurrent.json',
    // 32 in flight: under valgrind the target is far slower than autocannon, so all 32 wait on it
    // at every turn of its loop whatever the machine's load.
    connections: 32,
    requests: 1000,
    field: 'withoutCompiler',
    what: '32 in flight, GC included, less compiler',
    port: 5001,
  },
} as const satisfies Record<string, GateCount>;
export type GateCountName = keyof typeof GATE_COUNTS;

export const BUDGET_FILE = join(ROOT, GATE_COUNTS.sequential.budgetFile);
export const CONCURRENT_BUDGET_FILE = join(ROOT, GATE_COUNTS.concurrent.budgetFile);

export interface InstructionBudget {
  scenario: string;
  /** The facade's instructions per request over the floor's, as last accepted. */
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

/** One count's decision and its one line, from the facade's and the floor's counts and the committed budget. */
export function gateVerdict(
  counts: { facade: number; floor: number },
  budget: InstructionBudget,
  gateCount: GateCount = GATE_COUNTS.sequential,
): GateVerdict {
  if (!(counts.facade > 0 && counts.floor > 0)) throw new Error(`instruction counts must be positive: ${JSON.stringify(counts)}`);
  const ratio = counts.facade / counts.floor;
  const limit = budget.ratio * (1 + budget.tolerance);
  const pass = ratio <= limit;
  const thousands = (n: number) => Math.round(n).toLocaleString('en-US');
  const line =
    `bench:gate ${pass ? 'PASS' : 'FAIL'}: (${budget.scenario}) facade/floor instructions per request, ${gateCount.what}, ${ratio.toFixed(3)} ` +
    `(facade ${thousands(counts.facade)}, floor ${thousands(counts.floor)}); budget ${budget.ratio.toFixed(3)} + ${Math.round(budget.tolerance * 100)} % = ${limit.toFixed(3)}` +
    (pass ? '' : ` — the facade's own code costs more per request; if that is meant, raise ${gateCount.budgetFile} with the reason`);
  return { pass, ratio, limit, line };
}

/** The stdout line of a count that could not be taken. */
export const errorLine = (budget: InstructionBudget, gateCount: GateCount, why: string) =>
  `bench:gate ERROR: the instruction counts of (${budget.scenario}), ${gateCount.what}, could not be taken${why}`;

/**
 * Instructions per request from instructions.sh's categories line (instruction-categories.ts):
 * less V8's optimising compiler and garbage collector (`withoutCompilerAndGc`), or less the
 * compiler alone (`withoutCompiler`). Both run on their own clocks: how much of their work lands in
 * the counted window moves from run to run (a major collection in it or not), while the rest, the
 * code a request runs, repeats; with requests in flight together the collector's work is what the
 * count is for, and enough requests are counted that a window holds several collections.
 */
export function countOf(output: string, target: string, field: CountedField = 'withoutCompilerAndGc'): number {
  const named = new RegExp(`^${target}\\b.*instructions per request`, 'm').exec(output);
  const categories = /^\{"instructionsPerRequest":\d+.*\}$/m.exec(output);
  const counted = categories ? (JSON.parse(categories[0]) as Partial<Record<CountedField, unknown>>)[field] : undefined;
  if (!named || typeof counted !== 'number') throw new Error(`no count for ${target} in:\n${output.slice(-2000)}`);
  return counted;
}

/** Counts one target; all run at once, each on its own ports (a count does not depend on the others' load). */
async function count(target: 'facade' | 'floor', scenario: string, gateCount: GateCount, requests: number, port: number): Promise<number> {
  // V8 without its background threads: code is compiled and garbage collected on the main thread
  // at points the requests decide, not when another thread gets the (valgrind-serialised) CPU, so
  // which code is optimised by the counted requests does not move with the machine's load.
  const running = promisify(execFile)('bash', [join(ROOT, 'test/bench/instructions.sh'), target, String(requests), '--single-threaded'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, SCENARIO: scenario, SIMULATOR_PORT: String(port), CONNECTIONS: String(gateCount.connections) },
    // Valgrind's Node is slow, and far slower on a busy machine; a stuck run must not hang CI.
    timeout: 20 * 60_000,
    killSignal: 'SIGTERM',
    maxBuffer: 16 * 2 ** 20,
  });
  // instructions.sh's steps, as they happen, each with the target's name and the scenario.
  createInterface({ input: running.child.stderr! }).on('line', (line) => progress(`(${scenario}) ${line}`));
  const { stdout } = await running;
  return countOf(stdout, target, gateCount.field);
}

/** One count's verdict line and whether it passed (null: it could not be taken). */
async function gate(gateCount: GateCount, budget: InstructionBudget, requests: number): Promise<{ pass: boolean | null; line: string }> {
  try {
    const [facade, floor] = await Promise.all([
      count('facade', budget.scenario, gateCount, requests, gateCount.port),
      count('floor', budget.scenario, gateCount, requests, gateCount.port + 10),
    ]);
    const verdict = gateVerdict({ facade, floor }, budget, gateCount);
    return { pass: verdict.pass, line: verdict.line };
  } catch (error) {
    const detail = error as { stderr?: string; message?: string };
    console.error(detail.stderr || detail.message || error);
    return { pass: null, line: errorLine(budget, gateCount, ' (see above)') };
  }
}

/** The exit status of the verdicts: 2 when a count could not be taken, 1 when one is over budget, else 0. */
export const exitStatusOf = (passes: readonly (boolean | null)[]) => (passes.includes(null) ? 2 : passes.includes(false) ? 1 : 0);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      // Requests counted after the warm-up, for every count run (default: each count's own).
      requests: { type: 'string' },
      // One count alone (sequential or concurrent), as when its budget is re-read.
      only: { type: 'string' },
      // Another set of ports, for a second gate beside a first: each count's simulator port moves by as much.
      'port-offset': { type: 'string', default: '0' },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const names = (values.only ? [values.only] : Object.keys(GATE_COUNTS)) as GateCountName[];
  if (names.some((name) => !(name in GATE_COUNTS))) {
    console.error(`--only takes one of ${Object.keys(GATE_COUNTS).join(', ')}`);
    process.exit(2);
  }
  const counts = names.map((name) => {
    const gateCount: GateCount = GATE_COUNTS[name];
    let budget: InstructionBudget;
    try {
      budget = JSON.parse(readFileSync(join(ROOT, gateCount.budgetFile), 'utf8')) as InstructionBudget;
    } catch (error) {
      console.log(`bench:gate ERROR: the budget ${gateCount.budgetFile} could not be read: ${(error as Error).message}`);
      process.exit(2);
    }
    const port = gateCount.port + Number(values['port-offset']);
    return { gateCount: { ...gateCount, port }, budget, requests: values.requests ? Number(values.requests) : gateCount.requests };
  });
  if (!hasValgrind()) {
    console.error(NO_VALGRIND);
    for (const { gateCount, budget } of counts) console.log(errorLine(budget, gateCount, ': no valgrind'));
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
  } catch (error) {
    console.error((error as Error).message);
    for (const { gateCount, budget } of counts) console.log(errorLine(budget, gateCount, ': npm run build failed'));
    process.exit(2);
  }
  progress(
    `counting ${counts.map(({ budget, gateCount, requests }) => `(${budget.scenario}) at ${gateCount.connections} connection(s), ${requests} requests`).join(' and ')} ` +
      'after the warm-up, on the facade and the Yoga floor, all at once under callgrind: several minutes',
  );
  const verdicts = await Promise.all(counts.map(({ gateCount, budget, requests }) => gate(gateCount, budget, requests)));
  for (const { line } of verdicts) console.log(line);
  process.exit(exitStatusOf(verdicts.map(({ pass }) => pass)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
