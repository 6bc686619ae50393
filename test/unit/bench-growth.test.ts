// Cost as callers grow (issue 53, Must 5): the growth measurement's requests, sent by the
// generator over real HTTP as that many distinct callers, its per-caller arithmetic and the table
// report.ts renders from it. No timing here: the bench itself never runs in the test suite.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drive } from '../bench/drive.js';
import { GROWTH_CALLERS, growthCallersOf, perCallerGrowth, stepRequestsOf, type GrowthResults, type GrowthStep } from '../bench/growth.js';
import { renderReport, type BenchResults } from '../bench/report.js';
import { FLOOR_TARGET, MANY_INVENTORIES, rotatingCallersRequests } from '../bench/scenarios.js';
import { driveWrk } from '../bench/wrk.js';

const platformIdOf = (body: string) => (JSON.parse(body) as { variables: { platformId: string } }).variables.platformId;

describe('the growth steps', () => {
  it('are 10, 1,000 and 100,000 distinct callers, and a step sends each of its callers at least once', () => {
    expect(GROWTH_CALLERS).toEqual([10, 1_000, 100_000]);
    expect(stepRequestsOf(10, 20_000)).toBe(20_000);
    expect(stepRequestsOf(100_000, 20_000)).toBe(100_000);
  });

  it('take other rising caller counts, and refuse what is not one', () => {
    expect(growthCallersOf('10,1000,10000')).toEqual([10, 1_000, 10_000]);
    for (const bad of ['10', '10,10', '1000,10', '10,x', '0,10', '10,1.5e3.2']) expect(() => growthCallersOf(bad)).toThrow(/--growth-callers/);
  });

  it('rotate over the inventories too', () => {
    const requests = rotatingCallersRequests(1_000);
    expect(new Set(requests.map((request) => platformIdOf(request.body!))).size).toBe(MANY_INVENTORIES);
  });
});

