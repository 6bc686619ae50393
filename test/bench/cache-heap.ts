// `npx tsx --expose-gc test/bench/cache-heap.ts`: the heap the in-process response cache's entries
// really take, which response-cache/in-process-store.ts's ENTRY_HEAP_BYTES and HEAP_PER_JSON_BYTE round up
// and config.ts's CACHE_HEAP_FACTOR bounds. Two extremes: the smallest answers (`{ __typename }`,
// 31 bytes of JSON, a new key each, as a made-up token with a new variable each makes them), whose
// heap per entry is the fixed cost of an entry; and a scenario's pages (the facade, under tsx over
// the simulator, answers its request for eight users' inventories), whose heap per byte of JSON is
// the cost that grows with an answer. Each fills the service's own store, every answer handed over
// as the cache plugin hands it (parsed anew, with its ETag and Last-Modified), up to the default
// budget, and reads the heap after a full collection before and after. A tool for one decision,
// not a benchmark; it asserts nothing.
import { hash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createInProcessStore, ENTRY_HEAP_BYTES } from '../../src/plugins/response-cache/in-process-store.js';
import { freePort, killAllNow, runTool, startNode, startSimulatorProcess, stopAll } from './processes.js';
import { benchFacadeEnv, buildScenarios, platformIdOf, trustedDocumentsManifest } from './scenarios.js';
import { round } from './stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({ options: { scenarios: { type: 'string', default: 'a,c' } } });
const DISTINCT_PAGES = 8;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run it with --expose-gc: npx tsx --expose-gc test/bench/cache-heap.ts');
const collect = () => {
  gc();
  gc();
};

/** DISTINCT_PAGES answers of a scenario's request, each for another inventory. */
async function answersOf(facadeUrl: string, scenarioId: string): Promise<string[]> {
  const request = buildScenarios().find((scenario) => scenario.id === scenarioId)?.facade[0];
  if (!request?.body) throw new Error(`no GraphQL request in scenario ${scenarioId}`);
  const answers: string[] = [];
  for (let page = 0; page < DISTINCT_PAGES; page++) {
    const body = JSON.parse(request.body) as { variables: { platformId: string } };
    body.variables.platformId = platformIdOf(page);
    const response = await fetch(facadeUrl + request.path, { method: request.method, headers: request.headers, body: JSON.stringify(body) });
    const text = await response.text();
    if (response.status !== 200 || (JSON.parse(text) as { errors?: unknown }).errors) throw new Error(`scenario ${scenarioId}: ${text.slice(0, 300)}`);
    answers.push(text);
  }
  if (new Set(answers).size !== DISTINCT_PAGES) throw new Error(`scenario ${scenarioId}: the ${DISTINCT_PAGES} pages are not all distinct`);
  return answers;
}

/**
 * A store filled to its budget with these answers, each parsed anew and given the headers the plugin
 * gives it, under a key of the plugin's form (a SHA-256 hex): its heap per entry, per byte of JSON
 * beyond an entry's fixed cost, and per byte of the budget it is weighed at.
 */
function fill(answers: string[], budget: number) {
  const store = createInProcessStore({ maxBytes: budget, maxEntryBytes: budget, staleIfErrorMs: 300_000 });
  collect();
  const before = process.memoryUsage().heapUsed;
  let entry = 0;
  for (let dropped = 0; dropped < 100; entry++) {
    const text = answers[entry % answers.length]!;
    const result = JSON.parse(text) as { data: unknown; extensions?: unknown };
    const key = hash('sha256', `entry ${entry}`, 'hex');
    result.extensions = { http: { headers: { ETag: key, 'Last-Modified': new Date().toUTCString() } } };
    const entriesBefore = store.entries;
    void store.set(key, result as never, [], 60_000);
    // Full once each new entry pushes an old one out.
    if (store.entries <= entriesBefore) dropped++;
  }
  collect();
  const heap = process.memoryUsage().heapUsed - before;
  // Every answer of a scenario is about as large: the JSON held is the entries times their mean.
  const meanJson = answers.reduce((sum, answer) => sum + Buffer.byteLength(JSON.stringify({ data: (JSON.parse(answer) as { data: unknown }).data })), 0) / answers.length;
  const json = store.entries * meanJson;
  return {
    entries: store.entries,
    heapMiB: round(heap / 2 ** 20, 1),
    heapPerEntry: round(heap / store.entries, 0),
    heapPerJsonByte: round((heap - store.entries * ENTRY_HEAP_BYTES) / json, 2),
    heapPerBudgetByte: round(heap / budget, 2),
  };
}

runTool(async () => {
  process.once('exit', killAllNow);
  const budget = loadConfig({}).responseCacheMaxBytes;
  const dir = mkdtempSync(join(tmpdir(), 'tradegraph-cache-heap-'));
  try {
    const manifest = join(dir, 'persisted-documents.json');
    writeFileSync(manifest, JSON.stringify(trustedDocumentsManifest()));
    const simulator = await startSimulatorProcess(ROOT);
    const port = await freePort();
    const facade = await startNode({ name: 'facade', cwd: ROOT, script: 'src/main.ts', port, env: benchFacadeEnv(port, simulator.url, manifest), readyPath: '/health' });
    const answers = new Map<string, string[]>();
    for (const id of args.scenarios.split(',')) answers.set(id, await answersOf(facade.url, id));
    await stopAll();
    console.log(`Node ${process.version}; the default budget, ${round(budget / 2 ** 20, 1)} MiB, filled:`);
    const smallest = fill(['{"data":{"__typename":"Query"}}'], budget);
    console.log(
      `smallest answers: ${smallest.entries} entries, heap +${smallest.heapMiB} MiB, ${smallest.heapPerEntry} bytes each ` +
        `(ENTRY_HEAP_BYTES rounds it up), ${smallest.heapPerBudgetByte} bytes of heap per byte of budget`,
    );
    for (const [id, texts] of answers) {
      const figures = fill(texts, budget);
      console.log(
        `(${id}) ${figures.entries} entries, heap +${figures.heapMiB} MiB, ${figures.heapPerJsonByte} bytes of heap per byte of JSON ` +
          `beyond ENTRY_HEAP_BYTES (HEAP_PER_JSON_BYTE rounds it up), ${figures.heapPerBudgetByte} bytes of heap per byte of budget`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
