// Label values chosen by clients or the partner are bounded: the first ones keep their own series,
// later new ones share `other`, so the series count cannot grow without end.
import { describe, expect, it } from 'vitest';
import { boundedLabel } from '../../src/observability/bounded-label.js';
import { createMetrics } from '../../src/observability/metrics.js';

describe('boundedLabel', () => {
  it('keeps the first distinct values, and gives later new ones `other`', () => {
    const label = boundedLabel(2);
    expect(['a', 'b', 'a', 'c', 'b', 'd'].map(label)).toEqual(['a', 'b', 'a', 'other', 'b', 'other']);
  });
});

describe("the upstream calls' envelope-code label", () => {
  it('holds at most 100 codes, and `other` for the rest and for codes that are no number', async () => {
    const metrics = createMetrics();
    const call = (upstreamErrorCode: unknown) =>
      metrics.partnerCalls.callEnded!({ operation: 'readInventory', method: 'GET', path: '/inventory', outcome: 'UPSTREAM_ERROR', upstreamErrorCode, durationMs: 1, attempts: 1 });
    for (let code = 1; code <= 101; code++) call(code);
    call('not a code');
    const text = await metrics.registry.metrics();
    const codes = [...text.matchAll(/^tradegraph_upstream_calls_total\{[^}]*upstream_error_code="([^"]*)"\} (\d+)$/gm)].map(([, code, count]) => [code, Number(count)]);
    expect(codes).toHaveLength(101);
    expect(codes).toContainEqual(['100', 1]);
    expect(codes).not.toContainEqual(expect.arrayContaining(['101']));
    expect(codes).toContainEqual(['other', 2]);
  });
});
