// A real Debian redis-server for the tests that share state through Redis: one per test file, on a
// free loopback port, without persistence, stopped (and restartable on the same port) or hung at will;
// on request over TLS only (certificates made at start with the openssl CLI) and with an ACL user.
// When the package is missing and the tests run as root, it is installed with apt-get, as Chromium is.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import getPort from 'get-port';
import { Redis, type RedisOptions } from 'ioredis';
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
  /** Sends one command on a connection of the helper's own (as the admin user, with an ACL user). */
  admin(...args: string[]): Promise<unknown>;
  /** The CA that signed its certificate (PEM file), with `tls`; null without. */
  caFile: string | null;
}

export interface RedisServerOptions {
  /**
   * Serves TLS only, with a certificate for 127.0.0.1 signed by a CA made for this server (the
   * `openssl` CLI, in a temporary folder): `caFile` is that CA's PEM, `url` a rediss:// one.
   */
  tls?: boolean;
  /**
   * An ACL user of its own (`url` names it with its password) allowed only the `tradegraph:*` keys
   * and the commands `acl` lists; the default user is off, and the helper's own commands go
   * through an admin user.
   */
  user?: { name: string; password: string; acl: string[] };
}

/** A CA and a certificate for 127.0.0.1 signed by it, made with the openssl CLI. */
function makeCertificates(): { dir: string; caFile: string; certFile: string; keyFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tradegraph-redis-tls-'));
  const at = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  openssl('req', '-x509', ...ec, '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '1', '-subj', '/CN=tradegraph test CA');
  openssl('req', ...ec, '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(at('san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('server.pem'), '-days', '1', '-extfile', at('san.cnf'));
  return { dir, caFile: at('ca.pem'), certFile: at('server.pem'), keyFile: at('server.key') };
}

const ADMIN = { name: 'test-admin', password: 'test-admin-password' };

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = ensureRedisServer();
  const port = await getPort({ host: '127.0.0.1' });
  let child: ChildProcess | null = null;
  const certificates = options.tls ? makeCertificates() : null;
  const listening = certificates
    ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', certificates.certFile, '--tls-key-file', certificates.keyFile, '--tls-ca-cert-file', certificates.caFile, '--tls-auth-clients', 'no']
    : ['--port', String(port)];
  const users = options.user
    ? ['--user', 'default', 'off', '--user', ADMIN.name, 'on', `>${ADMIN.password}`, '~*', '&*', '+@all', '--user', options.user.name, 'on', `>${options.user.password}`, 'resetkeys', '~tradegraph:*', '-@all', ...options.user.acl]
    : [];
  /** How the helper's own connections reach it. */
  const connection: RedisOptions = {
    port,
    host: '127.0.0.1',
    ...(certificates ? { tls: { ca: readFileSync(certificates.caFile) } } : {}),
    ...(options.user ? { username: ADMIN.name, password: ADMIN.password } : {}),
  };
  const credentials = options.user ? `${encodeURIComponent(options.user.name)}:${encodeURIComponent(options.user.password)}@` : '';

  const start = async () => {
    const started = spawn(binary, [...listening, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...users], {
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
    url: `${certificates ? 'rediss' : 'redis'}://${credentials}127.0.0.1:${port}`,
    caFile: certificates?.caFile ?? null,
    start,
    async stop() {
      await stop();
      if (certificates) rmSync(certificates.dir, { recursive: true, force: true });
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    pauseWrites: () => adminCommand(connection, 'PAUSE', String(WRITE_PAUSE_MS), 'WRITE'),
    unpauseWrites: () => adminCommand(connection, 'UNPAUSE'),
    async commandCalls(command) {
      const client = new Redis(connection);
      try {
        const stats = await client.info('commandstats');
        return Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
      } finally {
        client.disconnect();
      }
    },
    async admin(...args) {
      const client = new Redis(connection);
      try {
        return await client.call(args[0]!, ...args.slice(1));
      } finally {
        client.disconnect();
      }
    },
    async dump() {
      const client = new Redis(connection);
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
async function adminCommand(connection: RedisOptions, ...args: string[]): Promise<void> {
  const client = new Redis(connection);
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
