// The readiness check's rules and its cache: one probe serves every caller within the cache time,
// concurrent callers share the probe in flight, and an expired answer is probed again.
import { describe, expect, it } from 'vitest';
import { createReadinessCheck, isReady, type UpstreamProbeResult } from '../../src/observability/readiness.js';

const up: UpstreamProbeResult = { upstream: 'partner', reachable: true, httpStatus: 404, circuit: 'closed' };

describe('isReady', () => {
  it('needs every upstream reachable with its circuit not open', () => {
    expect(isReady([up, { ...up, upstream: 'openApi', httpStatus: 401 }])).toBe(true);
    expect(isReady([up, { ...up, upstream: 'openApi', circuit: 'halfOpen' }])).toBe(true);
    expect(isReady([up, { upstream: 'openApi', reachable: false, error: 'timeout', circuit: 'closed' }])).toBe(false);
    expect(isReady([{ ...up, circuit: 'open' }])).toBe(false);
    expect(isReady([{ ...up, circuit: 'isolated' }])).toBe(false);
  });
});

describe('createReadinessCheck', () => {
  it('shares one probe between concurrent callers and reuses its answer until the cache time passes', async () => {
    let clock = 0;
    const timeouts: number[] = [];
    let answer: UpstreamProbeResult[] = [up];
    const check = createReadinessCheck({
      probe: async (timeoutMs) => {
        timeouts.push(timeoutMs);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return answer;
      },
      timeoutMs: 1500,
      cacheMs: 2000,
      now: () => clock,
    });

    const first = await Promise.all([check(), check(), check()]);
    expect(first.map((report) => report.ready)).toEqual([true, true, true]);
    expect(timeouts).toEqual([1500]);

    answer = [{ ...up, reachable: false, error: 'ECONNREFUSED', httpStatus: undefined }];
    clock = 1999;
    expect((await check()).ready).toBe(true);
    expect(timeouts).toHaveLength(1);

    clock = 2000;
    expect(await check()).toEqual({ ready: false, upstreams: answer });
    expect(timeouts).toHaveLength(2);
  });
});
