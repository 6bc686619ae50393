// GraphiQL as a newcomer meets it: the service started the way `npm start` starts it (on its
// simulator), opened in headless Chromium, the example query run, and inventory data on the page.
import { mkdir } from 'node:fs/promises';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_PLATFORM_ID, itemAt } from '../../src/simulator/data.js';
import { ensureChromium } from '../support/chromium.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const SCREENSHOT = 'test-results/graphiql.png';

let service: ServiceProcess;
let browser: Browser;

beforeAll(async () => {
  const executablePath = ensureChromium();
  service = await startServiceProcess();
  browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('GraphiQL in Chromium', () => {
  it('runs the example query with the demo token and shows the inventory in the result pane', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${service.url}/graphql`);

    const run = page.locator('.graphiql-execute-button');
    await run.waitFor({ state: 'visible', timeout: 30_000 });
    // The query editor opens on the example operation.
    await expect
      .poll(async () => normalise(await page.locator('.graphiql-query-editor').innerText()), { timeout: 30_000 })
      .toContain('query InventoryFirstPage');

    // The example operation's answer, not GraphiQL's own schema introspection, which it may send
    // to the same endpoint while the page is still settling.
    const answered = page.waitForResponse(
      (response) =>
        response.url().endsWith('/graphql') &&
        response.request().method() === 'POST' &&
        (response.request().postData() ?? '').includes('query InventoryFirstPage'),
    );
    await run.click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(await response.request().headerValue('authorization')).toBe(`Bearer ${DEMO_ACCESS_TOKEN}`);
    const body = (await response.json()) as {
      data?: { inventory: { totalCount: number; items: { nodes: { name: string }[] } } };
      errors?: unknown;
    };
    expect(body.errors).toBeUndefined();
    // The demo inventory's first ten items, as the simulator holds them, in its order.
    const expectedNames = Array.from({ length: 10 }, (_, index) => itemAt(DEMO_PLATFORM_ID, DEMO_APP_ID, index).name);
    expect(body.data!.inventory.items.nodes.map((node) => node.name)).toEqual(expectedNames);

    // What the person at the screen sees: the first item's name in the result pane.
    const firstName = expectedNames[0]!;
    await expect
      .poll(async () => normalise(await page.locator('.graphiql-response').innerText()), { timeout: 30_000 })
      .toContain(`"name": "${firstName}"`);

    await mkdir('test-results', { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    await page.close();
  });

  it("loads a schema without the subgraph's federation internals into GraphiQL", async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const introspection = page.waitForResponse(
      (response) => response.url().endsWith('/graphql') && (response.request().postData() ?? '').includes('__schema'),
    );
    await page.goto(`${service.url}/graphql`);
    const response = await introspection;
    const body = (await response.json()) as { data: { __schema: { types: { name: string; fields: { name: string }[] | null }[] } } };
    const types = body.data.__schema.types;
    expect(types.map((type) => type.name)).toContain('Inventory');
    expect(types.map((type) => type.name).filter((name) => /^(_Any|_Entity|_Service|link__|federation__)/.test(name))).toEqual([]);
    expect(types.find((type) => type.name === 'Query')!.fields!.map((field) => field.name).sort()).toEqual(['inventory', 'node']);
    await page.close();
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await service.stop()).toBe(0);
    expect(service.logs.map((entry) => entry.msg)).toContain('stopped');
  });
});

/** Monaco renders spaces as no-break spaces; compare text as typed. */
function normalise(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}
