// Slow readers let go (HTTP_WRITE_TIMEOUT_MS): clients that ask for a large answer and never read
// it hold their operation slots only until the write timeout; their connections are cut and other
// clients are served. The timeout counts what the client takes, never what it sends: a client that
// sends blank lines meanwhile is cut as soon, and the time is measured as such a client sees it,
// from its kernel's receive queue. A client that reads, however slowly, an operation that works
// longer than the timeout before it writes, and a @defer stream idle between its parts are not
// cut. A client that sends its body slowly holds no slot, and the bodies still arriving share a
// memory budget. Raw sockets on 127.0.0.1 against the real server; the simulator holds the fee
// calls where a test needs every request in before any answer is written.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_APP_ID, DEMO_APP_KEY, DEMO_PLATFORM_ID, platformIdWithSize } from '../../src/simulator/data.js';
import { startSimulator, type PartnerSimulator } from '../../src/simulator/server.js';
import { InventoryItemsFullDocument, InventoryTotalDocument, InventoryWithDeferredFeesDocument } from '../generated/graphql.js';
import { payloadsOf, type IncrementalPayload } from '../support/incremental.js';
import { writeCheckIntervalMs } from '../../src/http/write-timeout.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { expectNoGraphQLErrors, useTestkit, type GraphQLResponse } from '../support/testkit.js';

const SLOTS = 16;
const STALLED_CLIENTS = 24;
const WRITE_TIMEOUT_MS = 1000;

/**
 * Nine pages of 100 items with every field, each page's items four times over (aliases, within
 * the operation limits), and one item's listing fee, so that the simulator can hold the answer
 * back: about 7 MB of JSON, far more than the kernel's buffers on both ends take from a client
 * that never reads.
 */
const largeReadText = ({ deferred }: { deferred: boolean }) => {
  const text = print(InventoryItemsFullDocument);
  const fragment = text.slice(text.indexOf('fragment '));
  const items = 'nodes { ...InventoryItemFields } again: nodes { ...InventoryItemFields } more: nodes { ...InventoryItemFields } edges { cursor node { ...InventoryItemFields } }';
  const pages = Array.from({ length: 9 }, (_, page) => `p${page}: inventory(platformId: $platformId, appId: 730) { items(first: 100) { ${items} } }`);
  const fee = 'listingFee(price: 10000) { fee }';
  const withFee = `withFee: inventory(platformId: $platformId, appId: 730) { items(first: 1) { nodes { ${deferred ? `... @defer { ${fee} }` : fee} } } }`;
  return `query LargeRead($platformId: String!) {\n${pages.join('\n')}\n${withFee}\n}\n${fragment}`;
};

const LARGE_READ = largeReadText({ deferred: false });
const LARGE_READ_DEFERRED = largeReadText({ deferred: true });

const largeReadBody = (client: number, deferred = false) =>
  JSON.stringify({ query: deferred ? LARGE_READ_DEFERRED : LARGE_READ, variables: { platformId: platformIdWithSize(100 + client) } });

/** What one raw client saw: every byte it was sent, and how its connection ended. */
interface RawClient {
  socket: Socket;
  received: Buffer[];
  closed: boolean;
  error?: string;
}

/** A connection of its own; nothing of what it is sent is read until it is resumed. */
async function rawClient(url: string): Promise<RawClient> {
  const { port } = new URL(url);
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  const raw: RawClient = { socket, received: [], closed: false };
  socket.on('data', (chunk: Buffer) => raw.received.push(chunk));
  socket.on('error', (error: NodeJS.ErrnoException) => (raw.error = error.code ?? error.message));
  socket.on('close', () => (raw.closed = true));
  await once(socket, 'connect');
  // Never read: the kernel's receive buffer fills and then holds the server's sending off.
  socket.pause();
  return raw;
}

