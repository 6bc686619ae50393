// `npm run fleet`: the production topology on one machine, for trying it out. The partner simulator,
// a real redis-server, two replicas of the service sharing it (response cache and rate limits on),
// a round-robin balancer in front of them, and Hive Gateway in front of that on PORT, serving the
// schema of a supergraph composed at start. Everything but the gateway listens on a port the system picks, so
// nothing collides; a replica is ready when its /health answers, whatever LOG_LEVEL it logs at. It prints what runs where; SIGINT (Ctrl-C) or SIGTERM stops every process it
// started, Redis included, and it stops them all as well when any one of them dies.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGatewayRuntime } from '@graphql-hive/gateway';
import getPort from 'get-port';
import { gatewayConfig } from '../../gateway.config.js';
import { ErrorCode } from '../errors.js';
import { composeApiSchema, loadSubgraphSdl } from './compose.js';
import { PROMETHEUS, PROMETHEUS_READY_LINE, prometheusArgs, ruleFiles } from './prometheus.js';
import { findRedisServer } from './redis-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** How long one process may take to say it is ready before the fleet gives up. */
const READY_TIMEOUT_MS = 60_000;
const REPLICAS = 2;

interface Started {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
}

const started: Started[] = [];
let gatewayServer: Server | null = null;
let balancerServer: Server | null = null;
let disposeGateway: (() => Promise<void>) | null = null;
let stopping = false;

const say = (line: string) => process.stdout.write(`fleet: ${line}\n`);

/**
 * Starts a child process and resolves with the first output line `ready` accepts (none is awaited
 * without `ready`: startReplica waits for its /health instead).
 */
function startProcess(name: string, command: string, args: string[], env: Record<string, string>, ready?: (line: string) => boolean) {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit').then(([code, signal]) => {
    if (!stopping) {
      say(`${name} exited (${code ?? signal}) on its own: stopping the fleet`);
      void stop(1);
    }
  });
  started.push({ name, child, exited });
  return new Promise<string>((resolve, reject) => {
    const timer = ready && setTimeout(() => reject(new Error(`${name} was not ready within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    let seen = '';
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        // Warnings and errors of the fleet's processes are shown; their routine lines are not.
        const shown = line.startsWith('{') ? /"level":(40|50|60)\b/.test(line) : /\b(error|fatal)\b/i.test(line);
        if (shown) process.stdout.write(`[${name}] ${line}\n`);
        // Enough to say why a process failed to start, not a copy of a long run's output.
        if (seen.length < 65_536) seen += `${line}\n`;
        if (ready?.(line)) {
          clearTimeout(timer);
          resolve(line);
        }
      });
    }
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it was ready:\n${seen}`));
    });
  });
}

/** How often a starting replica's /health is asked. */
const HEALTH_POLL_MS = 100;

/**
 * Resolves once `url`'s GET /health answers 200: the replica listens and serves, whatever its
 * LOG_LEVEL lets it say. Rejects after READY_TIMEOUT_MS, or when the fleet is stopping.
 */
async function healthy(name: string, url: URL): Promise<void> {
  const until = Date.now() + READY_TIMEOUT_MS;
  while (!stopping) {
    const answered = await fetch(new URL('/health', url), { signal: AbortSignal.timeout(HEALTH_POLL_MS * 10) }).then(
      async (response) => {
        await response.body?.cancel();
        return response.status === 200;
      },
      () => false,
    );
    if (answered) return;
    if (Date.now() > until) throw new Error(`${name} was not ready within ${READY_TIMEOUT_MS / 1000} s`);
    await delay(HEALTH_POLL_MS);
  }
  throw new Error(`${name} was stopped before it was ready`);
}

/** Debian's redis-server; installed with apt-get when missing and this process may (root), as CI does. */
function redisServerPath(): string {
  const found = findRedisServer({
    onInstall: () => say("redis-server is missing: installing Debian's package (apt-get install redis-server)"),
    showInstall: true,
  });
  if (found) return found;
  throw new Error(
    'redis-server is not installed. On Debian or Ubuntu: sudo apt-get install redis-server (elsewhere: your package manager, or https://redis.io/docs/latest/operate/oss_and_stack/install/), then npm run fleet again.',
  );
}