describe('the growth requests, sent by autocannon', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  const listen = async (seen: Array<{ authorization: string; platformId: string }>) => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen.push({ authorization: req.headers.authorization ?? '', platformId: platformIdOf(body) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  it('come from exactly that many distinct callers, each seen once in as many requests, over distinct inventories in flight', async () => {
    const seen: Array<{ authorization: string; platformId: string }> = [];
    const url = await listen(seen);
    await drive(url, rotatingCallersRequests(600), 10, { amount: 1_200 });
    expect(seen.length).toBe(1_200);
    const callers = new Map<string, number>();
    for (const { authorization } of seen) callers.set(authorization, (callers.get(authorization) ?? 0) + 1);
    expect(callers.size).toBe(600);
    expect([...callers.values()].every((count) => count === 2)).toBe(true);
    expect(new Set(seen.map((s) => s.platformId)).size).toBe(MANY_INVENTORIES);
  });

  it('go on from a given caller, so that a run shorter than the rotation reaches the rest', async () => {
    const first: Array<{ authorization: string; platformId: string }> = [];
    const url = await listen(first);
    await drive(url, rotatingCallersRequests(100, 0), 5, { amount: 60 });
    await drive(url, rotatingCallersRequests(100, 60), 5, { amount: 40 });
    expect(new Set(first.map((s) => s.authorization)).size).toBe(100);
  });

  it('are refused by wrk, whose timed rounds cannot promise to reach every caller', async () => {
    await expect(driveWrk('http://127.0.0.1:9', rotatingCallersRequests(10), 1, 1)).rejects.toThrow(/drive\(\)/);
  });
});

const step = (callers: number, facade: [rssMiB: number, heapMiB: number], floor: [number, number]): GrowthStep => ({
  callers,
  requests: Math.max(callers, 20_000),
  targets: {
    facade: { cpuMsPerRequest: 0.8, rps: 1000, p99: 20, rssMiB: facade[0], heapMiB: facade[1] },
    [FLOOR_TARGET]: { cpuMsPerRequest: 0.6, rps: 1200, p99: 15, rssMiB: floor[0], heapMiB: floor[1] },
  },
});

describe('what each new caller adds', () => {
  it("is the difference from the step before over the callers added, in bytes, each target's own", () => {
    const steps = [step(10, [150, 40], [130, 28]), step(1_000, [151, 40.5], [130, 28]), step(100_000, [170, 56], [131, 28.1])];
    expect(perCallerGrowth(steps, 'facade')).toEqual([
      { fromCallers: 10, toCallers: 1_000, heapBytes: Math.round((0.5 * 2 ** 20) / 990), rssBytes: Math.round(2 ** 20 / 990) },
      { fromCallers: 1_000, toCallers: 100_000, heapBytes: Math.round((15.5 * 2 ** 20) / 99_000), rssBytes: Math.round((19 * 2 ** 20) / 99_000) },
    ]);
    expect(perCallerGrowth(steps, FLOOR_TARGET)[1]).toEqual({
      fromCallers: 1_000,
      toCallers: 100_000,
      heapBytes: Math.round((0.1 * 2 ** 20) / 99_000),
      rssBytes: Math.round(2 ** 20 / 99_000),
    });
  });

  it('is negative where memory was given back, and nothing for a target a step lacks', () => {
    const steps = [step(10, [150, 40], [130, 28]), step(1_000, [149, 39], [130, 28])];
    expect(perCallerGrowth(steps, 'facade')[0]!.heapBytes).toBeLessThan(0);
    expect(perCallerGrowth(steps, 'peer')).toEqual([]);
  });
});

describe('the report of cost as callers grow', () => {
  const run = (lastRssMiB: number, lastPhase: { low: number; high: number }): BenchResults => {
    const steps = [step(10, [150, 40], [130, 28]), step(1_000, [151, 40.5], [130, 28]), step(100_000, [lastRssMiB, 56], [131, 28.1])];
    const growth: GrowthResults = {
      connections: 10,
      steps,
      perCaller: { facade: perCallerGrowth(steps, 'facade'), [FLOOR_TARGET]: perCallerGrowth(steps, FLOOR_TARGET) },
      soak: {
        target: 'facade',
        callers: 100_000,
        requests: 150_000,
        rps: 900,
        peakRssMiB: lastRssMiB + 5,
        phases: [
          { samples: 40, slopeKiBPer10kRequests: 30, low: 10, high: 50 },
          { samples: 40, slopeKiBPer10kRequests: (lastPhase.low + lastPhase.high) / 2, ...lastPhase },
        ],
      },
    };
    return { date: '2026-11-29T00:00:00.000Z', machine: { cores: 2, cpuModel: 'test', memoryGiB: 1, node: 'v26.10.0' }, settings: { rounds: 5, durationS: 3 }, growth };
  };
  const line = (results: BenchResults, start: string) => renderReport(results).split('\n').find((text) => text.startsWith(start));

  it('gives each step a row, facade / floor, with the bytes each new caller added', () => {
    const rendered = renderReport(run(170, { low: -2, high: 3 }));
    expect(rendered).toContain('| Distinct callers | requests | CPU ms/req | RSS MiB | heap MiB | heap bytes per new caller | RSS bytes per new caller |');
    expect(line(run(170, { low: -2, high: 3 }), '| 10 |')).toBe('| 10 | 20,000 | 0.800 / 0.600 | 150.0 / 130.0 | 40.0 / 28.0 | – / – | – / – |');
    expect(line(run(170, { low: -2, high: 3 }), '| 100,000 |')).toBe('| 100,000 | 100,000 | 0.800 / 0.600 | 170.0 / 131.0 | 56.0 / 28.1 | 164 / 1 | 201 / 11 |');
  });

  it('holds the RSS after the last step to 300 MB (10^6 bytes)', () => {
    expect(line(run(286, { low: -2, high: 3 }), '- RSS after')).toBe('- RSS after 100,000 distinct callers < 300 MB: 286.0 MiB (300 MB), met');
    expect(line(run(287, { low: -2, high: 3 }), '- RSS after')).toBe('- RSS after 100,000 distinct callers < 300 MB: 287.0 MiB (301 MB), **missed**');
  });

  it("calls the heap flat when the soak's last phase's interval holds zero, growing when it lies above", () => {
    expect(line(run(170, { low: -2, high: 3 }), '- heap after GC')).toBe(
      "- heap after GC at 100,000 callers, last soak phase's slope not above zero: -2.0 to 3.0 KiB per 10,000 requests, met",
    );
    expect(line(run(170, { low: 0.5, high: 3 }), '- heap after GC')).toMatch(/0\.5 to 3\.0 KiB per 10,000 requests, \*\*missed\*\*$/);
    expect(renderReport(run(170, { low: -2, high: 3 }))).toContain('by phase: 30.0 KiB (10.0 to 50.0), 0.5 KiB (-2.0 to 3.0).');
  });
});
