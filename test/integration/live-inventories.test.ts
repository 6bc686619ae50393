// Subscription.inventory over real transports against the real service and simulator on loopback:
// the first event at once, one partner read per interval for every subscriber of one page, a change
// sent to each of them, no event without a change, a hold that ends, a client that leaves stops
// costing, an unread stream cut by the write timeout, the caps, a refused token, and every stream
// completed on shutdown.
import { once } from 'node:events';
import { connect } from 'node:net';
import { print } from 'graphql';
import { createClient, type Client } from 'graphql-sse';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { ExecutionResult } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_PLATFORM_ID, platformIdWithSize } from '../../src/simulator/data.js';
import { InventoryItemsFullDocument } from '../generated/graphql.js';
import { startTestkit, type Testkit } from '../support/testkit.js';
import { manifestOf, sha256 } from '../support/trusted-documents.js';

const INTERVAL_MS = 400;
const PAGE = `subscription Live($platformId: String!, $appId: Int!) {
  inventory(platformId: $platformId, appId: $appId) { totalCount items(first: 5) { nodes { assetId } } }
}`;
const variables = { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID };

interface Watch {
  events: ExecutionResult[];
  done: Promise<void>;
  stop(): void;
}

/** Subscribes with a real graphql-sse client (Yoga's own "distinct connections" mode) or graphql-ws client. */
function watch(client: Client | WsClient, query = PAGE, vars: Record<string, unknown> = variables, extensions?: Record<string, unknown>): Watch {
  const events: ExecutionResult[] = [];
  let stop = () => {};
  const done = new Promise<void>((resolve, reject) => {
    stop = client.subscribe({ query, variables: vars, ...(extensions ? { extensions } : {}) }, { next: (event) => void events.push(event as ExecutionResult), error: reject, complete: resolve });
  });
  // Handled from the start: a test that expects no failure awaits `done`, which still rejects.
  done.catch(() => undefined);
  return { events, done, stop: () => stop() };
}

function sseClient(kit: Testkit, token: string | null = DEMO_ACCESS_TOKEN): Client {
  return createClient({ url: kit.graphqlUrl, headers: token ? { authorization: `Bearer ${token}` } : {}, retryAttempts: 0 });
}

