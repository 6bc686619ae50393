// Slow readers let go (HTTP_WRITE_TIMEOUT_MS): clients that ask for a large answer and never read
// it hold their operation slots only until the write timeout; their connections are cut and other
// clients are served. A client that reads, however slowly, an operation that works longer than
// the timeout before it writes, and a @defer stream idle between its parts are not cut. Raw
// sockets on 127.0.0.1 against the real server; the simulator holds the fee calls where a test
// needs every request in before any answer is written.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { print } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { DEMO_APP_ID, DEMO_PLATFORM_ID, platformIdWithSize } from '../../src/simulator/data.js';
import { InventoryItemsFullDocument, InventoryTotalDocument, InventoryWithDeferredFeesDocument } from '../generated/graphql.js';
import { payloadsOf, type IncrementalPayload } from '../support/incremental.js';
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
      expect(await metric('tradegraph_operations_in_flight')).toBe(0);
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