/** Debian's Prometheus, when installed, scraping the replicas with the rules of ops/prometheus/; its data is temporary. */
async function startPrometheus(replicas: URL[]): Promise<string | null> {
  if (!existsSync(PROMETHEUS)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'tradegraph-fleet-prometheus-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const port = await getPort({ host: '127.0.0.1' });
  const args = prometheusArgs({ targets: replicas.map((url) => url.host), ruleFiles: ruleFiles(), dir, port });
  await startProcess('prometheus', PROMETHEUS, args, {}, (line) => line.includes(PROMETHEUS_READY_LINE));
  return `http://127.0.0.1:${port}`;
}

/**
 * The load balancer a deployment puts between the gateway and the replicas, as small as it gets:
 * each request goes to the next replica in turn, streamed both ways (so @defer's parts pass as
 * they come).
 */
function startBalancer(replicas: URL[]): Promise<string> {
  let next = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const target = replicas[next++ % replicas.length]!;
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ errors: [{ message: `Replica ${target.host} did not answer.`, extensions: { code: ErrorCode.UPSTREAM_UNAVAILABLE } }] }));
    });
    req.pipe(upstream);
  });
  balancerServer = server;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** The partner simulator, on a port it picks; resolves with its base URL. */
async function startSimulator(node: string, tsx: string[]): Promise<string> {
  const simulatorEnv = { SIMULATOR_PORT: '0' };
  const simulatorLine = await startProcess('simulator', node, [...tsx, 'src/simulator/main.ts'], simulatorEnv, (line) =>
    line.startsWith('partner simulator listening on '),
  );
  return simulatorLine.slice('partner simulator listening on '.length).trim();
}

/** Debian's redis-server, without persistence; resolves with its URL. */
async function startRedis(redisServer: string): Promise<string> {
  // redis-server needs its port named: one nothing listens on now.
  const redisPort = await getPort({ host: '127.0.0.1' });
  await startProcess(
    'redis-server',
    redisServer,
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {},
    (line) => line.includes('Ready to accept connections'),
  );
  return `redis://127.0.0.1:${redisPort}`;
}

/** One replica of the service, against the simulator and the shared Redis; resolves with its URL once /health answers. */
async function startReplica(index: number, node: string, tsx: string[], simulatorUrl: string, redisUrl: string): Promise<URL> {
  // Named here, so that readiness is the replica's /health answering, whatever it logs.
  const replicaPort = await getPort({ host: '127.0.0.1' });
  const name = `replica-${index + 1}`;
  const starting = startProcess(
    name,
    node,
    [...tsx, 'src/main.ts'],
    {
      PORT: String(replicaPort),
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      PARTNER_API_URL: simulatorUrl,
      // The simulator's demo merchant key (docs/simulator.md), unless one is given.
      PARTNER_APP_KEY: process.env.PARTNER_APP_KEY ?? 'demo-app-key',
      REDIS_URL: redisUrl,
      RESPONSE_CACHE_TTL_MS: process.env.RESPONSE_CACHE_TTL_MS ?? '10000',
      RATE_LIMIT_MAX: process.env.RATE_LIMIT_MAX ?? '6000',
      RATE_LIMIT_WINDOW_MS: process.env.RATE_LIMIT_WINDOW_MS ?? '60000',
    },
  );
  const url = new URL(`http://127.0.0.1:${replicaPort}`);
  await Promise.race([starting, healthy(name, url)]);
  return url;
}