function wsClient(kit: Testkit, token: string | null = DEMO_ACCESS_TOKEN): WsClient {
  return createWsClient({
    url: kit.graphqlUrl.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const reads = (kit: Testkit) => kit.simulator.callsOf('readInventory').length;

let kit: Testkit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const start = async (config: Partial<Testkit['config']> = {}) =>
  (kit = await startTestkit({ config: { livePollIntervalMs: INTERVAL_MS, ...config } }));

describe('Subscription.inventory over SSE', () => {
  it('sends the first event at once, and nothing more while the page does not change', async () => {
    const kit = await start({ livePollIntervalMs: 300 });
    const live = watch(sseClient(kit));
    await until(() => live.events.length === 1);
    const [first] = live.events;
    expect(first!.errors).toBeUndefined();
    expect(first!.data).toMatchObject({ inventory: { totalCount: 240 } });
    expect((first!.data as { inventory: { items: { nodes: unknown[] } } }).inventory.items.nodes).toHaveLength(5);
    // Three intervals later, the page was read again, and nothing new was sent.
    await until(() => reads(kit) >= 3);
    expect(live.events).toHaveLength(1);
    live.stop();
  });

  it('reads the page once per interval for every subscriber, and sends each of them a change', async () => {
    const kit = await start();
    const clients = Array.from({ length: 6 }, () => watch(sseClient(kit)));
    await until(() => clients.every((live) => live.events.length === 1));
    const before = reads(kit);
    // Two items are traded away: the page and the total change.
    kit.simulator.tradeAway(DEMO_PLATFORM_ID, DEMO_APP_ID, 2);
    await until(() => clients.every((live) => live.events.length === 2), INTERVAL_MS * 3);
    for (const live of clients) expect(live.events[1]!.data).toMatchObject({ inventory: { totalCount: 238 } });
    await sleep(INTERVAL_MS * 3);
    const polls = reads(kit) - before;
    // About one read per interval for six subscribers, never six per interval.
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(5);
    for (const live of clients) live.stop();
  });

  it('sends the page when a hold ends, and nothing while the hold lasts', async () => {
    const kit = await start({ livePollIntervalMs: 300 });
    let now = Date.parse('2026-06-01T12:00:00Z');
    kit.simulator.clock = () => now;
    const endsAt = now + 60_000;
    kit.simulator.holdItem(DEMO_PLATFORM_ID, DEMO_APP_ID, 1, endsAt);
    const query = `subscription { inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { items(first: 2) { nodes { tradable ifTradable tradableTime } } } }`;
    const live = watch(sseClient(kit), query);
    await until(() => live.events.length === 1);
    const held = { tradable: null, ifTradable: false, tradableTime: new Date(endsAt).toISOString() };
    const nodesOf = (event: ExecutionResult) => (event.data as { inventory: { items: { nodes: unknown[] } } }).inventory.items.nodes;
    expect(nodesOf(live.events[0]!)[1]).toEqual(held);
    const before = reads(kit);
    await until(() => reads(kit) >= before + 3);
    expect(live.events).toHaveLength(1);
    now = endsAt;
    await until(() => live.events.length === 2);
    expect(nodesOf(live.events[1]!)[1]).toEqual({ ...held, ifTradable: true });
    expect(nodesOf(live.events[1]!)[0]).toEqual(nodesOf(live.events[0]!)[0]);
    live.stop();
  });

  it("trades the demo's first item away and back over time, received with a hold that ends", async () => {
    const kit = await start();
    let now = Date.parse('2026-06-01T12:00:00Z');
    kit.simulator.clock = () => now;
    const firstItem = async () => {
      const url = `${kit.simulator.url}/api/user/v2/${DEMO_PLATFORM_ID}/${DEMO_APP_ID}?access_token=${DEMO_ACCESS_TOKEN}&count=1`;
      const body = (await (await fetch(url)).json()) as { data: { total: number; list: Array<{ tradable: unknown; ifTradable: boolean; tradableTime: number }> } };
      return { total: body.data.total, ...body.data.list[0]! };
    };
    const stop = kit.simulator.tradeOverTime(DEMO_PLATFORM_ID, DEMO_APP_ID, 100);
    await until(() => kit.simulator.tradedAwayOf(DEMO_PLATFORM_ID, DEMO_APP_ID) === 1);
    await until(() => kit.simulator.tradedAwayOf(DEMO_PLATFORM_ID, DEMO_APP_ID) === 0);
    stop();
    // Received back: held until half a turn later, rounded up to the wire's whole seconds.
    const holdEnds = Math.ceil((now + 50) / 1000);
    expect(await firstItem()).toMatchObject({ total: 240, tradable: null, ifTradable: false, tradableTime: holdEnds });
    now = holdEnds * 1000;
    expect(await firstItem()).toMatchObject({ total: 240, tradable: null, ifTradable: true, tradableTime: holdEnds });
  });

  it('stops reading once the last subscriber leaves', async () => {
    const kit = await start();
    const live = watch(sseClient(kit));
    await until(() => live.events.length === 1);
    live.stop();
    await until(() => kit.service.live.hub.subscribers === 0);
    const after = reads(kit);
    await sleep(INTERVAL_MS * 3);
    expect(reads(kit)).toBe(after);
    expect(kit.service.live.hub.groups).toBe(0);
  });

  it('ends the subscriptions of a token the partner refuses with UNAUTHENTICATED', async () => {
    const kit = await start();
    const live = watch(sseClient(kit, 'expired-token'));
    await live.done;
    expect(live.events).toHaveLength(1);
    const codes = live.events[0]!.errors?.map((error) => error.extensions?.code) ?? [];
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(['UNAUTHENTICATED']));
    expect(kit.service.live.hub.subscribers).toBe(0);
  });

  it('refuses a subscription without a token, and bad arguments, before any partner read', async () => {
    const kit = await start();
    const anonymous = watch(sseClient(kit, null));
    await anonymous.done;
    expect(anonymous.events[0]!.errors?.map((error) => error.extensions?.code)).toEqual(['UNAUTHENTICATED']);
    const bad = watch(sseClient(kit), PAGE, { platformId: '..', appId: DEMO_APP_ID });
    await bad.done;
    expect(bad.events[0]!.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect(reads(kit)).toBe(0);
  });

  it('caps subscriptions per credential and per replica with typed refusals', async () => {
    const kit = await start({ liveSubscriptionsPerCredential: 2, liveSubscriptionsMax: 3 });
    const open = [watch(sseClient(kit)), watch(sseClient(kit))];
    await until(() => open.every((live) => live.events.length === 1));
    const third = watch(sseClient(kit));
    await third.done;
    expect(third.events[0]!.errors?.[0]?.extensions).toMatchObject({ code: 'OPERATION_LIMIT_EXCEEDED', limit: 'liveSubscriptions', maximum: 2 });
    const other = watch(sseClient(kit, 'another-token'));
    await until(() => other.events.length === 1);
    const fourth = watch(sseClient(kit, 'a-third-token'));
    await fourth.done;
    expect(fourth.events[0]!.errors?.[0]?.extensions).toMatchObject({ code: 'OVERLOADED' });
    // One leaves: its credential may open another.
    open[0]!.stop();
    await until(() => kit.service.live.hub.subscribers === 2);
    const again = watch(sseClient(kit));
    await until(() => again.events.length === 1);
    expect(again.events[0]!.errors).toBeUndefined();
    for (const live of [open[1]!, other, again]) live.stop();
  });

  it("charges the caller's budget the selection's price as it opens and 1 per poll shared, and ends the stream it refuses", async () => {
    const kit = await start({ rateLimit: { max: 10, windowMs: 60_000 } });
    const live = watch(sseClient(kit));
    await live.done;
    const codes = live.events.map((event) => event.errors?.[0]?.extensions?.code);
    // The first event, then polls until the budget is spent, and the refusal last.
    expect(codes[0]).toBeUndefined();
    expect(codes.at(-1)).toBe('RATE_LIMITED');
    expect(kit.service.live.hub.subscribers).toBe(0);
    const refused = watch(sseClient(kit));
    await refused.done;
    expect(refused.events.map((event) => event.errors?.[0]?.extensions?.code)).toEqual(['RATE_LIMITED']);
  });

  it('opens an SSE stream with a keep-alive comment, which proxies see as traffic', async () => {
    const kit = await start();
    const response = await fetch(kit.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
      body: JSON.stringify({ query: PAGE, variables }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toMatch(/^:/);
    await reader.cancel();
  });

  it('cuts a stream its client stops reading by the write timeout, ending its subscription, while others are served', async () => {
    const kit = await start({ httpWriteTimeoutMs: 1000, livePollIntervalMs: 300 });
    const metric = async (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(await kit.service.metrics.registry.metrics())?.[1]);
    const other = watch(sseClient(kit));
    await until(() => other.events.length === 1);
    // Every event is a page of 100 items with every field, four times over: a few of them fill
    // what the kernel's buffers take from a client that never reads.
    const stalled = platformIdWithSize(400);
    const full = print(InventoryItemsFullDocument);
    const pages = ['a', 'b', 'c', 'd'].map((alias) => `${alias}: items(first: 100) { nodes { ...InventoryItemFields } }`).join(' ');
    const query = `subscription { inventory(platformId: "${stalled}", appId: ${DEMO_APP_ID}) { ${pages} } }\n${full.slice(full.indexOf('fragment '))}`;
    const body = JSON.stringify({ query });
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(kit.url).port) });
    let closed = false;
    let error: string | undefined;
    socket.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code));
    socket.on('close', () => (closed = true));
    let head = '';
    socket.on('data', (chunk: Buffer) => void (head.length < 1024 && (head += chunk.toString('latin1'))));
    await once(socket, 'connect');
    socket.pause();
    socket.write(
      `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: text/event-stream\r\n` +
        `authorization: Bearer stalled-reader-token\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    const stalledReads = () => kit.simulator.callsOf('readInventory').filter((call) => call.path.includes(stalled)).length;
    // The page changes at every turn, so that events keep coming.
    const stopTrading = kit.simulator.tradeOverTime(stalled, DEMO_APP_ID, 150);
    try {
      await until(() => kit.service.live.hub.subscribers === 2);
      // Cut, and its subscription ended with it: polling its page stops.
      let cut = 0;
      const cutCount = async () => (cut = await metric('tradegraph_http_answers_cut_total'));
      const end = Date.now() + 20_000;
      while ((await cutCount()) === 0 && Date.now() < end) await sleep(50);
      expect(cut).toBe(1);
      await until(() => kit.service.live.hub.subscribers === 1);
      // Read now, its connection was reset.
      socket.resume();
      await until(() => closed);
      expect(error).toBe('ECONNRESET');
      expect(head).toMatch(/^HTTP\/1\.1 200 [\s\S]*content-type: text\/event-stream/i);
      expect(kit.service.live.hub.groups).toBe(1);
      const after = stalledReads();
      await sleep(300 * 3);
      expect(stalledReads()).toBe(after);
      // The other subscriber still gets its changes, and a query is answered.
      kit.simulator.tradeAway(DEMO_PLATFORM_ID, DEMO_APP_ID, 1);
      await until(() => other.events.length === 2);
      const answer = await kit.post({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { totalCount } }` });
      expect(await answer.json()).toMatchObject({ data: { inventory: { totalCount: 239 } } });
      other.stop();
    } finally {
      stopTrading();
      socket.destroy();
    }
  });

  it('completes every stream when the service shuts down', async () => {
    const kit = await start();
    const clients = [watch(sseClient(kit)), watch(sseClient(kit, 'another-token'))];
    await until(() => clients.every((live) => live.events.length === 1));
    const closing = kit.service.close(5000);
    await Promise.all(clients.map((live) => live.done));
    await closing;
  });
});