function sendLargeRead({ socket }: RawClient, client: number, deferred = false): void {
  const body = largeReadBody(client, deferred);
  socket.write(
    `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nauthorization: Bearer stalled-client-${client}-token\r\n` +
      `${deferred ? 'accept: multipart/mixed\r\n' : ''}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * What the kernel shows of loopback connections to `serverPort`, by the client's local port: the
 * bytes received and not yet read (the receive queue), from /proc/net/tcp. A connection reset is
 * gone from it: a client that never reads sees when its answer's bytes stopped coming and when the
 * service cut it, without reading anything.
 */
function receiveQueues(serverPort: number): Map<number, number> {
  const queues = new Map<number, number>();
  for (const line of readFileSync('/proc/net/tcp', 'latin1').split('\n').slice(1)) {
    const [, local, remote, state, queues_] = line.trim().split(/\s+/);
    if (!local || !remote || state !== '01') continue;
    if (Number.parseInt(remote.split(':')[1]!, 16) !== serverPort) continue;
    queues.set(Number.parseInt(local.split(':')[1]!, 16), Number.parseInt(queues_!.split(':')[1]!, 16));
  }
  return queues;
}

/** For each client, from a poll of its receive queue: when its first bytes came, how many, and when it was cut. */
interface ReceiveTimeline {
  firstAt?: number;
  bytes: number;
  goneAt?: number;
}

function watchReceiveQueues(url: string): { timelines: Map<RawClient, ReceiveTimeline>; add(client: RawClient): void; stop(): void } {
  const serverPort = Number(new URL(url).port);
  const timelines = new Map<RawClient, ReceiveTimeline>();
  const poll = setInterval(() => {
    const queues = receiveQueues(serverPort);
    const now = performance.now();
    for (const [client, timeline] of timelines) {
      const bytes = queues.get(client.socket.localPort!);
      if (bytes === undefined) {
        if (timeline.firstAt !== undefined) timeline.goneAt ??= now;
        continue;
      }
      if (bytes > timeline.bytes) {
        timeline.firstAt ??= now;
        timeline.bytes = bytes;
      }
    }
  }, 25);
  return { timelines, add: (client) => void timelines.set(client, { bytes: 0 }), stop: () => clearInterval(poll) };
}

const statusLine = (client: RawClient) => Buffer.concat(client.received).subarray(0, 12).toString('latin1');

describe('clients that never read a large answer', () => {
  const kit = useTestkit({
    // Generous upstream deadlines: the fee calls are held on purpose while the clients line up.
    config: { maxOperationsInFlight: SLOTS, httpWriteTimeoutMs: WRITE_TIMEOUT_MS, upstreamTimeoutMs: 60_000, operationTimeoutMs: 120_000 },
  });
  const metric = async (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(await kit().service.metrics.registry.metrics())?.[1]);
  const readTotal = () =>
    kit().post({ query: print(InventoryTotalDocument), variables: { platformId: platformIdWithSize(7), appId: 730 } }, { token: 'the-25th-client-token' });

  it('hold their slots only until the write timeout: their connections are cut, and a 25th client is served', async () => {
    // A client that reads gets the whole answer: it is as large as said.
    const full = await kit().post(largeReadBody(0));
    expect(full.status).toBe(200);
    const answerBytes = Buffer.byteLength(await full.text());
    expect(answerBytes).toBeGreaterThan(6 * 1024 * 1024);

    // The read above made a fee call of its own; the stalled clients' calls are counted past it.
    const feeCallsBefore = kit().simulator.callsOf('calculateListingFee').length;
    const release = kit().simulator.holdListingFees();
    const clients = await Promise.all(Array.from({ length: STALLED_CLIENTS }, () => rawClient(kit().url)));
    try {
      clients.forEach((client, index) => sendLargeRead(client, index + 1));
      // Every slot is taken by a client that will not read, and the next client is refused.
      await vi.waitFor(async () => expect(kit().simulator.callsOf('calculateListingFee')).toHaveLength(feeCallsBefore + SLOTS), { timeout: 30_000, interval: 50 });
      expect(await metric('tradegraph_operations_in_flight')).toBe(SLOTS);
      const refused = await readTotal();
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ errors: [{ extensions: { code: 'OVERLOADED' } }] });

      // The answers are written, not read, and cut: the 25th client is served while the 24 still hang on.
      release();
      let served: Response | undefined;
      await vi.waitFor(
        async () => {
          const attempt = await readTotal();
          if (attempt.status !== 200) await attempt.body?.cancel();
          expect(attempt.status).toBe(200);
          served = attempt;
        },
        { timeout: 60_000, interval: 250 },
      );
      const answer = (await served!.json()) as GraphQLResponse<{ inventory: { totalCount: number } }>;
      expectNoGraphQLErrors(answer);
      expect(answer.data.inventory.totalCount).toBe(7);

      // Every slot is free again, and the server closed every stalled connection: read now, each
      // holds either the 503 of a client refused at once (closed once idle, as keep-alive does), or
      // the head and the first part of an answer (what the kernel's buffers took), then a reset.
      await vi.waitFor(async () => expect(await metric('tradegraph_operations_in_flight')).toBe(0), { timeout: 30_000, interval: 50 });
      for (const client of clients) client.socket.resume();
      await vi.waitFor(() => expect(clients.filter((client) => !client.closed)).toHaveLength(0), { timeout: 30_000, interval: 50 });
      const refusedAtOnce = clients.filter((client) => statusLine(client) === 'HTTP/1.1 503');
      expect(refusedAtOnce).toHaveLength(STALLED_CLIENTS - SLOTS);
      expect(refusedAtOnce.every((client) => client.error === undefined)).toBe(true);
      const cut = clients.filter((client) => statusLine(client) !== 'HTTP/1.1 503');
      for (const client of cut) {
        expect(statusLine(client)).toBe('HTTP/1.1 200');
        expect(Buffer.concat(client.received).length).toBeLessThan(answerBytes);
        expect(client.error).toBe('ECONNRESET');
      }

      // Each cut is counted and logged.
      expect(await metric('tradegraph_http_answers_cut_total')).toBe(SLOTS);
      const cutLines = kit().logs.filter((line) => line.includes('answer cut'));
      expect(cutLines).toHaveLength(SLOTS);
      expect(cutLines.every((line) => (JSON.parse(line) as { pendingBytes: number }).pendingBytes > 0)).toBe(true);
    } finally {
      release();
      for (const client of clients) client.socket.destroy();
    }
  }, 180_000);

  it('cut a streamed (@defer) answer too', async () => {
    const cutBefore = await metric('tradegraph_http_answers_cut_total');
    const client = await rawClient(kit().url);
    try {
      sendLargeRead(client, 99, true);
      await vi.waitFor(async () => expect(await metric('tradegraph_http_answers_cut_total')).toBe(cutBefore + 1), { timeout: 60_000, interval: 100 });
      // The slot is freed as the reset connection closes, just after the cut is counted.
      await vi.waitFor(async () => expect(await metric('tradegraph_operations_in_flight')).toBe(0), { timeout: 10_000, interval: 50 });
      client.socket.resume();
      await vi.waitFor(() => expect(client.closed).toBe(true), { timeout: 10_000, interval: 50 });
      const head = Buffer.concat(client.received).toString('latin1', 0, 1024);
      expect(head).toMatch(/^HTTP\/1\.1 200 [\s\S]*content-type: multipart\/mixed/i);
      expect(client.error).toBe('ECONNRESET');
    } finally {
      client.socket.destroy();
    }
  }, 120_000);
});

describe('answers that are not cut', () => {
  // Longer here: progress is seen when the kernel takes more of the answer, which it does once a
  // reader has emptied a good part of its buffers (up to megabytes on loopback), not per byte read.
  const writeTimeoutMs = 2 * WRITE_TIMEOUT_MS;
  const kit = useTestkit({ config: { httpWriteTimeoutMs: writeTimeoutMs } });
  const cutCount = async () => Number(/^tradegraph_http_answers_cut_total (\d+)$/m.exec(await kit().service.metrics.registry.metrics())?.[1]);

  it('a client that reads slowly but keeps reading gets the whole answer', async () => {
    const full = await kit().post(largeReadBody(0));
    const answerBytes = Buffer.byteLength(await full.text());

    const client = await rawClient(kit().url);
    // Reads about 2 MB/s, so that the answer spends longer than the write timeout waiting for this
    // client, without a write timeout's pause. Paced against the clock, not by a pause per chunk:
    // after each chunk (64 KiB at most) it waits until its bytes are due at that rate, so a late
    // timer on a loaded machine is made up at the next chunk instead of slowing every later one.
    const bytesPerMs = 2000;
    let startedAt: number | undefined;
    let bytesRead = 0;
    client.socket.on('data', (chunk: Buffer) => {
      startedAt ??= performance.now();
      bytesRead += chunk.length;
      const wait = startedAt + bytesRead / bytesPerMs - performance.now();
      if (wait <= 0) return;
      client.socket.pause();
      setTimeout(() => client.socket.resume(), wait);
    });
    try {
      sendLargeRead(client, 0);
      client.socket.resume();
      await vi.waitFor(
        () => {
          const received = Buffer.concat(client.received).toString('latin1');
          expect(client.closed).toBe(false);
          expect(received.length - received.indexOf('\r\n\r\n') - 4).toBe(answerBytes);
        },
        { timeout: 120_000, interval: 100 },
      );
    } finally {
      client.socket.destroy();
    }
    expect(await cutCount()).toBe(0);
  }, 180_000);

  it('an operation that works longer than the write timeout before it writes', async () => {
    const cutBefore = await cutCount();
    kit().simulator.injectFault({ operation: 'readInventory', kind: 'slow', delayMs: 1.5 * writeTimeoutMs });
    const response = await kit().post({ query: print(InventoryTotalDocument), variables: { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID } });
    expect(response.status).toBe(200);
    expectNoGraphQLErrors((await response.json()) as GraphQLResponse<unknown>);
    expect(await cutCount()).toBe(cutBefore);
  });

  it('a @defer stream whose next part comes longer than the write timeout after the first', async () => {
    const cutBefore = await cutCount();
    const release = kit().simulator.holdListingFees();
    try {
      const response = await kit().post(
        { query: print(InventoryWithDeferredFeesDocument), variables: { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID, first: 5, price: 10_000 } },
        { headers: { accept: 'multipart/mixed' } },
      );
      expect(response.status).toBe(200);
      const payloads = payloadsOf(response);
      const first = (await payloads.next()).value as IncrementalPayload;
      expect(first.hasNext).toBe(true);
      // The stream stays idle, everything sent and read, for longer than the write timeout.
      await sleep(1.5 * writeTimeoutMs);
      release();
      const rest: IncrementalPayload[] = [];
      for await (const payload of payloads) rest.push(payload);
      expect(rest.at(-1)?.hasNext).toBe(false);
      const increments = rest.flatMap((payload) => payload.incremental ?? []);
      expect(increments.flatMap((increment) => increment.errors ?? [])).toEqual([]);
      expect(increments).toHaveLength(5);
    } finally {
      release();
    }
    expect(await cutCount()).toBe(cutBefore);
  });
});

describe('the write timeout, as a client that never reads sees it (the service in its own process)', () => {
  const writeTimeoutMs = 4000;
  const checkMs = writeCheckIntervalMs(writeTimeoutMs);
  /**
   * Beyond the bound: how late a loaded machine may run a timer, the service's (its event loop
   * busy working out the next client's answer) or the watch's.
   */
  const LATENESS_MS = 2000;
  /** The watch sees a connection's first bytes at most this late (it polls every 25 ms). */
  const WATCH_MS = 250;
  let simulator: PartnerSimulator;
  let service: ServiceProcess;
  beforeAll(async () => {
    simulator = await startSimulator();
    // Its own process, so that the watch of the clients' receive queues is not held up while the
    // service works out the answers.
    service = await startServiceProcess({
      PARTNER_API_URL: simulator.url,
      PARTNER_APP_KEY: DEMO_APP_KEY,
      MAX_OPERATIONS_IN_FLIGHT: String(SLOTS),
      HTTP_WRITE_TIMEOUT_MS: String(writeTimeoutMs),
    });
  });
  afterAll(async () => {
    await service?.stop();
    await simulator?.close();
  });
  const inFlight = async () => Number(/^tradegraph_operations_in_flight (\d+)$/m.exec(await (await fetch(`${service.url}/metrics`)).text())?.[1]);
  const readTotal = () =>
    fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer the-17th-client-token' },
      body: JSON.stringify({ query: print(InventoryTotalDocument), variables: { platformId: platformIdWithSize(7), appId: 730 } }),
    });

  it.each([
    ['send nothing', 0],
    ['send a blank line every 300 ms, bytes that restart a socket idle timeout', 300],
  ])('16 that %s are cut within the write timeout and two checks of their answer\'s first bytes; a 17th client is served', async (_case, blankLineEveryMs) => {
    // The slots of the case before are free again.
    await vi.waitFor(async () => expect(await inFlight()).toBe(0), { timeout: 10_000, interval: 50 });
    const clients: RawClient[] = [];
    const watch = watchReceiveQueues(service.url);
    const blankLines = blankLineEveryMs > 0 ? setInterval(() => clients.forEach(({ socket }) => socket.writable && socket.write('\r\n')), blankLineEveryMs) : undefined;
    try {
      // One after the other, each once the one before has the first bytes of its answer: the
      // service's event loop, busy working out sixteen answers of 7 MB at once, would run the
      // checks of the first ones late by as long, which is not the write timeout's doing.
      for (let index = 0; index < SLOTS; index++) {
        const client = await rawClient(service.url);
        clients.push(client);
        watch.add(client);
        sendLargeRead(client, 200 + index);
        await vi.waitFor(() => expect(watch.timelines.get(client)!.firstAt).toBeDefined(), { timeout: 30_000, interval: 25 });
      }
      await vi.waitFor(
        async () => {
          const attempt = await readTotal();
          await attempt.body?.cancel();
          expect(attempt.status).toBe(200);
        },
        { timeout: 60_000, interval: 100 },
      );
      // Every client saw the first bytes of its answer, then its connection reset, without reading.
      await vi.waitFor(() => expect([...watch.timelines.values()].filter(({ goneAt }) => goneAt === undefined)).toHaveLength(0), { timeout: 30_000, interval: 50 });
      const timelines = [...watch.timelines.values()];
      const cutAfter = timelines.map(({ firstAt, goneAt }) => Math.round(goneAt! - firstAt!));
      console.info(
        `write timeout ${writeTimeoutMs} ms, checks every ${checkMs} ms: clients that ${_case} were cut ${Math.min(...cutAfter)} to ${Math.max(...cutAfter)} ms ` +
          `after the first bytes of their answer, having ${Math.min(...timelines.map(({ bytes }) => bytes))} to ${Math.max(...timelines.map(({ bytes }) => bytes))} bytes of it in their buffers`,
      );
      for (const after of cutAfter) {
        expect(after).toBeGreaterThanOrEqual(writeTimeoutMs - WATCH_MS);
        expect(after).toBeLessThanOrEqual(writeTimeoutMs + 2 * checkMs + LATENESS_MS);
      }
    } finally {
      clearInterval(blankLines);
      watch.stop();
      for (const client of clients) client.socket.destroy();
    }
  }, 120_000);
});

describe('clients that send their request body slowly', () => {
  const requestTimeoutMs = 3000;
  const kit = useTestkit({ config: { maxOperationsInFlight: SLOTS, httpHeadersTimeoutMs: 2000, httpRequestTimeoutMs: requestTimeoutMs } });
  const readTotal = () =>
    kit().post({ query: print(InventoryTotalDocument), variables: { platformId: platformIdWithSize(7), appId: 730 } }, { token: 'the-17th-client-token' });

  it('hold no operation slot: 16 sending a byte every 200 ms leave other clients served, and each is answered 408', async () => {
    const body = JSON.stringify({ query: print(InventoryTotalDocument), variables: { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID } });
    const uploaders = await Promise.all(Array.from({ length: SLOTS }, () => rawClient(kit().url)));
    const sent = uploaders.map(() => 0);
    const drip = () =>
      uploaders.forEach(({ socket }, index) => {
        if (!socket.writable || sent[index]! >= body.length - 1) return;
        socket.write(body[sent[index]!]!);
        sent[index]! += 1;
      });
    let dripping: NodeJS.Timeout | undefined;
    try {
      for (const [index, { socket }] of uploaders.entries()) {
        socket.resume();
        socket.write(
          `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nauthorization: Bearer slow-uploader-${index}-token\r\n` +
            `content-length: ${Buffer.byteLength(body)}\r\n\r\n`,
        );
      }
      drip();
      dripping = setInterval(drip, 200);
      // While all sixteen are still sending, other clients are served, one after another.
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await readTotal();
        expect(response.status).toBe(200);
        expectNoGraphQLErrors((await response.json()) as GraphQLResponse<unknown>);
      }
      expect(uploaders.filter(({ closed }) => closed)).toHaveLength(0);
      // A slow upload is bounded by HTTP_REQUEST_TIMEOUT_MS: 408, and the connection closed.
      await vi.waitFor(() => expect(uploaders.filter(({ closed }) => !closed)).toHaveLength(0), { timeout: 30_000, interval: 50 });
      for (const uploader of uploaders) expect(statusLine(uploader)).toBe('HTTP/1.1 408');
      expect(Math.max(...sent)).toBeLessThan(body.length - 1);
      expect(kit().simulator.callsOf('readInventory')).toHaveLength(5);
    } finally {
      clearInterval(dripping);
      for (const { socket } of uploaders) socket.destroy();
    }
  }, 60_000);
});

describe('the memory budget of bodies still arriving', () => {
  // MAX_OPERATIONS_IN_FLIGHT × MAX_BODY_BYTES: 2 × 2048 bytes.
  const kit = useTestkit({ config: { maxOperationsInFlight: 2, maxBodyBytes: 2048 } });
  const readTotal = (padding: number) =>
    kit().post(JSON.stringify({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { totalCount } }${' '.repeat(padding)}` }));

  /** Two clients send most of a body each, and stop: 3600 of the 4096 bytes are held. */
  const holdMostOfTheBudget = async () => {
    const uploaders = await Promise.all([0, 1].map(() => rawClient(kit().url)));
    for (const [index, { socket }] of uploaders.entries()) {
      socket.resume();
      socket.write(
        `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nauthorization: Bearer stalled-uploader-${index}-token\r\n` +
          `content-length: 2000\r\n\r\n{"query": "{ __typename }"${' '.repeat(1800 - 26)}`,
      );
    }
    return uploaders;
  };

  it('refuses a body it has no room for with 503 OVERLOADED, and has room again once the bodies held are gone', async () => {
    const uploaders = await holdMostOfTheBudget();
    try {
      // Once both are held, a body of 1000 bytes does not fit; the answer says why.
      await vi.waitFor(
        async () => {
          const refused = await readTotal(1000);
          expect(refused.status).toBe(503);
          expect(refused.headers.get('retry-after')).toBe('1');
          expect(await refused.json()).toMatchObject({ errors: [{ message: expect.stringMatching(/receiving as many request bodies/), extensions: { code: 'OVERLOADED' } }] });
        },
        { timeout: 10_000, interval: 50 },
      );
      // A small one still fits beside them.
      expect((await readTotal(0)).status).toBe(200);
    } finally {
      for (const { socket } of uploaders) socket.destroy();
    }
    // The clients gone, their bytes are given back: the body of 1000 bytes is served.
    await vi.waitFor(
      async () => {
        const response = await readTotal(1000);
        expect(response.status).toBe(200);
        expectNoGraphQLErrors((await response.json()) as GraphQLResponse<unknown>);
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it('closes the connection of a client it refused mid-body, rather than wait for the rest of that body', async () => {
    const uploaders = await holdMostOfTheBudget();
    const refused = await rawClient(kit().url);
    let trickling: NodeJS.Timeout | undefined;
    try {
      await vi.waitFor(async () => expect((await readTotal(1000)).status).toBe(503), { timeout: 10_000, interval: 50 });
      // Half of a body of 1000 bytes, refused on that half, and then the rest a byte at a time,
      // which keeps the connection busy past Node's keep-alive timeout.
      refused.socket.resume();
      refused.socket.write(
        'POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
          `content-length: 1000\r\n\r\n{"query": "{ __typename }"${' '.repeat(500 - 26)}`,
      );
      trickling = setInterval(() => refused.socket.write(' '), 200);
      // Well within HTTP_REQUEST_TIMEOUT_MS (30 s), which would otherwise end the wait.
      await vi.waitFor(() => expect(refused.closed).toBe(true), { timeout: 10_000, interval: 50 });
      const answer = Buffer.concat(refused.received).toString('latin1');
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(answer).toContain('receiving as many request bodies');
    } finally {
      clearInterval(trickling);
      for (const { socket } of [...uploaders, refused]) socket.destroy();
    }
  }, 30_000);
});
