// Two replicas of the service over one partner simulator and one Redis, as `npm run fleet` runs
// them: the setup of every test that checks what the fleet shares through Redis.
import type { Config } from '../../src/config.js';
import { redisSeenBy } from './redis.js';
import { startTestkit, type Testkit } from './testkit.js';

export interface TwoReplicas {
  a: Testkit;
  b: Testkit;
  /** Closes b, then a (whose simulator b shares). */
  close(): Promise<void>;
}

/**
 * Starts both on `redisUrl` with `config`, and waits until each has its Redis up. The command
 * deadline is one no stall of a loaded machine reaches: a missed one would mark Redis down, and
 * each replica would then count on its own (the redis-hung tests cover that).
 */
export async function startTwoReplicas(redisUrl: string, config: Partial<Config> = {}): Promise<TwoReplicas> {
  const shared = { redisUrl, redisCommandTimeoutMs: 5000, ...config };
  const a = await startTestkit({ config: shared });
  const b = await startTestkit({ config: shared, sharedSimulator: a.simulator });
  await redisSeenBy('up', a, b);
  return {
    a,
    b,
    close: async () => {
      await b.close();
      await a.close();
    },
  };
}
