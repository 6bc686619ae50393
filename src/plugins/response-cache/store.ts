// Which store the response cache keeps its answers in: Redis, shared by every replica, when the
// service has one; otherwise the process's own, bounded by heap.
import type { Logger } from 'pino';
import type { SharedRedis } from '../../redis.js';
import { createInProcessStore, type InProcessStore } from './in-process-store.js';
import { createRedisStore } from './redis-store.js';
import type { ResponseStore } from './store-contract.js';

interface StoreChoice {
  redis?: SharedRedis;
  maxBytes: number;
  maxEntryBytes: number;
  staleIfErrorMs: number;
  logger: Logger;
  onInProcessStore?: (store: InProcessStore) => void;
}

/**
 * Answers expire by their TTL (and the stale-if-error window) only, and nothing is invalidated in
 * either store: the schema's one mutation computes fees and changes nothing a cached read holds.
 */
export function chooseResponseStore({ redis, maxBytes, maxEntryBytes, staleIfErrorMs, logger, onInProcessStore }: StoreChoice): ResponseStore {
  if (redis) return createRedisStore(redis, { maxEntryBytes, staleIfErrorMs, logger });
  const inProcess = createInProcessStore({ maxBytes, maxEntryBytes, staleIfErrorMs });
  onInProcessStore?.(inProcess);
  return inProcess;
}
