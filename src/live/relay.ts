// Shares a live group's polls across the fleet through Redis: the replica holding the group's lease
// polls it and publishes each selection's result on the group's channel; the others deliver what
// they hear instead of reading. Keys and channels name the group by a hash of its key (which holds
// the credential's digest, never the token); every message is tagged (redis-values.ts), so a
// message the service did not write is dropped. While Redis is away every replica leads its groups.
import { createHash, randomUUID } from 'node:crypto';
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { SharedRedis } from '../redis.js';
import { REDIS_KEY_PREFIXES } from '../redis-keys.js';

export interface LiveRelay {
  /** True when this replica polls the group now: it holds (or just took) the lease for `ttlMs` more, or Redis is away. */
  lead(group: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up, when this replica holds it (its last subscriber of the group left). */
  release(group: string): void;
  /** One poll's results, each beside its selection's key. */
  publish(group: string, results: [string, ExecutionResult][]): void;
  /** Hears the results the group's holder publishes, until `unlisten`. */
  listen(group: string, hear: (results: [string, ExecutionResult][]) => void): void;
  unlisten(group: string): void;
  close(): void;
}

// Takes the lease when it is free, or extends it when this replica holds it, in one step: between a
// GET and a SET another replica could take it.
const LEAD = `local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** The lease's scripts, as ioredis's defineCommand adds them: sent by EVALSHA, their text only when Redis lacks it. */
interface LeaseCommands {
  tradegraphLiveLead(lease: string, holder: string, ttlMs: string): Promise<number>;
  tradegraphLiveRelease(lease: string, holder: string): Promise<number>;
}

function withLeaseCommands(client: Redis): Redis & LeaseCommands {
  if (!('tradegraphLiveLead' in client)) {
    client.defineCommand('tradegraphLiveLead', { numberOfKeys: 1, lua: LEAD });
    client.defineCommand('tradegraphLiveRelease', { numberOfKeys: 1, lua: RELEASE });
  }
  return client as Redis & LeaseCommands;
}

/** A result as published: its errors as GraphQL formats them, without locations (each replica's document is its own). */
export interface Published {
  data?: unknown;
  errors?: { message: string; path?: readonly (string | number)[]; extensions?: Record<string, unknown> }[];
}

export function createRedisRelay(redis: SharedRedis, logger: Logger): LiveRelay {
  // The lease's holder: this replica, until it stops.
  const me = randomUUID();
  const groupHash = (group: string) => createHash('sha256').update(group).digest('hex');
  const lease = (group: string) => `${REDIS_KEY_PREFIXES.liveLease}${groupHash(group)}`;
  const channelOf = (group: string) => `${REDIS_KEY_PREFIXES.liveChannel}${groupHash(group)}`;
  const listeners = new Map<string, (results: [string, ExecutionResult][]) => void>();
  let subscriber: Promise<Redis> | undefined;
  // While Redis is away these fail, and the hub polls on its own: worth a debug line, no more.
  const quietly = (what: string) => (error: unknown) => logger.debug({ err: error }, `live relay: ${what} failed`);
  // Pub/sub takes a connection of its own (a subscribed connection runs no other command). It
  // subscribes to the channels listened to each time it is ready, rather than by ioredis's
  // autoResubscribe, whose SUBSCRIBE has no handler: closed before its answer, it is an unhandled rejection.
  const subscriberOf = () =>
    (subscriber ??= redis.client().then((client) => {
      const connection = client.duplicate({ autoResubscribe: false });
      // Its failures are the shared connection's too, which reports them (redis.ts).
      connection.on('error', () => undefined);
      connection.on('ready', () => {
        if (listeners.size > 0) connection.subscribe(...listeners.keys()).catch(quietly('subscribe'));
      });
      connection.on('message', (channel: string, text: string) => {
        const hear = listeners.get(channel);
        const value = hear && redis.values.open(channel, text, 'live_results');
        if (value === undefined || !hear) return;
        const published = JSON.parse(value) as [string, Published][];
        hear(published.map(([selection, result]) => [selection, asResult(result)]));
      });
      return connection;
    }));
  return {
    async lead(group, ttlMs) {
      const held = await redis.attempt((client) => withLeaseCommands(client).tradegraphLiveLead(lease(group), me, String(Math.ceil(ttlMs))));
      return held === undefined || held === 1;
    },
    release(group) {
      void redis.attempt((client) => withLeaseCommands(client).tradegraphLiveRelease(lease(group), me));
    },
    publish(group, results) {
      const channel = channelOf(group);
      const message = JSON.stringify(results.map(([selection, result]) => [selection, published(result)]));
      void redis.attempt((client) => client.publish(channel, redis.values.seal(channel, message)));
    },
    listen(group, hear) {
      const channel = channelOf(group);
      listeners.set(channel, hear);
      void subscriberOf().then((connection) => connection.subscribe(channel)).catch(quietly('subscribe'));
    },
    unlisten(group) {
      const channel = channelOf(group);
      listeners.delete(channel);
      void subscriberOf().then((connection) => connection.unsubscribe(channel)).catch(quietly('unsubscribe'));
    },
    close() {
      listeners.clear();
      void subscriber?.then((connection) => connection.disconnect());
    },
  };
}

/** A result as its errors print (message, path, extensions): what is published, and what tells one result from another (hub.ts). */
export function published({ data, errors }: ExecutionResult): Published {
  return { data, errors: errors?.map(({ message, path, extensions }) => ({ message, path, extensions })) };
}

/** A published result as the hub's own runs answer it: its errors GraphQLErrors again. */
function asResult({ data, errors }: Published): ExecutionResult {
  const result: ExecutionResult = { data: data as ExecutionResult['data'] };
  if (errors) result.errors = errors.map((error) => new GraphQLError(error.message, { path: error.path, extensions: error.extensions }));
  return result;
}