describe('Subscription.inventory over graphql-ws', () => {
  it('shares one poll with SSE subscribers of the same page, and sends each a change', async () => {
    const kit = await start();
    const ws = wsClient(kit);
    const clients = [watch(ws), watch(ws), watch(sseClient(kit))];
    await until(() => clients.every((live) => live.events.length === 1));
    expect(clients[0]!.events[0]!.data).toEqual(clients[2]!.events[0]!.data);
    const before = reads(kit);
    kit.simulator.tradeAway(DEMO_PLATFORM_ID, DEMO_APP_ID, 1);
    await until(() => clients.every((live) => live.events.length === 2), INTERVAL_MS * 3);
    for (const live of clients) expect(live.events[1]!.data).toMatchObject({ inventory: { totalCount: 239 } });
    await sleep(INTERVAL_MS * 3);
    expect(reads(kit) - before).toBeLessThanOrEqual(5);
    for (const live of clients) live.stop();
    await until(() => kit.service.live.hub.subscribers === 0);
    await ws.dispose();
  });

  it('runs a trusted document by its hash, and refuses text where only trusted documents may run', async () => {
    const kit = await start({ trustedDocuments: manifestOf(PAGE), trustedDocumentsOnly: true });
    const ws = wsClient(kit);
    const codeOf = (errors: unknown) => (errors as Array<{ extensions?: { code?: string } }>)[0]?.extensions?.code;
    const refused = watch(ws);
    await expect(refused.done.catch(codeOf)).resolves.toBe('PERSISTED_QUERY_ONLY');
    const unknown = watch(ws, '', variables, { persistedQuery: { version: 1, sha256Hash: sha256('{ x }') } });
    await expect(unknown.done.catch(codeOf)).resolves.toBe('PERSISTED_QUERY_NOT_FOUND');
    const trusted = watch(ws, '', variables, { persistedQuery: { version: 1, sha256Hash: sha256(PAGE) } });
    await until(() => trusted.events.length === 1);
    expect(trusted.events[0]!.data).toMatchObject({ inventory: { totalCount: 240 } });
    trusted.stop();
    await ws.dispose();
  });

  it('refuses variables that nest deeper than the service reads, as over HTTP, and subscribes nothing', async () => {
    const kit = await start();
    const ws = wsClient(kit);
    let deep: unknown = 'x';
    for (let level = 0; level < 100; level++) deep = [deep];
    const refused = watch(ws, PAGE, { ...variables, unused: deep });
    // Bounded: a subscription that was let through would never end on its own.
    const ended = await Promise.race([refused.done.then(() => 'completed', (error: unknown) => error), sleep(5000).then(() => 'still subscribed')]);
    expect(refused.events).toEqual([]);
    const errors = ended as Array<{ extensions?: { code?: string; limit?: string } }>;
    expect(errors[0]?.extensions).toMatchObject({ code: 'OPERATION_LIMIT_EXCEEDED', limit: 'variablesDepth' });
    // The HTTP status Yoga reads and strips over HTTP is not sent over the socket either.
    expect(errors[0]?.extensions).not.toHaveProperty('http');
    expect(kit.service.live.hub.subscribers).toBe(0);
    await ws.dispose();
  });

  it("completes a socket's subscriptions when the service shuts down", async () => {
    const kit = await start();
    const ws = wsClient(kit);
    const live = watch(ws);
    await until(() => live.events.length === 1);
    await kit.service.close(5000);
    // Completed, not failed by the socket's close.
    await live.done;
    expect(kit.service.live.hub.subscribers).toBe(0);
    await ws.dispose();
  });
});
