// The service as `npm start` runs it (src/main.ts through the tsx loader) or as `npm run
// start:prod` does (the built dist/main.js), in a child Node process on a free port, with its JSON
// log lines collected, SIGTERM to stop it, and any other signal a test sends.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { productionCommand } from './production-command.js';

export interface ServiceProcess {
  url: string;
  /** The process id, e.g. to read its memory from /proc. */
  pid: number;
  /** Every stdout line, parsed when it is JSON. */
  logs: Record<string, unknown>[];
  /** Sends SIGTERM and answers the exit code. */
  stop(): Promise<number | null>;
  /** Sends a signal of the test's choosing. */
  kill(signal: NodeJS.Signals): void;
  /** The exit code, once the process has exited. */
  exited: Promise<number | null>;
  /** What the process wrote to stderr so far. */
  stderr(): string;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function startServiceProcess(
  env: Record<string, string> = {},
  /** The sources, or a bundle of `npm run build` (dist/main.js, or one built into another folder). */
  entry: 'src/main.ts' | `${string}.js` = 'src/main.ts',
): Promise<ServiceProcess> {
  // The test runner's own variables (NODE_ENV=test, OTEL_*) must not leak into the service.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(NODE_ENV|OTEL_|PARTNER_|PORT$|HOST$|LOG_LEVEL$)/.test(name)),
  );
  const argv = entry.endsWith('.js') ? [...productionCommand(ROOT)!.nodeArgs, entry] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));

  const serving = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (typeof entry.url === 'string' && String(entry.msg).startsWith('tradegraph is serving')) resolve(entry.url);
      } catch {
        logs.push({ text: line });
      }
    });
    void exited.then((code) => reject(new Error(`the service exited with ${code} before serving:\n${stderr}`)));
  });
  const url = await serving;
  return {
    url,
    pid: child.pid!,
    logs,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: (signal) => void child.kill(signal),
    exited,
    stderr: () => stderr,
  };
}
