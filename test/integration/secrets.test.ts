// Secrets stay secret: a run that drives every path (pages, fees, every partner fault on both
// operations, an echoing partner, a malformed header, an open circuit, refused operations, a
// client that leaves) at LOG_LEVEL trace, then searches every log line, every answer and /metrics
// for the callers' access tokens and the merchant app-key. test/support/secret-scan.ts searches
// the logs of every test file the same way.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CalculateListingFeeDocument,
  InventoryPageDocument,
  InventoryTotalDocument,
  InventoryWithFeesDocument,
} from '../generated/graphql.js';
import { errorCodes, startTestkit, type Testkit } from '../support/testkit.js';
import { DEMO_APP_ID, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import type { FaultKind, SimulatedOperation } from '../../src/simulator/server.js';

const ACCESS_TOKEN = 'tok-3f9a7c1e-callers-access-token';
const EXPIRED_TOKEN = 'expired-77d1-callers-old-token';
const APP_KEY = 'key-8b2d4e6f-merchant-app-key';
const SECRETS = [ACCESS_TOKEN, EXPIRED_TOKEN, APP_KEY];

const APP_ID = DEMO_APP_ID;
const PLATFORM_ID = DEMO_PLATFORM_ID;
const FAULTS: FaultKind[] = [
  'http-500',
  'http-502',
  'http-503',
  'http-504',
  'http-401',
  'http-403',
  'http-429',
  'reset',
  'non-json',
  'html',
  'truncated-json',
  'envelope-error',
  'bad-shape',
  'count-mismatch',
  'slow',
];

let kit: Testkit;
/** Every answer body the run received, as text. */
const answers: string[] = [];

beforeAll(async () => {
  kit = await startTestkit({
    simulator: { appKey: APP_KEY },
    config: {
      partnerAppKey: APP_KEY,
      logLevel: 'trace',
      // Long enough that no partner call is cut on a loaded machine where an answer other than a
      // timeout is expected; the 'slow' fault below is slower still, so its timeout still happens.
      upstreamTimeoutMs: 2000,
      // One attempt per call, so that the outage below opens the circuit in few requests.
      upstreamMaxRetries: 0,
      upstreamBreakerMinCalls: 3,
      upstreamBreakerMinDistinct: 1,
      upstreamBreakerHalfOpenMs: 100,
    },
  });
});
afterAll(async () => {
  await kit.close();
});

async function send(body: unknown, token: string | null = ACCESS_TOKEN, headers: Record<string, string> = {}) {
  const response = await kit.post(body, { token, headers });
  const text = await response.text();
  answers.push(text);
  return text;
}

const pageQuery = (first: number) => ({
  query: `query ($p: String!, $a: Int!, $f: Int) { inventory(platformId: $p, appId: $a) { totalCount items(first: $f) { nodes { assetId listingFee(price: 500) { fee } } } } }`,
  variables: { p: PLATFORM_ID, a: APP_ID, f: first },
});
const feeMutation = { query: `mutation { calculateListingFee(input: { items: [{ price: 700, token: "tok_730_1" }] }) { fees { fee } } }` };

describe('secrets never leave the service', () => {
  it('drives every path and finds no token or key in any log line or answer', async () => {
    // Healthy paths.
    answers.push(JSON.stringify(await kit.execute(InventoryPageDocument, { platformId: PLATFORM_ID, appId: APP_ID, first: 5 }, { token: ACCESS_TOKEN })));
    answers.push(JSON.stringify(await kit.execute(InventoryWithFeesDocument, { platformId: PLATFORM_ID, appId: APP_ID, first: 3, price: 900 }, { token: ACCESS_TOKEN })));
    answers.push(JSON.stringify(await kit.execute(CalculateListingFeeDocument, { input: { items: [{ price: 500 }] } }, { token: ACCESS_TOKEN })));

    // Every fault on both operations, one at a time; the circuit opens and closes along the way.
    for (const operation of ['readInventory', 'calculateListingFee'] as SimulatedOperation[]) {
      for (const kind of FAULTS) {
        kit.simulator.reset({ appKey: APP_KEY, faults: [{ operation, kind, times: 1, delayMs: 5000 }] });
        await send(operation === 'readInventory' ? pageQuery(3) : feeMutation);
      }
    }
    // An outage long enough to open the circuit: among these answers (not the earlier faults'), one
    // is the open circuit's refusal. The breaker opens on the share of failed calls in its window,
    // which the healthy calls above fill too, so the outage runs until it opens (bounded).
    kit.simulator.reset({ appKey: APP_KEY, faults: [{ kind: 'http-503' }] });
    const outage: string[] = [];
    const refused = (answer: string) => answer.includes('circuit is open');
    while (outage.length < 200 && !outage.some(refused)) outage.push(await send(pageQuery(2)));
    expect(outage.filter(refused)).not.toEqual([]);

    // A partner that echoes what it received (the query string with access_token, the app-key).
    kit.simulator.reset({ appKey: APP_KEY, faults: [{ kind: 'envelope-error', echo: true }] });
    await vi.waitFor(async () => expect(await send(pageQuery(1))).toContain('UPSTREAM_ERROR'), { timeout: 10_000, interval: 150 });
    const echoedFee = await send(feeMutation);
    expect(echoedFee).toContain('UPSTREAM_ERROR');
    expect(echoedFee).toContain('[redacted]');
    kit.simulator.reset({ appKey: APP_KEY });

    // Credentials refused: by the partner, and malformed in the header.
    const expired = await kit.execute(InventoryTotalDocument, { platformId: PLATFORM_ID, appId: APP_ID }, { token: EXPIRED_TOKEN });
    expect(errorCodes(expired)).toEqual(['UNAUTHENTICATED']);
    answers.push(JSON.stringify(expired));
    await send(pageQuery(1), null, { authorization: `Token ${ACCESS_TOKEN}` });
    await send(pageQuery(1), null, { authorization: `Bearer ${ACCESS_TOKEN} ${APP_KEY}` });

    // Refused operations and a client that leaves mid-call.
    await send({ query: `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: inventory(platformId: "${PLATFORM_ID}", appId: 1) { totalCount }`).join(' ')} }` });
    kit.simulator.reset({ appKey: APP_KEY, faults: [{ kind: 'slow', delayMs: 2000 }] });
    const leaving = new AbortController();
    const left = fetch(kit.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ACCESS_TOKEN}` },
      body: JSON.stringify(pageQuery(1)),
      signal: leaving.signal,
    }).catch(() => undefined);
    await vi.waitFor(() => expect(kit.simulator.calls.length).toBeGreaterThan(0), { timeout: 10_000 });
    leaving.abort();
    await left;

    // The run logged plenty at trace level, partner calls included...
    expect(kit.logs.length).toBeGreaterThan(50);
    expect(kit.logs.some((line) => line.includes('"partner call failed"'))).toBe(true);
    // ...and none of it, nor any answer, nor the metrics, holds a secret.
    const metrics = await (await fetch(`${kit.url}/metrics`)).text();
    expect(metrics).toContain('partner');
    for (const secret of SECRETS) {
      expect(metrics).not.toContain(secret);
      expect(kit.logs.filter((line) => line.includes(secret))).toEqual([]);
      expect(answers.filter((answer) => answer.includes(secret))).toEqual([]);
    }
  });
});
