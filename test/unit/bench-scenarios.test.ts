// The bench's like-for-like scenarios (issue 53): each request its own caller and inventory, so
// that no two requests in flight can share a partner call, and (e-new) a caller never seen before
// at every request, sent so by the generator over real HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drive } from '../bench/drive.js';
import { buildScenarios, LIKE_FOR_LIKE, MANY_CALLERS, MANY_INVENTORIES, type BenchRequest, type Scenario } from '../bench/scenarios.js';
import { wrkScript } from '../bench/wrk.js';

const scenarios = buildScenarios();
const byId = (id: string) => scenarios.find((s) => s.id === id)!;
const callerOf = (request: BenchRequest) => request.headers.authorization;
/** The inventory a request reads: the platformId of its variables, its items' tokens, or its query string. */
const inventoryOf = (request: BenchRequest) => {
  if (request.method === 'GET') return new URL(`http://x${request.path}`).searchParams.get('platformId');
  type Items = { items: Array<{ token: string }> };
  const body = JSON.parse(request.body!) as { variables?: { platformId?: string; input?: Items }; items?: Items['items'] };
  const items = body.items ?? body.variables?.input?.items;
  return body.variables?.platformId ?? items!.map((item) => item.token).join(',');
};
const rotating = LIKE_FOR_LIKE.filter((id) => id !== 'e-new');

describe('the like-for-like scenarios', () => {
  it('are the first of a full bench, beside the shared-call scenarios of the same names', () => {
    expect(scenarios.slice(0, LIKE_FOR_LIKE.length).map((s) => s.id)).toEqual(LIKE_FOR_LIKE);
    for (const id of rotating) expect(byId(id.replace(/-many$/, ''))).toBeDefined();
  });

  it.each(rotating)('(%s) rotates over at least 1,000 callers and 500 inventories, facade and baseline alike', (id) => {
    const scenario = byId(id);
    for (const requests of [scenario.facade, scenario.baseline]) {
      expect(new Set(requests.map(callerOf)).size).toBeGreaterThanOrEqual(1_000);
      expect(new Set(requests.map(inventoryOf)).size).toBeGreaterThanOrEqual(500);
    }
    expect(MANY_CALLERS).toBeGreaterThanOrEqual(1_000);
    expect(MANY_INVENTORIES).toBeGreaterThanOrEqual(500);
    // The baseline's k-th request is the facade's: the same caller reading the same inventory.
    scenario.facade.forEach((request, k) => expect(callerOf(scenario.baseline[k]!)).toBe(callerOf(request)));
    scenario.facade.forEach((request, k) => expect(inventoryOf(scenario.baseline[k]!)).toBe(inventoryOf(request)));
  });

  it.each(rotating)('(%s) never has two requests of one caller or one inventory in flight at once', (id) => {
    const scenario: Scenario = byId(id);
    const { facade } = scenario;
    // The generators send the list in turn from one counter: any `connections` requests in a row
    // (around the end of the list too) are the ones that can be in flight together.
    for (let start = 0; start < facade.length; start++) {
      const window = Array.from({ length: scenario.connections }, (_, i) => facade[(start + i) % facade.length]!);
      expect(new Set(window.map(callerOf)).size).toBe(window.length);
      expect(new Set(window.map(inventoryOf)).size).toBe(window.length);
    }
  });

  it('each sees every caller and inventory many times in a round (a steady state)', () => {
    const { facade } = byId('a-many');
    // A round of the pinned bench is thousands of requests; the list is a cycle of 1,000.
    expect(facade.length).toBe(MANY_CALLERS);
    const perInventory = new Map<string | null, number>();
    for (const request of facade) perInventory.set(inventoryOf(request), (perInventory.get(inventoryOf(request)) ?? 0) + 1);
    expect(Math.min(...perInventory.values())).toBe(MANY_CALLERS / MANY_INVENTORIES);
  });

  it("(e-many) is scenario (e)'s shape, 50 connections, over 1,000 callers (issue 53's \"(e) with 1,000 callers\")", () => {
    expect(byId('e-many').connections).toBe(byId('e').connections);
    expect(byId('e-many').connections).toBe(50);
    expect(new Set(byId('e-many').facade.map(callerOf)).size).toBe(MANY_CALLERS);
  });

  it('the shared-call scenarios stay one caller reading one inventory', () => {
    for (const id of ['a', 'a32', 'b', 'c', 'd', 'm100', 'p1', 'p100', 'p100f']) {
      const { facade } = byId(id);
      expect(new Set(facade.map(callerOf)).size).toBe(1);
      expect(new Set(facade.map(inventoryOf)).size).toBe(1);
    }
  });
});

describe('(e-new), a caller never seen before at every request', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('marks every request of facade and baseline as a fresh caller', () => {
    const scenario = byId('e-new');
    expect([...scenario.facade, ...scenario.baseline].every((request) => request.freshCaller)).toBe(true);
    expect(new Set(scenario.facade.map(inventoryOf)).size).toBeGreaterThanOrEqual(500);
  });

  it('is sent by autocannon with a new authorization at every request, in two runs alike', async () => {
    const seen: string[] = [];
    server = createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { facade, connections } = byId('e-new');
    await drive(url, facade, connections, { amount: 300 });
    await drive(url, facade, connections, { amount: 300 });
    expect(seen.length).toBe(600);
    expect(new Set(seen).size).toBe(600);
    const listed = new Set(facade.map(callerOf));
    expect(seen.some((token) => listed.has(token))).toBe(false);
  });

  it("is formatted by wrk's script at each send, with this run's own token prefix", () => {
    const { facade } = byId('e-new');
    const script = wrkScript(facade.slice(0, 2), 'run-prefix');
    expect(script).toContain('"Bearer " .. "run-prefix" .. "-" .. sent');
    // The listed token is not sent: each request's authorization is set at its send.
    expect(script).not.toContain(callerOf(facade[0]!));
    const fixed = wrkScript(byId('a-many').facade.slice(0, 2), 'run-prefix');
    expect(fixed).toContain(callerOf(byId('a-many').facade[0]!));
  });
});
