// The partner client over real HTTP on loopback, against a small server whose answers each test
// picks: the response size cap (declared and streamed bodies), and a call's timer and client-abort
// listener being released once it settles.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ErrorCode, TradegraphError } from '../../src/errors.js';
import { PartnerClient } from '../../src/partner/client.js';
import type { PartnerCallEvent } from '../../src/partner/observer.js';
import { partnerClientOptions } from '../../src/server.js';

const CAP = 4096;
const envelope = (data: unknown) => JSON.stringify({ success: true, errorCode: 0, errorMsg: null, data });

/** What the server answers next: a body, declared (content-length) or streamed in chunks. */
let answer: (res: ServerResponse) => void = (res) => res.end(envelope({ ok: true }));

let server: Server;
let client: PartnerClient;
const events: PartnerCallEvent[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.setHeader('content-type', 'application/json');
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new PartnerClient({
    ...partnerClientOptions(loadConfig({})),
    baseUrl: `http://127.0.0.1:${port}`,
    timeoutMs: 2_000,
    maxRetries: 0,
    observers: [{ callEnded: (event) => events.push(event) }],
  });
});

afterAll(async () => {
  await client.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const get = (signal?: AbortSignal) =>
  client.call({ operation: 'readInventory', method: 'GET', segments: ['page'], maxResponseBytes: CAP, idempotent: true, shareInFlight: true, signal });

async function failure(promise: Promise<unknown>): Promise<TradegraphError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(TradegraphError);
  return outcome as TradegraphError;
}

describe('partner client', () => {
  it('reads a body under the cap', async () => {
    answer = (res) => res.end(envelope({ list: 'x'.repeat(CAP / 2) }));
    await expect(get()).resolves.toEqual({ list: 'x'.repeat(CAP / 2) });
  });

  it('reads a streamed (chunked) body under the cap', async () => {
    const body = envelope({ list: 'x'.repeat(CAP / 2) });
    answer = (res) => {
      res.write(body.slice(0, 100));
      res.end(body.slice(100));
    };
    await expect(get()).resolves.toEqual({ list: 'x'.repeat(CAP / 2) });
  });

  it('refuses a declared body over the cap as UPSTREAM_BAD_RESPONSE', async () => {
    answer = (res) => res.end(envelope({ list: 'x'.repeat(CAP * 2) }));
    const error = await failure(get());
    expect(error.code).toBe(ErrorCode.UPSTREAM_BAD_RESPONSE);
    expect(error.message).toContain(`exceeds ${CAP} bytes`);
  });

  it('refuses a streamed (chunked) body over the cap as UPSTREAM_BAD_RESPONSE', async () => {
    answer = (res) => {
      // No content-length: the size is only known while reading.
      for (let chunk = 0; chunk < 8; chunk++) res.write('x'.repeat(CAP / 2));
      res.end();
    };
    const error = await failure(get());
    expect(error.code).toBe(ErrorCode.UPSTREAM_BAD_RESPONSE);
    expect(error.message).toContain(`exceeds ${CAP} bytes`);
  });

  it('refuses a body that is not JSON as UPSTREAM_BAD_RESPONSE, declared or streamed', async () => {
    const text = envelope({ list: 'x' }).slice(0, -2);
    const declared = (res: ServerResponse) => res.end(text);
    const streamed = (res: ServerResponse) => {
      res.write(text.slice(0, 10));
      res.end(text.slice(10));
    };
    for (const send of [declared, streamed]) {
      answer = send;
      const error = await failure(get());
      expect(error.code).toBe(ErrorCode.UPSTREAM_BAD_RESPONSE);
      expect(error.message).toContain('not JSON');
    }
  });

  it('takes a body cut off before its declared length for a failed connection, not for a body that is not JSON', async () => {
    answer = (res) => {
      const text = envelope({ list: 'x'.repeat(100) });
      res.setHeader('content-length', Buffer.byteLength(text) + 50);
      res.write(text.slice(0, 40));
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const error = await failure(get());
    expect(error.code).toBe(ErrorCode.UPSTREAM_UNAVAILABLE);
    expect(error.message).not.toContain('not JSON');
  });

  it('joins an identical call in flight only when its operation shares it in flight', async () => {
    const held: ServerResponse[] = [];
    answer = (res) => void held.push(res);
    const read = (shareInFlight: boolean) =>
      client.call({ operation: 'readInventory', method: 'GET', segments: ['same'], maxResponseBytes: CAP, idempotent: true, shareInFlight });
    const calls = [read(false), read(false), read(true), read(true)];
    await vi.waitFor(() => expect(held.length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    for (const res of held) res.end(envelope({ n: 1 }));
    await expect(Promise.all(calls)).resolves.toEqual([{ n: 1 }, { n: 1 }, { n: 1 }, { n: 1 }]);
    // Two sent apart, and one for the two that share it.
    expect(held).toHaveLength(3);
  });

  it('reports a call whose client went away as cancelled, not as an outage', async () => {
    // Ordered by events, not by timers: the client leaves once the partner holds the call, and the
    // partner answers only after it has left, however slow the machine.
    const leaving = new AbortController();
    let arrived!: () => void;
    const atPartner = new Promise<void>((resolve) => (arrived = resolve));
    answer = (res) => {
      leaving.signal.addEventListener('abort', () => res.end(envelope({ late: true })), { once: true });
      arrived();
    };
    const call = get(leaving.signal);
    await atPartner;
    leaving.abort();
    const error = await failure(call);
    expect(error.code).toBe(ErrorCode.UPSTREAM_UNAVAILABLE);
    // The caller is answered as it leaves; the call it was the only one waiting for ends after.
    await vi.waitFor(() => expect(events.at(-1)?.outcome).toBe('cancelled'), { timeout: 10_000 });
  });

  it('releases the client signal once a call settles', async () => {
    answer = (res) => res.end(envelope({ ok: true }));
    const clientSignal = new AbortController().signal;
    let listening = 0;
    const add = clientSignal.addEventListener.bind(clientSignal);
    const remove = clientSignal.removeEventListener.bind(clientSignal);
    clientSignal.addEventListener = ((...args: Parameters<typeof add>) => {
      listening += 1;
      add(...args);
    }) as typeof add;
    clientSignal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listening -= 1;
      remove(...args);
    }) as typeof remove;
    await get(clientSignal);
    await failure(
      (() => {
        answer = (res) => res.end('not json');
        return get(clientSignal);
      })(),
    );
    expect(listening).toBe(0);
  });

  it("answers OVERLOADED, not UPSTREAM_TIMEOUT, to a caller whose deadline passes while its call waits for a connection", async () => {
    const { port } = server.address() as AddressInfo;
    // One connection, held by a call that nobody times out before the test ends.
    const single = new PartnerClient({
      ...partnerClientOptions(loadConfig({})),
      baseUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 60_000,
      maxRetries: 0,
      connections: 1,
      connectionWaitMs: 60_000,
      connectionsPerDomain: 1,
    });
    const held: ServerResponse[] = [];
    answer = (res) => void held.push(res);
    const holder = single.call({ operation: 'readInventory', method: 'GET', segments: ['held'], maxResponseBytes: CAP, idempotent: true, shareInFlight: true });
    await vi.waitFor(() => expect(held).toHaveLength(1), { timeout: 10_000 });
    const late = await failure(
      single.call({
        operation: 'readInventory',
        method: 'GET',
        segments: ['waiting'],
        maxResponseBytes: CAP,
        idempotent: true,
        shareInFlight: true,
        deadline: { at: performance.now() + 300, ms: 300 },
      }),
    );
    expect(late.code).toBe(ErrorCode.OVERLOADED);
    expect(late.extensions).toMatchObject({ retryAfter: 1 });
    held[0]!.end(envelope({ ok: true }));
    await expect(holder).resolves.toEqual({ ok: true });
    await single.close();
  });
});
