// The partner client's steps as a subclass sees them, over real HTTP on loopback: each is a
// protected method it may override, and they run in the order the class comment and
// docs/lifecycle.md give, for an answer and for a failure.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ErrorCode } from '../../src/errors.js';
import type { CallAbort } from '../../src/partner/call-abort.js';
import type { PartnerCall } from '../../src/partner/call.js';
import { PartnerClient } from '../../src/partner/client.js';
import type { AttemptResponse } from '../../src/partner/send.js';
import { partnerClientOptions } from '../../src/server.js';

const envelope = (data: unknown) => JSON.stringify({ success: true, errorCode: 0, errorMsg: null, data });

/** A client that records each step it runs and adds a header of its own to every attempt. */
class RecordingClient extends PartnerClient {
  readonly steps: string[] = [];

  protected override resolveURL(call: PartnerCall) {
    this.steps.push('resolveURL');
    return super.resolveURL(call);
  }

  protected override refusalBeforeSending(call: PartnerCall) {
    this.steps.push('refusalBeforeSending');
    return super.refusalBeforeSending(call);
  }

  protected override cacheKeyFor(call: PartnerCall, pathAndQuery: string, body: string | undefined) {
    this.steps.push('cacheKeyFor');
    return super.cacheKeyFor(call, pathAndQuery, body);
  }

  protected override willSendRequest(call: PartnerCall) {
    this.steps.push('willSendRequest');
    return { ...super.willSendRequest(call), 'x-partner-tenant': 'tenant 7' };
  }

  protected override fetch(call: PartnerCall, pathAndQuery: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal) {
    this.steps.push('fetch');
    return super.fetch(call, pathAndQuery, headers, body, signal);
  }

  protected override didEncounterError(call: PartnerCall, error: unknown, abort: CallAbort) {
    this.steps.push('didEncounterError');
    return super.didEncounterError(call, error, abort);
  }

  protected override errorFromResponse(call: PartnerCall, response: AttemptResponse) {
    this.steps.push('errorFromResponse');
    return super.errorFromResponse(call, response);
  }

  protected override parseBody(call: PartnerCall, json: unknown) {
    this.steps.push('parseBody');
    return { parsed: super.parseBody(call, json) };
  }

  protected override errorFromCall(call: PartnerCall, caught: unknown, abort: CallAbort) {
    this.steps.push('errorFromCall');
    return super.errorFromCall(call, caught, abort);
  }
}

/** What the server answers next. */
let answer: (res: ServerResponse) => void = (res) => res.end(envelope({ ok: true }));
const tenants: (string | undefined)[] = [];
let server: Server;
let client: RecordingClient;

beforeAll(async () => {
  server = createServer((req, res) => {
    tenants.push(req.headers['x-partner-tenant'] as string | undefined);
    req.resume();
    res.setHeader('content-type', 'application/json');
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new RecordingClient({ ...partnerClientOptions(loadConfig({})), baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 5_000, maxRetries: 0 });
});

afterAll(async () => {
  await client.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const get = () => client.call({ operation: 'readInventory', method: 'GET', segments: ['page'], maxResponseBytes: 4096, idempotent: true, shareInFlight: true });

describe('partner client steps', () => {
  it('runs its steps in order for an answer, with what an overriding step returns', async () => {
    client.steps.length = 0;
    answer = (res) => res.end(envelope({ page: 1 }));
    await expect(get()).resolves.toEqual({ parsed: { page: 1 } });
    expect(client.steps).toEqual(['resolveURL', 'refusalBeforeSending', 'cacheKeyFor', 'willSendRequest', 'fetch', 'parseBody']);
    expect(tenants.at(-1)).toBe('tenant 7');
  });

  it('runs errorFromResponse and then errorFromCall for a status other than 200', async () => {
    client.steps.length = 0;
    answer = (res) => {
      res.statusCode = 403;
      res.end();
    };
    await expect(get()).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    expect(client.steps).toEqual(['resolveURL', 'refusalBeforeSending', 'cacheKeyFor', 'willSendRequest', 'fetch', 'errorFromResponse', 'errorFromCall']);
  });

  it('runs didEncounterError and then errorFromCall when no answer comes', async () => {
    client.steps.length = 0;
    answer = (res) => res.socket?.destroy();
    await expect(get()).rejects.toMatchObject({ code: ErrorCode.UPSTREAM_UNAVAILABLE });
    expect(client.steps).toEqual(['resolveURL', 'refusalBeforeSending', 'cacheKeyFor', 'willSendRequest', 'fetch', 'didEncounterError', 'errorFromCall']);
  });
});
