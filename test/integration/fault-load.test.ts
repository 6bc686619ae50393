// A bounded load under each fault of the simulator, through the facade on 127.0.0.1: every answer
// is HTTP 200 with data or errors of the closed set, nothing crashes, the heap does not grow from
// one round to the next, and on a full outage the circuit opens, then closes once the partner is
// back. Faults are set through the simulator's API (the facade forwards no client header).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformIdWithSize } from '../../src/simulator/data.js';
import type { Fault } from '../../src/simulator/server.js';
import { ANSWER_CODES, codesIn } from '../support/properties.js';
import { startTestkit, type Testkit } from '../support/testkit.js';

const APP_ID = 730;
const USERS = Array.from({ length: 6 }, (_, n) => ({ token: `load-user-${n}`, platformId: platformIdWithSize(30 + n) }));
const REQUESTS_PER_ROUND = 48;
const CONCURRENCY = 6;

const FAULTS: Fault[] = [
  { kind: 'abort', status: 503, rate: 0.3 },
  { kind: 'abort', status: 500, rate: 0.3 },
  { kind: 'abort', status: 429, rate: 0.3, retryAfter: 1 },
  { kind: 'reset', rate: 0.3 },
  { kind: 'slow', rate: 0.2, delayMs: 1500 },
  { kind: 'slow-body', rate: 0.3, delayMs: 300 },
  { kind: 'truncated-body', rate: 0.3 },
  { kind: 'wrong-content-type', rate: 0.3 },
  { kind: 'envelope-error', rate: 0.3 },
  { kind: 'bad-shape', rate: 0.3 },
];

let kit: Testkit;
beforeAll(async () => {
  kit = await startTestkit({
    config: { upstreamTimeoutMs: 1000, upstreamMaxRetries: 1, upstreamBreakerMinCalls: 5, upstreamBreakerHalfOpenMs: 1500 },
  });
});
afterAll(() => kit.close());

const query = (platformId: string) =>
  `{ inventory(platformId: "${platformId}", appId: ${APP_ID}) { totalCount items(first: 5) { nodes { assetId listingFee(price: 10000) { fee } } } } }`;

/** One request; its answer must be 200 with codes of the closed set. Answers the codes. */
async function one(n: number): Promise<string[]> {
  const user = USERS[n % USERS.length]!;
  const response = await kit.post({ query: query(user.platformId) }, { token: user.token });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const codes = codesIn(text);
  for (const code of codes) expect(ANSWER_CODES.has(code), text).toBe(true);
  if (text.includes('"errors"')) expect(codes.length, text).toBeGreaterThan(0);
  return codes;
}

async function round(): Promise<string[]> {
  const codes: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS_PER_ROUND) codes.push(...(await one(next++)));
    }),
  );
  return codes;
}

function heapAfterCollection(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

describe('a bounded load under each fault', () => {
  it.each(FAULTS.map((fault) => [`${fault.kind}${fault.status ? ` ${fault.status}` : ''}`, fault] as const))(
    '%s: every answer 200 and coded, the service healthy after',
    async (_name, fault) => {
      kit.simulator.reset({ faults: [fault] });
      const codes = await round();
      // The fault was met (a rate of 0.2 or more over dozens of calls).
      expect(kit.simulator.calls.some((call) => call.fault === fault.kind), JSON.stringify(codes)).toBe(true);
      expect((await fetch(`${kit.url}/health`)).status).toBe(200);
    },
    60_000,
  );

  it('keeps its heap from one round to the next', async () => {
    kit.simulator.reset({ faults: FAULTS.map((fault) => ({ ...fault, rate: 0.05 })) });
    await round();
    const before = heapAfterCollection();
    for (let n = 0; n < 3; n++) await round();
    const after = heapAfterCollection();
    // Three rounds of garbage are collected; what stays is caches' bounded entries, not a leak.
    expect(after - before).toBeLessThan(32 * 1024 * 1024);
  }, 90_000);

  it('opens the circuit on a full outage and closes it once the partner answers again', async () => {
    kit.simulator.reset();
    // Users the partner has accepted: only they count as distinct callers for the circuit.
    for (const user of USERS) expect(await one(USERS.indexOf(user))).toEqual([]);
    kit.simulator.reset({ faults: [{ kind: 'abort', status: 503 }] });
    await expect.poll(async () => {
      await one(Math.floor(Math.random() * USERS.length));
      return kit.service.partner.circuitStates().some((circuit) => circuit.state === 'open');
    }).toBe(true);
    const callsWhileOpen = kit.simulator.callsOf('readInventory').length;
    const whileOpen = await kit.post({ query: query(USERS[0]!.platformId) }, { token: USERS[0]!.token });
    const body = (await whileOpen.json()) as { errors: Array<{ extensions: { code: string; retryAfter?: number } }> };
    expect(body.errors.map((error) => error.extensions.code)).toContain('UPSTREAM_UNAVAILABLE');
    expect(kit.simulator.callsOf('readInventory')).toHaveLength(callsWhileOpen);

    kit.simulator.reset();
    await expect
      .poll(async () => (await one(0)).length === 0 && kit.service.partner.circuitStates().every((circuit) => circuit.state === 'closed'), { timeout: 20_000, interval: 250 })
      .toBe(true);
  }, 60_000);
});