/** Hive Gateway on `host`:`port`, in front of the balancer; resolves with the port it listens on. */
async function startGateway(balancerUrl: string, port: number, host: string): Promise<number> {
  // Composed at start by the repository's own composition (the same as `npm run supergraph`). The
  // gateway serves the composed API schema and proxies each operation whole to the one subgraph,
  // so @defer and @stream are the service's own (one fee call for a page, as without a gateway).
  // In supergraph mode Hive Gateway 2.15 plans a deferred fragment of this subgraph away and
  // answers its fields as null without an error (graphql-hive/gateway#1675 shows the symptom).
  const subgraph = { name: 'tradegraph', url: `${balancerUrl}/graphql`, sdl: join(ROOT, 'schema') };
  const apiSchema = composeApiSchema([{ ...subgraph, sdl: await loadSubgraphSdl(subgraph) }]);
  // The repository's gateway.config.ts settings: the caller's Authorization and client headers passed on, @defer on.
  const gateway = createGatewayRuntime({
    proxy: { endpoint: subgraph.url },
    schema: apiSchema,
    propagateHeaders: gatewayConfig.propagateHeaders,
    deferStream: gatewayConfig.deferStream,
    logging: 'warn',
  });
  disposeGateway = async () => gateway.dispose();
  const server = createServer((req, res) => void gateway.requestListener(req, res));
  gatewayServer = server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} on ${host} is taken by another process: set PORT to a free one`) : error),
    );
    server.listen(port, host, resolve);
  });
  return (server.address() as AddressInfo).port;
}

interface Addresses {
  gateway: string;
  balancer: string;
  replicas: URL[];
  redis: string;
  simulator: string;
  prometheus: string | null;
}

/** Prints what runs where, and a request to try. */
function sayWhatRunsWhere(urls: Addresses, shownHost: string, gatewayPort: number): void {
  const pid = (name: string) => `pid ${started.find((s) => s.name === name)!.child.pid}`;
  const rows = [
    ['Hive Gateway', urls.gateway, '@defer/@stream on, Authorization and client passed on, RateLimit back'],
    ['balancer', urls.balancer, 'round robin over the replicas'],
    ...urls.replicas.map((url, index) => [`replica-${index + 1}`, `${url.origin}/graphql`, pid(`replica-${index + 1}`)]),
    ['redis-server', urls.redis, pid('redis-server')],
    ['partner simulator', urls.simulator, pid('simulator')],
    ...(urls.prometheus ? [['Prometheus', urls.prometheus, 'scrapes the replicas each second, with the rules of ops/prometheus/']] : []),
  ];
  say('up; what runs where:');
  for (const [name, url, note] of rows) process.stdout.write(`  ${name!.padEnd(18)} ${url!.padEnd(36)} ${note}\n`);
  say(`try: curl -s http://${shownHost}:${gatewayPort}/graphql -H 'content-type: application/json' -H 'authorization: Bearer demo-access-token' -d '{"query":"{ inventory(platformId: \\"76561198000000240\\", appId: 730) { totalCount } }"}'`);
  say('Ctrl-C stops all of it');
}

async function start(): Promise<void> {
  const port = Number(process.env.PORT ?? 4000);
  const host = process.env.HOST ?? '127.0.0.1';
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT: must be a whole number from 0 to 65535`);
  const redisServer = redisServerPath();
  const node = process.execPath;
  const tsx = ['--import', 'tsx'];

  const simulatorUrl = await startSimulator(node, tsx);
  const redisUrl = await startRedis(redisServer);
  const replicaUrls = await Promise.all(Array.from({ length: REPLICAS }, (_, index) => startReplica(index, node, tsx, simulatorUrl, redisUrl)));
  const balancerUrl = await startBalancer(replicaUrls);
  const prometheusUrl = await startPrometheus(replicaUrls);
  const gatewayPort = await startGateway(balancerUrl, port, host);
  const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  const urls = {
    gateway: `http://${shownHost}:${gatewayPort}/graphql`,
    balancer: balancerUrl,
    replicas: replicaUrls,
    redis: redisUrl,
    simulator: simulatorUrl,
    prometheus: prometheusUrl,
  };
  sayWhatRunsWhere(urls, shownHost, gatewayPort);
}

/** Stops the gateway, then every process (SIGTERM, which each of them takes as a graceful stop). */
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  say('stopping');
  const closing = [gatewayServer, balancerServer].map(
    (server) =>
      new Promise<void>((resolve) => {
        if (!server?.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  await Promise.all(closing);
  await disposeGateway?.().catch(() => undefined);
  for (const { child } of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await Promise.all(started.map(({ exited }) => exited));
  say('stopped');
  process.exit(code);
}

// Every signal is heard, once: Ctrl-C under npm arrives twice (the terminal's and npm's forward).
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

start().catch((error: unknown) => {
  process.stderr.write(`fleet: ${error instanceof Error ? error.message : String(error)}\n`);
  void stop(1);
});
