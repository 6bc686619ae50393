// The bounded load test (`npm run test:load`): 25 concurrent clients × 60 requests against the
// service and the partner simulator on 127.0.0.1, with about 10% partner faults mixed in. Every
// answer must be HTTP 200 with a well-formed GraphQL body, no promise may go unhandled, and the
// service must still be alive and healthy afterwards. Prints its figures; exits 1 on a failure.
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.js';
import { ErrorCode } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { createTradegraph } from '../../src/server.js';
import { DEMO_APP_KEY, platformIdWithSize } from '../../src/simulator/data.js';
import { startSimulator, type Fault } from '../../src/simulator/server.js';

const CLIENTS = 25;
const REQUESTS_PER_CLIENT = 60;
/** The whole run stops at this point whatever happens; one request at REQUEST_TIMEOUT_MS. */
const RUN_DEADLINE_MS = 120_000;
const REQUEST_TIMEOUT_MS = 15_000;
const UPSTREAM_TIMEOUT_MS = 1000;

/** About 10% of partner calls fail, in every way the simulator can fail. */
const FAULTS: Fault[] = [
  { kind: 'http-503', rate: 0.025 },
  { kind: 'http-500', rate: 0.01 },
  { kind: 'reset', rate: 0.015 },
  { kind: 'non-json', rate: 0.01 },
  { kind: 'truncated-json', rate: 0.01 },
  { kind: 'http-429', rate: 0.01, retryAfter: 1 },
  { kind: 'envelope-error', rate: 0.01 },
  { kind: 'slow', rate: 0.01, delayMs: UPSTREAM_TIMEOUT_MS + 200 },
];

const OPERATIONS = [
  {
    name: 'page',
    body: (client: number, index: number) => ({
      query: `query ($p: String!) { inventory(platformId: $p, appId: 730) { totalCount items(first: 20) { pageInfo { hasNextPage endCursor } nodes { id assetId name price tradableTime } } } }`,
      variables: { p: platformIdFor(client, index) },
    }),
  },
  {
    name: 'page with fees',
    body: (client: number, index: number) => ({
      query: `query ($p: String!) { inventory(platformId: $p, appId: 730) { items(first: 10) { nodes { assetId listingFee(price: 500) { fee freeFeePrice } } } } }`,
      variables: { p: platformIdFor(client, index) },
    }),
  },
  {
    name: 'total',
    body: (client: number, index: number) => ({
      query: `query ($p: String!) { inventory(platformId: $p, appId: 570) { totalCount } }`,
      variables: { p: platformIdFor(client, index) },
    }),
  },
  {
    name: 'fee mutation',
    body: (client: number, index: number) => ({
      query: `mutation ($items: [ListingFeeItemInput!]!) { calculateListingFee(input: { items: $items }) { fees { fee } } }`,
      variables: { items: [{ price: 100 + client }, { price: 1000 + index, token: `tok_730_${client}${index}` }] },
    }),
  },
] as const;

const KNOWN_CODES = new Set<string>(Object.values(ErrorCode));

function platformIdFor(client: number, index: number): string {
  return platformIdWithSize(50 + ((client * 7 + index) % 400));
}

interface Figures {
  requests: number;
  ok: number;
  withErrors: number;
  failures: string[];
  latenciesMs: number[];
  codes: Map<string, number>;
}

