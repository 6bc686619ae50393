// Requests shed at MAX_OPERATIONS_IN_FLIGHT never reach Yoga, so no operation series counts them:
// tradegraph_http_requests_shed_total does, one for each 503, for the availability SLO and the
// overload alert of ops/prometheus/.
import { describe, expect, it } from 'vitest';
import { DEMO_APP_ID, platformIdWithSize } from '../../src/simulator/data.js';
import { useTestkit } from '../support/testkit.js';

const kit = useTestkit({ config: { maxOperationsInFlight: 1, upstreamTimeoutMs: 60_000, operationTimeoutMs: 120_000 } });

const shedCount = async () => {
  const text = await (await fetch(`${kit().url}/metrics`)).text();
  return Number(/^tradegraph_http_requests_shed_total (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
};

describe('tradegraph_http_requests_shed_total', () => {
  it('counts each request refused with 503 at the cap, and nothing else', async () => {
    expect(await shedCount()).toBe(0);
    // The one admitted operation waits for a listing fee the simulator holds: it stays in flight.
    const release = kit().simulator.holdListingFees();
    const held = kit().post({ query: `{ inventory(platformId: "${platformIdWithSize(3)}", appId: ${DEMO_APP_ID}) { items(first: 1) { nodes { listingFee(price: 1000) { fee } } } } }` });
    try {
      await expect.poll(() => kit().simulator.callsOf('calculateListingFee').length).toBe(1);
      const refused = await Promise.all(Array.from({ length: 3 }, () => kit().post({ query: '{ __typename }' })));
      expect(refused.map((response) => response.status)).toEqual([503, 503, 503]);
      expect(await shedCount()).toBe(3);
    } finally {
      release();
    }
    expect((await held).status).toBe(200);
    expect((await kit().post({ query: '{ __typename }' })).status).toBe(200);
    expect(await shedCount()).toBe(3);
  });
});
