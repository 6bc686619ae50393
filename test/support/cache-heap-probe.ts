// Run by test/integration/response-cache-heap.test.ts in a process of its own, with --expose-gc:
// the service (over the simulator, both on loopback) with an in-process response cache of the
// budget given in argv[2] is sent argv[3] distinct smallest answers to cache (`{ __typename }`, a
// new variable each, one made-up token) over HTTP, and the heap it grew by after a full collection
// is printed as one JSON line with the cache's gauges.
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createTradegraph } from '../../src/server.js';
import { startSimulator } from '../../src/simulator/server.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const budget = Number(process.argv[2]);
const answers = Number(process.argv[3]);
const CONCURRENCY = 4;

const simulator = await startSimulator();
const service = createTradegraph({
  config: {
    ...loadConfig({ LOG_LEVEL: 'silent' }),
    production: true,
    partnerApiUrl: simulator.url,
    partnerOpenApiUrl: simulator.url,
    responseCacheTtlMs: 600_000,
    responseCacheMaxBytes: budget,
    responseCacheMaxEntryBytes: budget,
  },
  logger: createLogger('silent'),
});
const url = await service.listen(0, '127.0.0.1');

async function send(variable: number, token: string | null): Promise<void> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({ query: '{ __typename }', variables: { v: variable } }),
  });
  const text = await response.text();
  // Each answer carries its own extensions.cost, which the cache does not store.
  if (!text.startsWith('{"data":{"__typename":"Query"},')) throw new Error(`unexpected answer ${response.status}: ${text}`);
}

/** Sends `count` requests, CONCURRENCY at a time, each with a variable of its own. */
async function sendAll(count: number, token: string | null, from: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await send(from + next++, token);
    }),
  );
}

const collect = () => {
  for (let round = 0; round < 4; round++) gc();
};
const gauge = async (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(await (await fetch(`${url}/metrics`)).text())?.[1]);

// The same pipeline without a token (never cached) warms up everything but the cache: V8's code
// and feedback for a path grow the heap over its first few thousand requests.
await sendAll(5000, null, 0);
collect();
const before = process.memoryUsage().heapUsed;
await sendAll(answers, 'made-up-heap-probe-token', 1_000_000);
collect();
const heapGrowth = process.memoryUsage().heapUsed - before;
const figures = {
  heapGrowth,
  bytes: await gauge('tradegraph_response_cache_bytes'),
  entries: await gauge('tradegraph_response_cache_entries'),
  maxBytes: await gauge('tradegraph_response_cache_max_bytes'),
};
await service.close();
await simulator.close();
console.log(JSON.stringify(figures));
