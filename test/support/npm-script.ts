// A package.json script run the way a supervisor or a terminal runs it: `npm run <script>` as its
// own process group, its output collected line by line, and its process tree read from /proc, so
// that a test can signal npm's own pid (or the whole group, as Ctrl-C does) and then check that no
// process of the tree outlives npm.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A process as /proc shows it; `start` (clock ticks after boot) tells a reused pid apart. */
export interface ProcessId {
  pid: number;
  start: string;
  command: string;
}

export interface NpmScript {
  /** npm's own pid: the one a supervisor knows. */
  pid: number;
  /** Every line of stdout and stderr, in order. */
  lines: string[];
  /** The stdout lines that are JSON (the services' log lines), parsed. */
  logs: Record<string, unknown>[];
  /** Resolves with the first line `test` accepts; rejects if npm exits first. */
  waitForLine(test: (line: string) => boolean): Promise<string>;
  /** The processes below npm right now. */
  descendants(): ProcessId[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL to every process left in npm's process group: the cleanup after a failed test. */
  killGroup(): void;
}

/** Runs `npm run <script>` in the checkout with `env` (and PATH), in a process group of its own. */
export function startNpmScript(script: string, env: Record<string, string>): NpmScript {
  const child = spawn('npm', ['run', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_update_notifier: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const lines: string[] = [];
  const logs: Record<string, unknown>[] = [];
  const waiting = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('{')) {
        try {
          logs.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // a line that only looks like JSON stays in `lines`
        }
      }
      for (const check of waiting) check();
    });
  }
  return {
    pid: child.pid!,
    lines,
    logs,
    exited,
    waitForLine(test) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(test);
          if (found === undefined) return;
          waiting.delete(check);
          resolve(found);
        };
        waiting.add(check);
        check();
        void exited.then(({ code, signal }) => {
          if (!waiting.has(check)) return;
          waiting.delete(check);
          reject(new Error(`npm run ${script} exited (${code ?? signal}) first:\n${lines.join('\n')}`));
        });
      });
    },
    descendants: () => descendantsOf(child.pid!),
    killGroup() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is empty: everything has exited
      }
    },
  };
}

interface ProcStat {
  state: string;
  ppid: number;
  start: string;
}

function statOf(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // `pid (comm) state ppid ...`: the command may hold spaces and parentheses, so read after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, ppid: Number(fields[1]), start: fields[19]! };
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Every process whose chain of parents reaches `root`. */
export function descendantsOf(root: number): ProcessId[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(Number(name));
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(name)]);
  }
  const found: ProcessId[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    const stat = statOf(pid);
    if (!stat) continue;
    found.push({ pid, start: stat.start, command: commandOf(pid) });
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Those of `processes` still running (an exited one waiting to be reaped counts as gone). */
export function stillRunning(processes: ProcessId[]): ProcessId[] {
  return processes.filter(({ pid, start }) => {
    const stat = statOf(pid);
    return stat !== null && stat.start === start && stat.state !== 'Z';
  });
}

/** Ends what a failed test left behind, so that it cannot hold a port for the next one. */
export function killAll(processes: ProcessId[]): void {
  for (const { pid } of stillRunning(processes)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone in the meantime
    }
  }
}

/** Whether a server may listen on `port` of 127.0.0.1 now. */
export async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    return true;
  } catch {
    return false;
  } finally {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  }
}
