// Subscription.inventory across two replicas sharing one real redis-server: the replica holding a
// group's lease polls it and publishes the results, the other delivers them, so that the fleet reads
// a watched page once per interval; when the holder stops, the other takes the lease and polls.
import type { ExecutionResult } from 'graphql';
import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { startRedisServer, type RedisServer } from '../support/redis.js';
import { startTwoReplicas, type TwoReplicas } from '../support/replicas.js';
import type { Testkit } from '../support/testkit.js';

const INTERVAL_MS = 500;
const PAGE = `subscription Live($platformId: String!, $appId: Int!) {
  inventory(platformId: $platformId, appId: $appId) { totalCount items(first: 5) { nodes { assetId } } }
}`;

interface Watch {
  events: ExecutionResult[];
  stop(): void;
}

function watch(kit: Testkit): Watch {
  const events: ExecutionResult[] = [];
  const client = createClient({ url: kit.graphqlUrl, headers: { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` }, retryAttempts: 0 });
  const stop = client.subscribe(
    { query: PAGE, variables: { platformId: DEMO_PLATFORM_ID, appId: DEMO_APP_ID } },
    { next: (event) => void events.push(event as ExecutionResult), error: () => undefined, complete: () => undefined },
  );
  return { events, stop };
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const totalOf = (event: ExecutionResult | undefined) => (event?.data as { inventory?: { totalCount: number } } | undefined)?.inventory?.totalCount;

let redis: RedisServer;
let fleet: TwoReplicas;
let bClosed = false;

beforeAll(async () => {
  redis = await startRedisServer();
  fleet = await startTwoReplicas(redis.url, { livePollIntervalMs: INTERVAL_MS });
});

afterAll(async () => {
  if (bClosed) await fleet?.a.close();
  else await fleet?.close();
  await redis?.stop();
});

describe('live inventories across two replicas with Redis', () => {
  it('reads a page once per interval for subscribers on both replicas, and a change reaches them all; the holder stopped, the other takes over', async () => {
    const { a, b } = fleet;
    const reads = () => a.simulator.callsOf('readInventory').length;
    // B's subscribers come first: B polls first and takes the lease.
    const onB = Array.from({ length: 3 }, () => watch(b));
    await until(() => onB.every((live) => live.events.length === 1));
    await until(() => b.service.live.hub.groups === 1 && reads() >= 2);
    const onA = Array.from({ length: 3 }, () => watch(a));
    await until(() => onA.every((live) => live.events.length === 1));
    // A's first poll finds the lease taken; from then on A delivers what B publishes.
    await sleep(INTERVAL_MS * 2);
    const before = reads();
    await sleep(INTERVAL_MS * 6);
    const shared = reads() - before;
    // Six intervals: about six reads for the fleet, where each replica polling alone would make twelve.
    expect(shared).toBeGreaterThanOrEqual(3);
    expect(shared).toBeLessThanOrEqual(8);

    a.simulator.tradeAway(DEMO_PLATFORM_ID, DEMO_APP_ID, 2);
    const all = [...onA, ...onB];
    await until(() => all.every((live) => live.events.length === 2), INTERVAL_MS * 4);
    for (const live of all) expect(totalOf(live.events[1])).toBe(238);

    // The holder stops (its lease is released as its last subscriber leaves): A takes the lease.
    for (const live of onB) live.stop();
    bClosed = true;
    await b.close();
    a.simulator.tradeAway(DEMO_PLATFORM_ID, DEMO_APP_ID, 1);
    await until(() => onA.every((live) => live.events.length === 3), INTERVAL_MS * 4);
    for (const live of onA) expect(totalOf(live.events[2])).toBe(237);
    const alone = reads();
    await sleep(INTERVAL_MS * 4);
    expect(reads() - alone).toBeGreaterThanOrEqual(2);
    expect(reads() - alone).toBeLessThanOrEqual(5);
    for (const live of onA) live.stop();
  });
});
