// Debian's Prometheus and promtool for the operations tests: promtool run on the rule files, and a
// real Prometheus on a free loopback port with a directory of its own, stopped (and its directory
// removed) by the test. When the package is missing and the tests run as root, it is installed
// with apt-get, as redis-server and Chromium are.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import getPort from 'get-port';
import {
  ensurePrometheusPackage,
  PROMETHEUS,
  PROMETHEUS_READY_LINE,
  PROMTOOL,
  prometheusArgs,
} from '../../src/federation/prometheus.js';

function ensurePrometheus(): void {
  if (!ensurePrometheusPackage()) {
    throw new Error("The operations tests need Debian's prometheus and promtool: run 'apt-get install prometheus'.");
  }
}

/** Runs promtool; answers its exit code and output (stdout and stderr together). */
export function promtool(...args: string[]): { status: number | null; output: string } {
  ensurePrometheus();
  const run = spawnSync(PROMTOOL, args, { encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

export interface RuleState {
  name: string;
  type: 'alerting' | 'recording';
  health: string;
  lastError?: string;
  state?: string;
}

export interface RunningPrometheus {
  url: string;
  /** The groups of /api/v1/rules. */
  ruleGroups(): Promise<{ name: string; file: string; rules: RuleState[] }[]>;
  /** The alerts of /api/v1/alerts, pending and firing. */
  alerts(): Promise<{ labels: Record<string, string>; state: string }[]>;
  /** The health of each scrape target (/api/v1/targets). */
  targetHealth(): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startPrometheus(options: { targets: string[]; ruleFiles: string[] }): Promise<RunningPrometheus> {
  ensurePrometheus();
  const dir = mkdtempSync(join(tmpdir(), 'tradegraph-prometheus-'));
  const port = await getPort({ host: '127.0.0.1' });
  const child: ChildProcess = spawn(PROMETHEUS, prometheusArgs({ ...options, dir, port }), { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`prometheus was not ready within 60 s:\n${output}`)), 60_000);
      for (const stream of [child.stdout!, child.stderr!]) {
        createInterface({ input: stream }).on('line', (line) => {
          output += `${line}\n`;
          if (line.includes(PROMETHEUS_READY_LINE)) {
            clearTimeout(timer);
            resolve();
          }
        });
      }
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`prometheus exited with ${code} before it was ready:\n${output}`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;
  const api = async <T>(path: string): Promise<T> => ((await (await fetch(`${url}${path}`)).json()) as { data: T }).data;
  return {
    url,
    ruleGroups: async () => (await api<{ groups: never[] }>('/api/v1/rules')).groups,
    alerts: async () => (await api<{ alerts: never[] }>('/api/v1/alerts')).alerts,
    targetHealth: async () => (await api<{ activeTargets: { health: string }[] }>('/api/v1/targets')).activeTargets.map((target) => target.health),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
