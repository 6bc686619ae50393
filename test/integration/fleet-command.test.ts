// `npm run fleet` as a newcomer runs it: one command starts the partner simulator, redis-server,
// two replicas and Hive Gateway on PORT; a query with @defer and a token goes through the gateway
// to both replicas; SIGINT to npm's pid stops every process it started, Redis included, and frees
// every port. Self-contained: its own PORT, and every other port is the system's pick.
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { DEMO_ACCESS_TOKEN, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { payloadsOf, type IncrementalPayload } from '../support/incremental.js';
import { killAll, portIsFree, startNpmScript, stillRunning, type NpmScript, type ProcessId } from '../support/npm-script.js';
import { closedPort } from '../support/ports.js';

/** Longer than a replica's 10 s shutdown grace period. */
const STOP_BOUND_MS = 30_000;

let run: NpmScript | undefined;
let tree: ProcessId[] = [];
afterAll(() => {
  run?.killGroup();
  killAll(tree);
});

/** The URL the fleet's "what runs where" table gives for `name`. */
function urlOf(lines: string[], name: string): URL {
  const row = lines.find((line) => line.trimStart().startsWith(`${name} `));
  if (!row) throw new Error(`the fleet printed no row for ${name}:\n${lines.join('\n')}`);
  return new URL(/\b(?:https?|redis):\/\/\S+/.exec(row)![0]);
}

const operationsServed = async (replica: URL) => {
  const text = await (await fetch(`${replica.origin}/metrics`)).text();
  return [...text.matchAll(/^tradegraph_graphql_operation_duration_seconds_count\{[^}]*\} (\d+)$/gm)].reduce(
    (sum, [, count]) => sum + Number(count),
    0,
  );
};

/** The operations a replica counted for a client name and version (tradegraph_client_operations_total). */
const clientOperations = async (replica: URL, name: string, version: string) => {
  const text = await (await fetch(`${replica.origin}/metrics`)).text();
  const series = new RegExp(`^tradegraph_client_operations_total\\{client_name="${name}",client_version="${version}",outcome="ok"\\} (\\d+)$`, 'gm');
  return [...text.matchAll(series)].reduce((sum, [, count]) => sum + Number(count), 0);
};

it('starts the fleet behind Hive Gateway on PORT at LOG_LEVEL=warn, serves @defer with the caller token and client name on both replicas, and stops all of it on SIGINT', async () => {
  const port = await closedPort();
  // At warn the replicas log no line on start: the fleet must find them ready by their /health.
  run = startNpmScript('fleet', { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  await run.waitForLine((line) => line === 'fleet: Ctrl-C stops all of it');
  tree = run.descendants();
  const commands = tree.map((process) => process.command);
  expect(commands).toEqual(expect.arrayContaining([expect.stringMatching(/redis-server/), expect.stringContaining('src/simulator/main.ts')]));
  expect(commands.filter((command) => command.endsWith('src/main.ts'))).toHaveLength(2);

  const gateway = urlOf(run.lines, 'Hive Gateway');
  expect(gateway.port).toBe(String(port));
  const replicas = [urlOf(run.lines, 'replica-1'), urlOf(run.lines, 'replica-2')];
  const others = [...replicas, urlOf(run.lines, 'redis-server'), urlOf(run.lines, 'partner simulator'), urlOf(run.lines, 'balancer')];
  expect(new Set([gateway.port, ...others.map((url) => url.port)]).size).toBe(6);

  // The caller's Authorization reaches the service: without it the partner read is refused.
  const anonymous = (await (
    await fetch(gateway, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: 730) { totalCount } }` }),
    })
  ).json()) as { errors?: Array<{ extensions?: { code?: string } }> };
  expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

  // @defer through the gateway: the page first, the fees in a later payload.
  const deferred = await fetch(gateway, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'multipart/mixed', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
    body: JSON.stringify({
      query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: 730) { totalCount items(first: 2) { nodes { id assetId ... @defer { listingFee(price: 500) { fee } } } } } }`,
    }),
  });
  expect(deferred.status).toBe(200);
  const payloads: IncrementalPayload[] = [];
  for await (const payload of payloadsOf(deferred)) payloads.push(payload);
  expect(payloads.length).toBeGreaterThan(1);
  expect(payloads.flatMap((payload) => payload.errors ?? [])).toEqual([]);
  const nodesOf = (payload: IncrementalPayload) =>
    (payload.data as { inventory: { items: { nodes: Array<{ listingFee?: { fee: number } }> } } }).inventory.items.nodes;
  // The page comes first, without its fees; a later payload brings them.
  expect(payloads[0]).toMatchObject({ data: { inventory: { totalCount: 240 } } });
  expect(nodesOf(payloads[0]!).map((node) => node.listingFee)).toEqual([undefined, undefined]);
  expect(nodesOf(payloads.at(-1)!).map((node) => node.listingFee?.fee)).toEqual([expect.any(Number), expect.any(Number)]);

  // Requests through the gateway reach both replicas, with the client's name and version in Hive's
  // spelling (the first two) or Apollo's (the last two).
  const clientHeaders: Record<string, string>[] = [
    { 'graphql-client-name': 'fleet-web', 'graphql-client-version': '4.12.0' },
    { 'apollographql-client-name': 'fleet-ios', 'apollographql-client-version': '2.0.1' },
  ];
  for (let index = 0; index < 4; index++) {
    const response = await fetch(gateway, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}`, ...clientHeaders[index >> 1] },
      body: JSON.stringify({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: 730) { totalCount } }` }),
    });
    expect(await response.json()).toMatchObject({ data: { inventory: { totalCount: 240 } } });
  }
  for (const replica of replicas) expect(await operationsServed(replica)).toBeGreaterThan(0);
  const counted = async (name: string, version: string) =>
    (await Promise.all(replicas.map((replica) => clientOperations(replica, name, version)))).reduce((sum, count) => sum + count, 0);
  expect(await counted('fleet-web', '4.12.0')).toBe(2);
  expect(await counted('fleet-ios', '2.0.1')).toBe(2);

  // Prometheus beside them (Debian's is installed here): both replicas scraped, every rule evaluated.
  const prometheus = urlOf(run.lines, 'Prometheus');
  const prometheusApi = async <T>(path: string) => ((await (await fetch(new URL(path, prometheus))).json()) as { data: T }).data;
  await expect
    .poll(async () => (await prometheusApi<{ activeTargets: { health: string }[] }>('/api/v1/targets')).activeTargets.map((target) => target.health), {
      timeout: 30_000,
    })
    .toEqual(['up', 'up']);
  const ruleHealth = async () =>
    (await prometheusApi<{ groups: { rules: { name: string; health: string }[] }[] }>('/api/v1/rules')).groups.flatMap((group) => group.rules);
  // A rule's health is "unknown" until its first evaluation, every second here.
  await expect.poll(async () => (await ruleHealth()).filter((rule) => rule.health !== 'ok'), { timeout: 30_000 }).toEqual([]);
  expect((await ruleHealth()).length).toBeGreaterThan(20);

  process.kill(run.pid, 'SIGINT');
  const exit = await Promise.race([run.exited, delay(STOP_BOUND_MS).then(() => 'npm still running')]);
  expect(exit).toEqual({ code: 0, signal: null });
  expect(run.lines).toContain('fleet: stopped');
  expect(stillRunning(tree)).toEqual([]);
  for (const url of [gateway, ...others, prometheus]) expect(await portIsFree(Number(url.port)), `${url.href} is free`).toBe(true);
}, 180_000);
