// Subscription.inventory across two replicas sharing one real redis-server: the replica holding a
// group's lease polls it and publishes the results, the other delivers them, so that the fleet reads
// a watched page once per interval; when the holder stops, or dies, the other takes the lease and
// polls; while Redis is down each replica polls on its own.
import { createHash } from 'node:crypto';
import type { ExecutionResult } from 'graphql';
import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialDigest } from '../../src/credentials.js';
import { DEMO_ACCESS_TOKEN, DEMO_APP_ID, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { redisSeenBy, startRedisServer, type RedisServer } from '../support/redis.js';
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

const until = async (check: () => boolean | Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const totalOf = (event: ExecutionResult | undefined) => (event?.data as { inventory?: { totalCount: number } } | undefined)?.inventory?.totalCount;

const SERVICE_ACL = ['resetchannels', '&tradegraph:*', '+@read', '+@write', '+@scripting', '+@transaction', '+@connection', '+@pubsub', '+info'];
let redis: RedisServer;
let fleet: TwoReplicas;
let bClosed = false;

beforeAll(async () => {
  // The service's user has the ACL docs/fleet.md gives it: publishing and subscribing need its channel rules.
  redis = await startRedisServer({ user: { name: 'tradegraph', password: 'live-redis-user-password', acl: SERVICE_ACL } });
  fleet = await startTwoReplicas(redis.url, { livePollIntervalMs: INTERVAL_MS });
});

afterAll(async () => {
  if (bClosed) await fleet?.a.close();
  else await fleet?.close();
  await redis?.stop();
});

/** The lease key of the demo credential's live group (src/live/relay.ts names a group by this hash). */
const LEASE = `tradegraph:live-lease:${createHash('sha256').update(`${credentialDigest(DEMO_ACCESS_TOKEN)}\u0000${DEMO_APP_ID}\u0000${DEMO_PLATFORM_ID}`).digest('hex')}`;

describe('live inventories across two replicas with Redis', () => {
  let onA: Watch[] = [];
  let onB: Watch[] = [];
  const reads = () => fleet.a.simulator.callsOf('readInventory').length;
  const traded = async (watchers: Watch[], count: number, total: number) => {
    fleet.a.simulator.tradeAway(DEMO_PLATFORM_ID, DEMO_APP_ID, count);
    await until(() => watchers.every((live) => totalOf(live.events.at(-1)) === total), INTERVAL_MS * 5);
  };

  it('reads a page once per interval for subscribers on both replicas, and a change reaches them all', async () => {
    const { a, b } = fleet;
    // B's subscribers come first: B polls first and takes the lease.
    onB = Array.from({ length: 3 }, () => watch(b));
    await until(() => onB.every((live) => live.events.length === 1));
    await until(() => reads() >= 2);
    onA = Array.from({ length: 3 }, () => watch(a));
    await until(() => onA.every((live) => live.events.length === 1));
    // A's first poll finds the lease taken; from then on A delivers what B publishes.
    await sleep(INTERVAL_MS * 2);
    const before = reads();
    await sleep(INTERVAL_MS * 6);
    const shared = reads() - before;
    // Six intervals: about six reads for the fleet, where each replica polling alone would make twelve.
    expect(shared).toBeGreaterThanOrEqual(3);
    expect(shared).toBeLessThanOrEqual(8);
    // A's subscribers were served B's polls: each heard poll saved three.
    const savedOnA = Number(/^tradegraph_live_polls_saved_total (\d+)$/m.exec(await a.service.metrics.registry.metrics())?.[1]);
    expect(savedOnA).toBeGreaterThanOrEqual(3 * 3);
    await traded([...onA, ...onB], 2, 238);
    for (const live of [...onA, ...onB]) expect(live.events).toHaveLength(2);
    // The lease names the group by a hash: the token is nowhere in Redis.
    const stored = await redis.dump();
    expect(stored.map(({ key }) => key)).toContain(LEASE);
    expect(JSON.stringify(stored)).not.toContain(DEMO_ACCESS_TOKEN);
  });

  it('polls on each replica while Redis is down: a change still reaches every subscriber', async () => {
    await redis.stop();
    await redisSeenBy('down', fleet.a, fleet.b);
    await traded([...onA, ...onB], 1, 237);
    await redis.start();
    await redisSeenBy('up', fleet.a, fleet.b);
  });

  it('the holder stopped, the other replica takes the lease and polls', async () => {
    // The holder's lease is released as its last subscriber leaves.
    for (const live of onB) live.stop();
    bClosed = true;
    await fleet.b.close();
    await traded(onA, 1, 236);
    const alone = reads();
    await sleep(INTERVAL_MS * 4);
    expect(reads() - alone).toBeGreaterThanOrEqual(2);
    expect(reads() - alone).toBeLessThanOrEqual(5);
    for (const live of onA) live.stop();
    await until(() => fleet.a.service.live.hub.groups === 0);
  });

  it('a lease whose holder died expires and is taken; meanwhile the subscribers are still served', async () => {
    // A holder that died without releasing its lease, and never publishes.
    await redis.admin('SET', LEASE, 'a-replica-that-died', 'PX', String(INTERVAL_MS * 4));
    const watchers = [watch(fleet.a), watch(fleet.a)];
    await until(() => watchers.every((live) => live.events.length === 1));
    await traded(watchers, 1, 235);
    await until(async () => ![null, 'a-replica-that-died'].includes((await redis.admin('GET', LEASE)) as string | null), INTERVAL_MS * 8);
    for (const live of watchers) live.stop();
  });
});
