// A real Debian redis-server for the tests that share state through Redis: one per test file, on a
// free loopback port, without persistence, stopped (and restartable on the same port) or hung at will.
// When the package is missing and the tests run as root, it is installed with apt-get, as Chromium is.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import getPort from 'get-port';
import { Redis } from 'ioredis';
import { expect, vi } from 'vitest';
import { findRedisServer } from '../../src/federation/redis-server.js';

export function ensureRedisServer(): string {
  const found = findRedisServer();
  if (found) return found;
  throw new Error("The Redis tests need Debian's redis-server: run 'apt-get install redis-server'.");
}

export interface RedisServer {
  port: number;
  url: string;
  /** Starts it again on the same port, empty (nothing is saved). */
  start(): Promise<void>;
  /** Stops it (SIGTERM) and waits for the process to exit. */
  stop(): Promise<void>;
  /** Hangs it (SIGSTOP): its port still accepts connections, and nothing is answered. */
  pause(): void;
  /** Lets a hung server run again (SIGCONT); it then answers what it was sent meanwhile. */
  resume(): void;
  /**
   * Hangs writes only (CLIENT PAUSE WRITE): reads and PINGs are answered, and a connection that
   * sends a write hangs on it, with whatever it sends after it, until unpauseWrites.
   */
  pauseWrites(): Promise<void>;
  unpauseWrites(): Promise<void>;
  /** The calls of one command (INFO commandstats) it has run since it started. */
  commandCalls(command: string): Promise<number>;
  /** Every key and value it holds (strings and sets), for the secret checks. */
  dump(): Promise<{ key: string; value: string }[]>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const binary = ensureRedisServer();
  const port = await getPort({ host: '127.0.0.1' });
  let child: ChildProcess | null = null;

  const start = async () => {
    const started = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: started.stdout! }).on('line', (line) => {
        output += `${line}\n`;
        if (line.includes('Ready to accept connections')) resolve();
      });
      started.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`)));
    });
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    await exited;
  };
  await start();

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    pauseWrites: () => adminCommand(port, 'PAUSE', String(WRITE_PAUSE_MS), 'WRITE'),
    unpauseWrites: () => adminCommand(port, 'UNPAUSE'),
    async commandCalls(command) {
      const client = new Redis(port, '127.0.0.1');
      try {
        const stats = await client.info('commandstats');
        return Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
      } finally {
        client.disconnect();
      }
    },
    async dump() {
      const client = new Redis(port, '127.0.0.1');
      try {
        const entries: { key: string; value: string }[] = [];
        for (const key of await client.keys('*')) {
          const type = await client.type(key);
          const value = type === 'string' ? await client.get(key) : type === 'set' ? (await client.smembers(key)).join('\n') : type;
          entries.push({ key, value: value ?? '' });
        }
        return entries;
      } finally {
        client.disconnect();
      }
    },
  };
}

/** Longer than any test waits: writes stay paused until unpaused. */
const WRITE_PAUSE_MS = 600_000;

/** A CLIENT subcommand, sent on a connection of its own. */
async function adminCommand(port: number, ...args: string[]): Promise<void> {
  const client = new Redis(port, '127.0.0.1');
  try {
    await client.call('CLIENT', ...args);
  } finally {
    client.disconnect();
  }
}

/**
 * What a service says of its Redis: readiness's `redis` and the tradegraph_redis_up gauge, or of the
 * response cache's own Redis: readiness's `responseCacheRedis` and tradegraph_response_cache_redis_up.
 */
export async function redisStateOf(serviceUrl: string, which: 'shared' | 'response cache' = 'shared'): Promise<{ readiness: unknown; gauge: string | undefined }> {
  const [field, gauge] = which === 'shared' ? ['redis', 'tradegraph_redis_up'] : ['responseCacheRedis', 'tradegraph_response_cache_redis_up'];
  const readiness = ((await (await fetch(`${serviceUrl}/readiness`)).json()) as Record<string, unknown>)[field];
  const metrics = await (await fetch(`${serviceUrl}/metrics`)).text();
  return { readiness, gauge: new RegExp(`^${gauge} (\\d)$`, 'm').exec(metrics)?.[1] };
}

/** A service in a test, as far as its Redis connection goes. */
interface RedisUser {
  service: { redis: { up: boolean } | null };
}

/** Waits (bounded) until every one of these services' connections reports Redis in this state. */
export async function redisSeenBy(state: 'up' | 'down', ...services: RedisUser[]): Promise<void> {
  await vi.waitFor(
    () => {
      for (const { service } of services) expect(service.redis?.up ?? false).toBe(state === 'up');
    },
    { timeout: 15_000, interval: 50 },
  );
}
