// The in-process response cache is bounded by the bytes it holds: distinct largest reads (nine
// pages of 100 items with every field, each about 1.7 MB of JSON) against the service as `npm start` runs
// it, with a small budget and a heap limit that a store bounded by count exhausts within the run,
// leave the store within its budget and the process answering; an answer above the per-entry cap
// is not cached at all. The suite sends 150 reads (each costs the shared test machine tens of
// milliseconds); CACHE_MEMORY_READS=2000 sends the 2,000.
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_ACCESS_TOKEN, platformIdWithSize } from '../../src/simulator/data.js';
import { InventoryItemsFullDocument, InventoryTotalDocument } from '../generated/graphql.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { expectNoGraphQLErrors, useTestkit } from '../support/testkit.js';

const READS = Number(process.env.CACHE_MEMORY_READS ?? 150);
const CLIENTS = 2;
const BUDGET_BYTES = 8 * 1024 * 1024;
/** Nine inventories of 100 items: the most one operation may ask for (the cost limit). */
const PAGES = 9;

/** Nine pages of 100 items with every field of InventoryItemsFull's fragment. */
const LARGEST_READ = (() => {
  const text = print(InventoryItemsFullDocument);
  const fragment = text.slice(text.indexOf('fragment '));
  const pages = Array.from(
    { length: PAGES },
    // One inventory nine times over: the answer is as large as nine inventories' pages, for one
    // partner call instead of nine (the shared test machine is slow enough).
    (_, page) => `p${page}: inventory(platformId: $platformId, appId: 730) { id items(first: 100) { nodes { ...InventoryItemFields } } }`,
  );
  return `query LargestRead($platformId: String!) {\n${pages.join('\n')}\n}\n${fragment}`;
})();

describe('the in-process response cache under many distinct largest reads', () => {
  let service: ServiceProcess;
  beforeAll(async () => {
    service = await startServiceProcess({
      NODE_ENV: 'production',
      PARTNER_SIMULATOR: 'embedded',
      RESPONSE_CACHE_TTL_MS: '600000',
      RESPONSE_CACHE_MAX_BYTES: String(BUDGET_BYTES),
      // A few dozen such answers held exhaust this heap; the budget holds four.
      NODE_OPTIONS: '--max-old-space-size=256',
      // Generous: the shared machine may be slow, and this test is about memory, not time.
      UPSTREAM_TIMEOUT_MS: '60000',
      OPERATION_TIMEOUT_MS: '120000',
      UPSTREAM_CONNECTION_WAIT_MS: '60000',
    });
  });
  afterAll(async () => {
    await service?.stop();
  });

  let answerBytes = 0;
  const read = async (index: number) => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
      body: JSON.stringify({ query: LARGEST_READ, variables: { platformId: platformIdWithSize(101 + index) } }),
    });
    const text = await response.text();
    const body = JSON.parse(text) as { data?: Record<string, { items: { nodes: unknown[] } } | null>; errors?: unknown };
    const fullPages = Object.values(body.data ?? {}).filter((page) => page?.items.nodes.length === 100);
    answerBytes = Math.max(answerBytes, Buffer.byteLength(text));
    return { status: response.status, pages: fullPages.length, errors: body.errors };
  };
  const cacheGauges = async () => {
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    return {
      bytes: Number(/^tradegraph_response_cache_bytes (\d+)$/m.exec(metrics)?.[1]),
      entries: Number(/^tradegraph_response_cache_entries (\d+)$/m.exec(metrics)?.[1]),
    };
  };

  it('keeps the store within its byte budget, and the process answering', async () => {
    const sample = await read(0);
    expect(sample).toEqual({ status: 200, pages: PAGES, errors: undefined });

    let next = 1;
    let answered = 1;
    const failures: unknown[] = [];
    const largestSeen = { bytes: 0, entries: 0 };
    const client = async () => {
      while (next < READS) {
        const index = next++;
        // A connection the client reused as the service closed it is sent again, once; a read
        // that fails again (the process gone) counts as unanswered.
        const result = await read(index)
          .catch(() => read(index))
          .catch((error: unknown) => ({ status: 0, pages: 0, errors: String(error) }));
        if (result.status === 200 && result.pages === PAGES && result.errors === undefined) answered += 1;
        else if (failures.length < 3) failures.push(result);
        if (index % 100 === 0) {
          const gauges = await cacheGauges();
          largestSeen.bytes = Math.max(largestSeen.bytes, gauges.bytes);
          largestSeen.entries = Math.max(largestSeen.entries, gauges.entries);
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    expect({ answered, failures }).toEqual({ answered: READS, failures: [] });

    const after = await cacheGauges();
    expect(after.bytes).toBeGreaterThan(0);
    expect(after.bytes).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(largestSeen.bytes).toBeLessThanOrEqual(BUDGET_BYTES);
    // Each answer is well over a megabyte of JSON: the budget holds a few of them at most.
    expect(answerBytes).toBeGreaterThan(1024 * 1024);
    expect(largestSeen.entries).toBeLessThanOrEqual(Math.floor(BUDGET_BYTES / (1024 * 1024)));
    expect(after.entries).toBeGreaterThan(0);
    // Still answering, and the last read is still cached.
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    expect(await read(READS - 1)).toEqual({ status: 200, pages: PAGES, errors: undefined });
    // Its log line comes through the process's standard output, which may arrive after the answer.
    await vi.waitFor(
      () => expect(service.logs.filter((line) => line.msg === 'graphql operation' && line.responseCache === 'hit').length).toBeGreaterThan(0),
      { timeout: 10_000, interval: 50 },
    );
  }, 900_000);
});

describe('an answer above RESPONSE_CACHE_MAX_ENTRY_BYTES', () => {
  const kit = useTestkit({ config: { responseCacheTtlMs: 60_000, responseCacheMaxEntryBytes: 2048 } });

  it('is answered but never cached, while a smaller answer is', async () => {
    const large = { platformId: platformIdWithSize(40), appId: 730, first: 20 };
    const small = { platformId: platformIdWithSize(40), appId: 730 };
    for (let round = 0; round < 2; round++) {
      const page = await kit().execute(InventoryItemsFullDocument, large, {});
      expectNoGraphQLErrors(page);
      expect(page.data?.inventory?.items.nodes).toHaveLength(20);
      expect(JSON.stringify(page.data).length).toBeGreaterThan(2048);
      expect(page.extensions).toMatchObject({ responseCache: { hit: false } });
      const total = await kit().execute(InventoryTotalDocument, small, {});
      expectNoGraphQLErrors(total);
      expect(total.extensions).toMatchObject({ responseCache: { hit: round === 1 } });
    }
    // Two pages and one total from the partner.
    expect(kit().simulator.callsOf('readInventory')).toHaveLength(3);
  });
});