async function main(): Promise<number> {
  const unhandled: unknown[] = [];
  process.on('unhandledRejection', (reason) => unhandled.push(reason));
  process.on('uncaughtException', (error) => unhandled.push(error));

  const simulator = await startSimulator({ faults: FAULTS });
  let logLines = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines += chunk.toString('utf8').split('\n').filter(Boolean).length;
      done();
    },
  });
  const config = {
    ...loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'info', PARTNER_API_URL: simulator.url }),
    partnerApiUrl: simulator.url,
    partnerOpenApiUrl: simulator.url,
    partnerAppKey: DEMO_APP_KEY,
    upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
  };
  const service = createTradegraph({ config, logger: createLogger(config.logLevel, sink) });
  const url = await service.listen(0, '127.0.0.1');
  const graphqlUrl = `${url}/graphql`;

  const figures: Figures = { requests: 0, ok: 0, withErrors: 0, failures: [], latenciesMs: [], codes: new Map() };
  const deadline = AbortSignal.timeout(RUN_DEADLINE_MS);
  const started = performance.now();

  const runClient = async (client: number) => {
    for (let index = 0; index < REQUESTS_PER_CLIENT && !deadline.aborted; index++) {
      const operation = OPERATIONS[(client + index) % OPERATIONS.length]!;
      const sent = performance.now();
      figures.requests += 1;
      try {
        const response = await fetch(graphqlUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/graphql-response+json, application/json',
            authorization: `Bearer load-client-${client}-token`,
          },
          body: JSON.stringify(operation.body(client, index)),
          signal: AbortSignal.any([deadline, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
        });
        const text = await response.text();
        figures.latenciesMs.push(performance.now() - sent);
        const problem = checkAnswer(response, text, figures);
        if (problem) figures.failures.push(`${operation.name}: ${problem}`);
      } catch (error) {
        figures.failures.push(`${operation.name}: no answer (${error instanceof Error ? error.message : String(error)})`);
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, client) => runClient(client)));
  const elapsedMs = performance.now() - started;

  // The service must have come through alive: healthy, and still answering GraphQL correctly.
  const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
  const partnerCalls = simulator.calls.length;
  const faultsInjected = simulator.calls.filter((call) => call.fault).length;
  simulator.reset();
  const after = await fetch(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer load-after-token' },
    body: JSON.stringify({ query: '{ inventory(platformId: "76561198000000240", appId: 730) { totalCount } }' }),
    signal: AbortSignal.timeout(5000),
  })
    .then((response) => response.json() as Promise<unknown>)
    .catch(() => null);

  await service.close();
  await simulator.close();

  const sorted = [...figures.latenciesMs].sort((a, b) => a - b);
  const percentile = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);
  const report = {
    clients: CLIENTS,
    requests: figures.requests,
    elapsedSeconds: +(elapsedMs / 1000).toFixed(2),
    requestsPerSecond: Math.round(figures.requests / (elapsedMs / 1000)),
    latencyMs: {
      p50: Math.round(percentile(50)),
      p95: Math.round(percentile(95)),
      p99: Math.round(percentile(99)),
      max: Math.round(sorted[sorted.length - 1] ?? NaN),
    },
    answersWithoutErrors: figures.ok,
    answersWithTypedErrors: figures.withErrors,
    errorCodes: Object.fromEntries([...figures.codes].sort(([a], [b]) => a.localeCompare(b))),
    failures: figures.failures.length,
    unhandledRejections: unhandled.length,
    healthAfter: health?.status ?? 'no answer',
    queryAfter: after,
    logLines,
    partnerCalls,
    partnerFaultsInjected: faultsInjected,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);

  const problems = [
    ...figures.failures.slice(0, 10),
    ...(figures.requests !== CLIENTS * REQUESTS_PER_CLIENT ? [`only ${figures.requests} requests were sent before the deadline`] : []),
    ...(unhandled.length ? [`${unhandled.length} unhandled rejections or exceptions: ${String(unhandled[0])}`] : []),
    ...(health?.status === 200 ? [] : ['/health did not answer 200 after the run']),
    // The data and nothing else: no errors (extensions.cost rides along with every answer).
    ...(isDemoTotal(after) ? [] : ['the service did not answer correctly after the run']),
  ];
  if (problems.length) {
    process.stderr.write(`load test FAILED:\n  ${problems.join('\n  ')}\n`);
    return 1;
  }
  process.stdout.write('load test passed\n');
  return 0;
}

/** Returns what is wrong with one answer, or null; counts its error codes. */
function checkAnswer(response: Response, text: string, figures: Figures): string | null {
  if (response.status !== 200) return `HTTP ${response.status}: ${text.slice(0, 200)}`;
  if (!/json/.test(response.headers.get('content-type') ?? '')) return `content type ${response.headers.get('content-type')}`;
  let body: { data?: unknown; errors?: Array<{ message?: unknown; extensions?: { code?: unknown } }> };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  if (!('data' in body) && !body.errors) return 'neither data nor errors';
  if (!body.errors) {
    figures.ok += 1;
    return null;
  }
  figures.withErrors += 1;
  for (const error of body.errors) {
    const code = String(error.extensions?.code);
    figures.codes.set(code, (figures.codes.get(code) ?? 0) + 1);
    if (typeof error.message !== 'string' || !KNOWN_CODES.has(code)) return `an error outside the closed set: ${JSON.stringify(error)}`;
  }
  return null;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`load test crashed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);

/** The demo inventory's total, answered without errors. */
function isDemoTotal(answer: unknown): boolean {
  const { data, errors } = (answer ?? {}) as { data?: unknown; errors?: unknown };
  return errors === undefined && JSON.stringify(data) === JSON.stringify({ inventory: { totalCount: 240 } });
}
