// The upstream policies compose in the order listed, the first outermost: a call passes each on
// its way in and hears back from each in reverse order on its way out.
import { describe, expect, it } from 'vitest';
import { composeUpstream, type UpstreamPolicy } from '../../src/partner/call.js';
import { upstreamCall } from '../support/upstream-call.js';

const tracing = (name: string, trace: string[]): UpstreamPolicy => ({
  wrap: (next) => async (upstream) => {
    trace.push(`${name} in`);
    const answer = await next(upstream);
    trace.push(`${name} out`);
    return answer;
  },
});

describe('composeUpstream', () => {
  it('runs the policies in the order listed, the first outermost', async () => {
    const trace: string[] = [];
    const send = composeUpstream([tracing('coalescing', trace), tracing('slots', trace), tracing('retries', trace)], async () => {
      trace.push('attempt');
      return 'page';
    });
    expect(await send(upstreamCall())).toBe('page');
    expect(trace).toEqual(['coalescing in', 'slots in', 'retries in', 'attempt', 'retries out', 'slots out', 'coalescing out']);
  });
});
