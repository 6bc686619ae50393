// Rate limits per credential: a budget of RATE_LIMIT_MAX operations per RATE_LIMIT_WINDOW_MS,
// checked when the request's parameters are known, before any cache lookup or partner call. With
// Redis the counts are shared by every replica; without it (or while it is away) they are the
// replica's own.
import type { Plugin } from 'graphql-yoga';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { TradegraphContext } from '../context.js';
import { credentialKeyOf } from '../credentials.js';
import { OperationRateLimitedError } from '../errors.js';
import type { SharedRedis } from '../redis.js';

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  redis?: SharedRedis;
}

/** Every counter this limiter writes in Redis starts so; the rest is a SHA-256 hash or `anonymous`. */
export const REDIS_KEY_PREFIX = 'tradegraph:rate-limit';

/**
 * Requests without a credential (or with a malformed one, which the context then refuses) share
 * one bucket: behind a load balancer the client address would be the balancer's, and a credential
 * is what the partner itself limits by.
 */
const ANONYMOUS = 'anonymous';

export function useRateLimit({ max, windowMs, redis }: RateLimitOptions): Plugin<TradegraphContext> {
  // Loaded on first use, and only when a limit is configured.
  let limiters: Promise<Limiters> | undefined;
  const limitersOf = () => (limiters ??= createLimiters({ max, windowMs, redis }));
  return {
    async onParams({ request }) {
      const key = credentialKeyOf(request) ?? ANONYMOUS;
      try {
        const { shared, own } = await limitersOf();
        // While Redis is down (also hung, its connection still open) it is not asked at all.
        await (shared && redis?.up ? shared : own).consume(key);
      } catch (refusal) {
        // A refusal is the limiter's answer; an Error is a failure of the limiter itself.
        if (refusal instanceof Error) throw refusal;
        const retryAfter = Math.max(1, Math.ceil((refusal as RateLimiterRes).msBeforeNext / 1000));
        throw new OperationRateLimitedError(max, windowMs, retryAfter);
      }
    },
  };
}

/** The replica's own counts, and the counts shared through Redis (null without it). */
interface Limiters {
  own: RateLimiterAbstract;
  shared: RateLimiterAbstract | null;
}

async function createLimiters({ max, windowMs, redis }: RateLimitOptions): Promise<Limiters> {
  const { RateLimiterMemory, RateLimiterRedis } = await import('rate-limiter-flexible');
  const limits = { points: max, duration: windowMs / 1000 };
  const ownCounts = new RateLimiterMemory(limits);
  if (!redis) return { own: ownCounts, shared: null };
  const shared = new RateLimiterRedis({
    ...limits,
    storeClient: await redis.client(),
    keyPrefix: REDIS_KEY_PREFIX,
    // While Redis is away (or a command fails), the replica counts on its own.
    rejectIfRedisNotReady: true,
    insuranceLimiter: ownCounts,
  });
  return { own: ownCounts, shared };
}
