// `npx tsx --expose-gc test/bench/cache-heap.ts`: how much heap the in-process response cache
// takes per byte of the answers' JSON it is weighed by (RESPONSE_CACHE_MAX_BYTES), which is what
// config.ts's CACHE_HEAP_PER_JSON_BYTE rounds up. The facade (under tsx, over the simulator) answers
// a scenario's request for eight users' inventories, eight distinct pages; this process then fills
// the service's own store (plugins/response-cache-store.ts) with those answers, each parsed anew as
// the cache plugin hands it over, up to the default budget, and reads the heap after a full
// collection before and after. A tool for one decision, not a benchmark; it asserts nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createInProcessStore } from '../../src/plugins/response-cache-store.js';
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

/** Heap per JSON byte of a store filled to its budget with these answers, each parsed anew as the plugin hands it over. */
function heapPerJsonByte(answers: string[], budget: number) {
  const store = createInProcessStore({ maxBytes: budget, maxEntryBytes: budget });
  collect();
  const before = process.memoryUsage().heapUsed;
  const largest = Math.max(...answers.map((answer) => Buffer.byteLength(answer)));
  for (let entry = 0; store.bytes + largest <= budget; entry++) {
    void store.set(`entry ${entry}`, JSON.parse(answers[entry % answers.length]!), [], 60_000);
  }
  collect();
  const heap = process.memoryUsage().heapUsed - before;
  return { entries: store.entries, jsonMiB: round(store.bytes / 2 ** 20, 1), heapMiB: round(heap / 2 ** 20, 1), heapPerJsonByte: round(heap / store.bytes, 2) };
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
    console.log(`Node ${process.version}; the default budget, ${round(budget / 2 ** 20, 1)} MiB of JSON, filled with ${DISTINCT_PAGES} distinct answers a scenario:`);
    for (const [id, texts] of answers) {
      const figures = heapPerJsonByte(texts, budget);
      console.log(`(${id}) ${figures.entries} entries, ${figures.jsonMiB} MiB of JSON: heap +${figures.heapMiB} MiB, ${figures.heapPerJsonByte} bytes of heap per byte of JSON`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
